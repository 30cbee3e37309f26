import { type Command, Option } from 'commander';
import { admin, errorLine, examples, print } from '../support.ts';

/** routes: which connectors reach each payment method, per mode and country. */
export function registerRoutesCommands(program: Command): void {
  const routes = examples(
    program.command('routes').description('which connectors reach each payment method, per mode and country (docs/spec/routes.md)'),
    'npx caisse routes list',
  );
  examples(
    routes
      .command('list')
      .description('every route: for each mode, country and method, the connectors a new attempt (or payout) tries in order, and whether it is the default')
      .addOption(new Option('--mode <mode>', 'one mode only').choices(['test', 'live']))
      .option('--json', 'print JSON'),
    'npx caisse routes list --json',
  ).action(async (opts: { mode?: 'test' | 'live'; json?: boolean }) => {
    const list = await admin('routes.list', opts.mode === undefined ? {} : { mode: opts.mode });
    if (opts.json === true) return print(list, true);
    for (const r of list) {
      const how = r.overridden ? `set${r.updatedBy ? ` by ${r.updatedBy}` : ''} (default: ${r.defaultConnectors.join(', ') || 'none'})` : 'default';
      process.stdout.write(`${r.mode} ${r.country} ${r.kind.padEnd(7)} ${r.method.padEnd(14)} ${r.connectors.join(' → ') || '(no connector)'}  ${how}\n`);
    }
  });
  examples(
    routes
      .command('set')
      .description('set the connectors a method goes through, in order (refused, exit 1, for a connector that does not serve it there)')
      .addOption(new Option('--mode <mode>', 'test or live').choices(['test', 'live']).makeOptionMandatory())
      .requiredOption('--country <CC>', "the merchants' country (CM)")
      .requiredOption('--method <method>', 'the payment method the payer chooses (an operator, as `routes list` names it)')
      .option('--connectors <a,b>', 'the connectors, in the order they are tried')
      .option('--default', 'back to the default route')
      .addOption(new Option('--kind <kind>', 'payment attempts or payouts to that method').choices(['payment', 'payout']).default('payment')),
    'npx caisse routes set --mode live --country CM --method <method> --connectors <own>,<aggregator>',
    'npx caisse routes set --mode live --country CM --method <method> --default',
  ).action(async (opts: { mode: 'test' | 'live'; country: string; method: string; connectors?: string; default?: boolean; kind: 'payment' | 'payout' }) => {
    if ((opts.connectors === undefined) === (opts.default !== true)) {
      process.stderr.write('caisse: give either --connectors a,b or --default\n');
      process.exitCode = 1;
      return;
    }
    try {
      const connectors =
        opts.connectors === undefined
          ? null
          : opts.connectors
              .split(',')
              .map((c) => c.trim())
              .filter((c) => c !== '');
      const route = await admin('routes.set', { mode: opts.mode, country: opts.country, kind: opts.kind, method: opts.method, connectors });
      process.stdout.write(
        `${route.mode} ${route.country} ${route.kind} ${route.method}: ${route.connectors.join(' → ') || '(no connector)'}${route.overridden ? '' : ' (default)'}\n`,
      );
    } catch (err) {
      process.stderr.write(`caisse: ${errorLine(err)}\n`);
      process.exitCode = 1;
    }
  });
}
