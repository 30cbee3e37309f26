import type { Command } from 'commander';
import { dataDirectory } from '../../config.ts';
import { examples, port } from '../support.ts';

/** sandbox: the providers' sandbox on one port. */
export function registerSandboxCommand(program: Command): void {
  const sandboxCommand = examples(
    program
      .command('sandbox')
      .alias('momo-sandbox') // check-provider-names: allow (the command's old name, kept for the scripts that call it)
      .description("run the providers' sandbox: every connector's API subset on one port, outcomes by the last three digits of the phone number")
      .option('--port <port>', 'port to listen on', port, 8090)
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--faults <list>', 'fault switches on from the start, comma-separated (each provider takes its own)', (v) => v.split(','), [])
      .option('--fast', 'the approval window (numbers ending in 106, payment pages) is 5 s instead of 5 min')
      .option(
        '--production',
        "answer as the providers' production APIs do: refuse sandbox values and test-only keys, take production ones (a live rehearsal: docs/going-live.md)",
      )
      .option(
        '--callbacks-url <url>',
        "this server's callback base (http://127.0.0.1:8080/callbacks): providers that push signed webhooks send them to <url>/<provider>",
      ),
    'npx caisse sandbox --port 8090     # then CAISSE_SANDBOX_URL=http://127.0.0.1:8090 npm start',
    'npx caisse sandbox --faults answer500,dropCallbacks',
    'npx caisse sandbox --production    # live accounts point here for a rehearsal',
  ).action(async (opts: { port: number; host: string; faults: string[]; fast?: boolean; production?: boolean; callbacksUrl?: string }) => {
    const { runSandbox } = await import('../../modules/connectors/index.ts');
    await runSandbox({ ...opts, dataDir: dataDirectory(process.env) });
  });
  // Which providers it plays comes from the registry, loaded only when this command runs (its help included).
  program.hook('preSubcommand', async (_program, sub) => {
    if (sub !== sandboxCommand) return;
    const { sandboxHelp } = await import('../../modules/connectors/index.ts');
    const help = sandboxHelp();
    sub.description(`run the providers' sandbox: ${help.providers} on one port, outcomes by the last three digits of the phone number`);
    const faults = sub.options.find((o) => o.long === '--faults');
    if (faults) faults.description = `fault switches on from the start, comma-separated: ${help.faults}`;
  });
}
