import type { Command } from 'commander';
import { admin, config, databaseLabel, examples, print } from '../support.ts';

/** ledger verify: the books and every balance statement; exit 1 on any difference. */
export function registerLedgerCommands(program: Command): void {
  const ledger = examples(program.command('ledger').description('the double-entry ledger'), 'npx caisse ledger verify');
  examples(
    ledger
      .command('verify')
      .description("recompute every balance from the postings and check each merchant's balance statement against them; exit 1 on any difference")
      .option('--json', 'print JSON'),
    'npx caisse ledger verify --json',
  ).action(async (opts: { json?: boolean }) => {
    const report = await admin('ledger.verify', {});
    if (opts.json === true) print(report, true);
    else {
      process.stdout.write(`checked ${report.accounts} accounts, ${report.transfers} transfers, ${report.postings} postings (${databaseLabel(config())})\n`);
      for (const d of report.differences) process.stdout.write(`DIFFERENCE ${d.type} ${d.id}: ${d.detail}\n`);
      process.stdout.write(report.ok ? 'ledger is consistent\n' : `${report.differences.length} difference(s) found\n`);
    }
    if (!report.ok) process.exitCode = 1;
  });
}
