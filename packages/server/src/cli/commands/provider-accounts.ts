import { type Command, InvalidArgumentError, Option } from 'commander';
import { admin, examples, print } from '../support.ts';

/** A provider account's credentials: a JSON object from a file, or standard input; never an argument (it would stay in the shell's history). */
async function readCredentials(file: string | undefined): Promise<unknown> {
  const { readFileSync } = await import('node:fs');
  let text: string;
  if (file !== undefined) text = readFileSync(file, 'utf8');
  else {
    if (process.stdin.isTTY) process.stderr.write('caisse: paste the credentials as a JSON object, then Ctrl-D\n');
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
    text = Buffer.concat(chunks).toString('utf8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Never the text itself: it holds secrets.
    throw new InvalidArgumentError('the credentials are not valid JSON (a JSON object of the connector’s credentials)');
  }
}

/** One line of `provider-accounts list`. */
function accountLine(a: {
  id: string;
  connector: string;
  mode: string;
  countries: string[];
  status: string;
  source: string;
  supersededBy: { country: string; account: string }[];
  lastCheck: { ok: boolean } | null;
  callbacks: { purpose: string; path: string | null; url: string | null; setAtProvider: boolean }[];
}): string {
  const superseded = a.supersededBy.map((s) => ` ${s.country}→${s.account}`).join('');
  const check = a.lastCheck === null ? 'unchecked' : a.lastCheck.ok ? 'check ok' : 'check FAILED';
  // The addresses the operator must paste into the provider's dashboard (a path: after this server's address).
  const callbacks = a.callbacks.map(
    (c) => `\n    ${c.purpose}: ${c.path ?? c.url ?? ''}${c.setAtProvider ? " (set in the provider's dashboard)" : ' (sent with each request)'}`,
  );
  return `${a.id}  ${a.connector} ${a.mode} ${a.countries.join(',')}  ${a.status} (${a.source}, ${check})${superseded ? `  superseded in:${superseded}` : ''}${callbacks.join('')}`;
}

/** provider-accounts: the accounts Caisse calls each connector with. */
export function registerProviderAccountsCommands(program: Command): void {
  const accounts = examples(
    program.command('provider-accounts').description('the accounts Caisse calls each connector with, per mode and country (credentials are write-only)'),
    'npx caisse provider-accounts list',
  );
  examples(
    accounts
      .command('add')
      .description('add an account; its credentials, a JSON object, come from --credentials-file or standard input (never from arguments); prints the account')
      .requiredOption('--connector <name>', 'the connector, by its registry name (npx caisse providers list)')
      .addOption(new Option('--mode <mode>', 'test or live').choices(['test', 'live']).makeOptionMandatory())
      .requiredOption('--countries <list>', 'the countries it serves, comma-separated (CM,CI)')
      // Variadic and repeatable: `--set a=1 b=2` and `--set a=1 --set b=2` alike.
      .option('--set <key=value...>', 'non-secret settings, by their camelCase names (baseUrl, targetEnvironment, …)')
      .option('--credentials-file <file.json>', 'the credentials as a JSON object (otherwise read from standard input)'),
    'npx caisse provider-accounts add --connector <name> --mode live --countries SN --set baseUrl=https://… --set callbackUrl=https://pay.example.com/callbacks/<name> --credentials-file account.json',
  ).action(async (opts: { connector: string; mode: 'test' | 'live'; countries: string; set?: string[]; credentialsFile?: string }) => {
    const settings: Record<string, string> = {};
    for (const pair of opts.set ?? []) {
      const at = pair.indexOf('=');
      if (at <= 0) throw new InvalidArgumentError(`--set takes key=value, got "${pair}"`);
      settings[pair.slice(0, at)] = pair.slice(at + 1);
    }
    const credentials = await readCredentials(opts.credentialsFile);
    const countries = opts.countries
      .split(',')
      .map((c) => c.trim().toUpperCase())
      .filter((c) => c !== '');
    const added = await admin('providerAccounts.add', { connector: opts.connector, mode: opts.mode, countries, settings, credentials });
    print(added, true);
  });
  examples(
    accounts
      .command('list')
      .description('every account, the platform’s (environment variables, sandbox) included; credentials masked')
      .option('--json', 'print JSON'),
    'npx caisse provider-accounts list --json',
  ).action(async (opts: { json?: boolean }) => {
    const list = await admin('providerAccounts.list', {});
    if (opts.json === true) print(list, true);
    else process.stdout.write(`${list.map(accountLine).join('\n') || 'no provider account'}\n`);
  });
  examples(
    accounts.command('disable <id>').description('no new request goes through this account; those in flight finish through it'),
    'npx caisse provider-accounts disable pac_…',
  ).action(async (id: string) => {
    print(await admin('providerAccounts.disable', { id }), true);
  });
  examples(
    accounts
      .command('check [id]')
      .description('one harmless authenticated call per account (one, or every active one of --mode); exit 1 if any fails')
      .addOption(new Option('--mode <mode>', 'test or live').choices(['test', 'live']))
      .option('--json', 'print JSON'),
    'npx caisse provider-accounts check --mode live',
  ).action(async (id: string | undefined, opts: { mode?: 'test' | 'live'; json?: boolean }) => {
    const results = await admin('providerAccounts.check', { ...(id === undefined ? {} : { id }), ...(opts.mode === undefined ? {} : { mode: opts.mode }) });
    if (opts.json === true) print(results, true);
    else if (results.length === 0) process.stdout.write(`no active${opts.mode === undefined ? '' : ` ${opts.mode}`} provider account to check\n`);
    else for (const r of results) process.stdout.write(`${r.ok ? 'OK  ' : 'FAIL'} ${r.id} (${r.connector}, ${r.mode}): ${r.detail}\n`);
    if (results.some((r) => !r.ok)) process.exitCode = 1;
  });
}
