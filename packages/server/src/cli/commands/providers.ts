import type { Command } from 'commander';
import { config, examples } from '../support.ts';

/** providers list: what each provider serves and whether it works here. */
export function registerProvidersCommands(program: Command): void {
  const providers = examples(program.command('providers').description('mobile-money providers'), 'npx caisse providers list');
  examples(
    providers
      .command('list')
      .description(
        'each provider: what it serves, which of its settings are set (never their values), in which mode it works, and whether the running server finds it available',
      )
      .option('--json', 'print JSON')
      .option(
        '--check',
        'check each live provider configured here now: one harmless authenticated call its keys may make (a token, a read), never a payment; exit 1 if one fails',
      ),
    'npx caisse providers list --json',
    'npx caisse providers list --check',
  ).action(async (opts: { json?: boolean; check?: boolean }) => {
    const { checkEnvironmentAccounts, formatProvidersReport, parseProviderHealth, providersReport } = await import('../../modules/connectors/index.ts');
    const c = config();
    const quiet = { debug: () => {}, info: () => {}, warn: () => {} };
    const { systemClock } = await import('../../platform/clock.ts');
    const checks = opts.check === true ? await checkEnvironmentAccounts(c, { clock: systemClock, logger: quiet, callbackKey: c.masterKey }) : undefined;
    if ([...(checks?.values() ?? [])].some((r) => !r.ok)) process.exitCode = 1;
    // Health lives in the running server's memory: its /metrics says it (nothing when it is not running).
    const port = c.hardening.metrics.port ?? c.port;
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: c.hardening.metrics.token ? { authorization: `Bearer ${c.hardening.metrics.token}` } : {},
      signal: AbortSignal.timeout(2000),
    })
      .then(async (res) => (res.ok ? res.text() : undefined))
      .catch(() => undefined);
    const report = providersReport(c, process.env, metrics === undefined ? undefined : parseProviderHealth(metrics), checks);
    process.stdout.write(
      opts.json === true ? `${JSON.stringify(report, null, 2)}\n` : `${formatProvidersReport(report, { serverReached: metrics !== undefined })}\n`,
    );
  });
}
