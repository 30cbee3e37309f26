import { Command, InvalidArgumentError } from 'commander';
import { serverVersion } from './banner.ts';
import { registerKeysCommands } from './cli/commands/keys.ts';
import { registerLedgerCommands } from './cli/commands/ledger.ts';
import { registerMerchantsCommands } from './cli/commands/merchants.ts';
import { registerMessagesCommands } from './cli/commands/messages.ts';
import { registerOperatorsCommands } from './cli/commands/operators.ts';
import { registerProviderAccountsCommands } from './cli/commands/provider-accounts.ts';
import { registerProvidersCommands } from './cli/commands/providers.ts';
import { registerReconcileCommand } from './cli/commands/reconcile.ts';
import { registerRoutesCommands } from './cli/commands/routes.ts';
import { registerSandboxCommand } from './cli/commands/sandbox.ts';
import { registerServerCommands } from './cli/commands/server.ts';
import { registerSigningKeysCommands } from './cli/commands/signing-keys.ts';
import { registerTestEventsCommands } from './cli/commands/test-events.ts';
import { errorLine } from './cli/support.ts';
// Each command group is a file of src/cli/commands/. The server, its database and its services
// load only for the commands that use them: listen and trigger work over HTTP and start faster
// without them. Those two load their client code (src/cli/, on @caisse/node) only when they run.

export { OPERATOR_ROLES } from './cli/commands/operators.ts';
export { localServerUrl } from './cli/commands/test-events.ts';

export function buildCli(): Command {
  const program = new Command('caisse')
    .description('Caisse payment gateway: the server, its workers and the operator commands')
    .version(serverVersion(), '-v, --version', 'print the version')
    .helpCommand(false)
    .showHelpAfterError()
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ npx caisse start                                  # the gateway (npm start builds it first)',
        '  $ npx caisse keys create --merchant mch_… --kind both   # a new pair of test keys',
        '  $ npx caisse trigger payment.completed              # a real test payment, over HTTP',
        '',
        'Configuration comes from the environment (.env.example lists every variable). The embedded',
        'database lives in CAISSE_DATA_DIR (default: .caisse at the repository root); while a server',
        'runs on it, merchants, keys, ledger, messages and signing-keys commands are done by that server.',
        'Every command has --help; docs/quickstart.md goes from nothing to a paid test payment.',
      ].join('\n'),
    );

  // In the order --help lists them.
  registerServerCommands(program);
  registerMerchantsCommands(program);
  registerKeysCommands(program);
  registerOperatorsCommands(program);
  registerLedgerCommands(program);
  registerProvidersCommands(program);
  registerProviderAccountsCommands(program);
  registerRoutesCommands(program);
  registerReconcileCommand(program);
  registerTestEventsCommands(program);
  registerSandboxCommand(program);
  registerMessagesCommands(program);
  registerSigningKeysCommands(program);

  // `help keys create` as well as `keys create --help` (Commander's own help command stops at one level).
  program
    .command('help [command...]')
    .description('show the help of a command, e.g. caisse help keys create')
    .action((names: string[]) => {
      let command: Command = program;
      for (const name of names) {
        const next = command.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (next === undefined) throw new InvalidArgumentError(`unknown command "${names.join(' ')}"; caisse --help lists them`);
        command = next;
      }
      command.outputHelp();
    });

  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (err) {
    process.stderr.write(`caisse: ${errorLine(err)}\n`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runCli(process.argv);
}
