import { type Command, Option } from 'commander';
import { admin, config, errorLine } from '../support.ts';

/** reconcile: our top-ups and payouts of a period against the provider's records (exit 0, 1 or 2). */
export function registerReconcileCommand(program: Command): void {
  program
    .command('reconcile')
    .description("compare every top-up and payout of a period with the provider's records; exit 0 all agree, 1 mismatches, 2 not everything could be checked")
    .requiredOption('--provider <name>', 'the provider, by its registry name (npx caisse providers list)')
    .requiredOption('--from <day>', 'first day, YYYY-MM-DD (UTC)')
    .requiredOption('--to <day>', 'last day, included, YYYY-MM-DD (UTC)')
    .addOption(
      new Option(
        '--mode <mode>',
        "live (the configured provider) or test (the providers' sandbox); by default live, or test in development when this server has no live account of the provider",
      )
        .choices(['test', 'live'])
        .default('live'),
    )
    .option(
      '--statement <file.csv>',
      "the provider's statement: lists requests the provider has and we may not (columns reference,kind,status,amount,currency,created_at)",
    )
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      [
        '',
        'Prints one line per mismatch (status, amount, missing_at_provider, missing_here), the requests',
        'still PENDING here (in flight, not mismatches) and those the provider could not be asked about',
        '(unverified), then a summary. It changes nothing.',
        '',
        'Examples:',
        '  $ npx caisse reconcile --provider <name> --from 2026-11-01 --to 2026-11-30',
        '  $ npx caisse reconcile --provider <name> --from 2026-11-01 --to 2026-11-01 --mode test --json',
        '  $ npx caisse reconcile --provider <name> --from 2026-11-01 --to 2026-11-30 --statement november.csv',
      ].join('\n'),
    )
    // Usage errors exit 2 like an incomplete check: 1 always means "a mismatch was found".
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
    .action(async (opts: { provider: string; from: string; to: string; mode: 'test' | 'live'; statement?: string; json?: boolean }, command: Command) => {
      try {
        const { printReport, reconcileQuery } = await import('../reconcile.ts');
        const query = await reconcileQuery(opts);
        const { statement, ...period } = query;
        const run = (mode: 'test' | 'live') => {
          const args = { ...period, mode, from: query.from.toISOString(), to: query.to.toISOString() };
          // Test mode's sandbox lives in the running development server: reconcile there when one runs.
          const viaServer = config().databaseUrl === undefined || mode === 'test';
          return admin(
            'reconcile.run',
            statement === undefined ? args : { ...args, statement: statement.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) },
            viaServer,
          );
        };
        // The bare command on a development server that only has the sandbox reconciles test mode
        // rather than failing: live cannot be checked there. Production always means live.
        const chosen = command.getOptionValueSource('mode') === 'cli' || config().mode === 'production';
        const report = await run(opts.mode).catch(async (err: unknown) => {
          if (chosen || opts.mode !== 'live' || (err as { code?: unknown }).code !== 'provider_unavailable') throw err;
          process.stderr.write(`caisse: no live ${opts.provider} account on this server: reconciling test mode (--mode live to insist)\n`);
          return run('test');
        });
        process.exitCode = printReport(report, opts.json === true, (text) => process.stdout.write(text));
      } catch (err) {
        process.stderr.write(`caisse: ${errorLine(err)}\n`);
        process.exitCode = 2;
      }
    });
}
