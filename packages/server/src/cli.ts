import { Command, InvalidArgumentError, Option } from 'commander';
import { isIPv6 } from 'node:net';
import type { AdminArgs, AdminCommand, AdminResult } from './admin.ts';
import { serverVersion } from './banner.ts';
import { ConfigError, type Config, dataDirectory, loadConfig } from './config.ts';
import { COUNTRY_CODES, type Country, DEFAULT_COUNTRY, isCountry } from './platform/countries.ts';
import type { DataDirLockedError } from './platform/db.ts';
import { ApiError } from './platform/errors.ts';
import { isLanguage, type Language } from '@caisse/intl';
import { processAlive } from './platform/process-alive.ts';
import type { OperatorRole } from './modules/operators/index.ts';
import type { ApiTarget } from './cli/client.ts';
import { EVENT_TYPES, type EventType, isEventType } from './cli/event-types.ts';
// The server, its database and its services load only for the commands that use them: listen
// and trigger work over HTTP and start faster without them. Those two load their client code
// (src/cli/, on @caisse/node) only when they run.
import type { createServices } from './services.ts';

function config(): Config {
  return loadConfig(process.env);
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return n;
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

/** Where the command works: the embedded database's directory, or "PostgreSQL". */
function databaseLabel(cfg: Config): string {
  return cfg.databaseUrl === undefined ? `embedded database in ${cfg.dataDir}` : 'PostgreSQL (DATABASE_URL)';
}

/** Runs a command that needs the database and the services, then closes everything. */
async function withServices<T>(fn: (services: ReturnType<typeof createServices>) => Promise<T>): Promise<T> {
  const { openRuntime } = await import('./runtime.ts');
  const { createServices } = await import('./services.ts');
  const runtime = await openRuntime(config(), { oneShot: true });
  try {
    return await fn(createServices(runtime.deps));
  } finally {
    await runtime.close();
  }
}

/**
 * Runs an operator command (src/admin.ts) on the database; or, when a server started on the same
 * embedded database holds it (one process at a time may open it), asks that server to run it
 * through its loopback admin endpoint, with the token it left in the data directory.
 */
async function admin<C extends AdminCommand>(name: C, args: AdminArgs<C>, viaServer = config().databaseUrl === undefined): Promise<AdminResult<C>> {
  const cfg = config();
  const { readAdminFile, runAdminCommand } = await import('./admin.ts');
  const server = viaServer ? readAdminFile(cfg.dataDir) : undefined;
  const sameDatabase = (server?.database ?? 'embedded') === (cfg.databaseUrl === undefined ? 'embedded' : 'postgresql');
  if (server !== undefined && sameDatabase && processAlive(server.pid)) {
    const { AdminUnreachableError, callAdmin } = await import('./cli/admin-client.ts');
    try {
      const result = await callAdmin(server, name, args);
      process.stderr.write(`caisse: done by the server running on the ${databaseLabel(cfg)} (process ${server.pid})\n`);
      return result;
    } catch (err) {
      // A stale admin.json (the process id now belongs to something else): work on the database.
      if (!(err instanceof AdminUnreachableError)) throw err;
    }
  }
  return withServices(async (s): Promise<AdminResult<C>> => {
    try {
      return await runAdminCommand(s, name, args);
    } finally {
      await s.connectors.close();
    }
  });
}

/** Appends "Example(s):" lines to a command's --help. */
function examples(command: Command, ...lines: string[]): Command {
  return command.addHelpText('after', `\n${lines.length > 1 ? 'Examples' : 'Example'}:\n${lines.map((l) => `  $ ${l}`).join('\n')}`);
}

/** A language option: fr or en. */
function parseLanguage(value: string): Language {
  if (!isLanguage(value)) throw new InvalidArgumentError('a language is fr or en');
  return value;
}

/**
 * The operators module's roles (its OPERATOR_ROLES), named here for the option's help and check:
 * importing that module would load the whole server into every command, `trigger` and `listen`
 * included. A test keeps the two lists equal.
 */
export const OPERATOR_ROLES: readonly OperatorRole[] = ['admin', 'compliance', 'finance', 'support'];

/** An operator role option. */
function parseOperatorRole(value: string): OperatorRole {
  if (!(OPERATOR_ROLES as readonly string[]).includes(value)) throw new InvalidArgumentError(`a role is one of ${OPERATOR_ROLES.join(', ')}`);
  return value as OperatorRole;
}

/** A country option: CM, SN or CI. */
function parseCountry(value: string): Country {
  const upper = value.toUpperCase();
  if (!isCountry(upper)) throw new InvalidArgumentError(`a country is one of ${COUNTRY_CODES.join(', ')}`);
  return upper;
}

/** Collects a repeatable option (`--origin a --origin b`). */
function repeatable(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

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

function print(value: unknown, json: boolean) {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${formatHuman(value)}\n`);
}

function formatHuman(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return String(value);
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => {
      // A list of plain values on one line (allowedOrigins: none, or a, b).
      if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')) return `${indent}${k}: ${v.length > 0 ? v.join(', ') : '(none)'}`;
      return v !== null && typeof v === 'object' ? `${indent}${k}:\n${formatHuman(v, `${indent}  `)}` : `${indent}${k}: ${v}`;
    })
    .join('\n');
}

interface TargetOptions {
  apiKey?: string;
  secretKey?: string;
  baseUrl?: string;
}

/** The running server and the merchant's test keys, for commands that work over HTTP (listen, trigger). */
function apiTarget(opts: TargetOptions): ApiTarget {
  const apiKey = opts.apiKey ?? process.env.CAISSE_API_KEY;
  const secretKey = opts.secretKey ?? process.env.CAISSE_SECRET_KEY;
  const baseUrl = opts.baseUrl ?? process.env.CAISSE_BASE_URL ?? localServerUrl(process.env);
  if (!apiKey) throw new InvalidArgumentError('give the test API key with --api-key or CAISSE_API_KEY');
  if (!secretKey) throw new InvalidArgumentError('give the test secret key with --secret-key or CAISSE_SECRET_KEY');
  if (!apiKey.startsWith('pk_test_') || !secretKey.startsWith('sk_test_')) {
    throw new InvalidArgumentError('listen and trigger work in test mode only: use pk_test_… and sk_test_… keys');
  }
  httpUrl(baseUrl, '--base-url');
  return { apiKey, secretKey, baseUrl };
}

/**
 * The server this machine runs with the same configuration (PORT, HOST) as `caisse start`: a
 * listener on every address (0.0.0.0, ::, the default in production) is reached on loopback.
 */
export function localServerUrl(env: NodeJS.ProcessEnv): string {
  const port = /^\d{1,5}$/.test(env.PORT ?? '') && Number(env.PORT) > 0 && Number(env.PORT) <= 65535 ? Number(env.PORT) : 8080;
  const host = env.HOST?.trim();
  const address = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${isIPv6(address) ? `[${address}]` : address}:${port}`;
}

function httpUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`${name} is not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`${name} must be an http:// or https:// URL`);
  return value;
}

function eventTypes(value: string): EventType[] {
  const types = value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '' && t !== '*');
  for (const t of types) if (!isEventType(t)) throw new InvalidArgumentError(`unknown event type "${t}"; known: ${EVENT_TYPES.join(', ')}`);
  return types as EventType[];
}

/** Runs listen or trigger: their failures the person can act on become one line (CliError). */
async function overHttp(run: () => Promise<void>): Promise<void> {
  const { explain } = await import('./cli/errors.ts');
  try {
    await run();
  } catch (err) {
    throw explain(err);
  }
}

function targetOptions(command: Command): Command {
  return command
    .option('--api-key <key>', 'test API key pk_test_… (default: CAISSE_API_KEY)')
    .option('--secret-key <key>', 'test secret key sk_test_… (default: CAISSE_SECRET_KEY)')
    .option('--base-url <url>', 'the server (default: CAISSE_BASE_URL, else http://127.0.0.1:PORT as `caisse start` reads PORT and HOST)');
}

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

  examples(
    program
      .command('start')
      .description('run the API server (and, unless --no-worker, the webhook dispatcher and expiry sweeper)')
      .option('--port <port>', 'port to listen on (default: PORT or 8080)', port)
      .option('--no-worker', 'do not run the background workers in this process')
      .option('--workers <n>', 'API processes sharing the port (node:cluster; PostgreSQL only; default: CAISSE_API_PROCESSES or 1)', wholeNumber),
    'npx caisse start --port 8081',
    'DATABASE_URL=postgres://caisse@127.0.0.1/caisse npx caisse start --workers 4 --no-worker',
  ).action(async (opts: { port?: number; worker: boolean; workers?: number }) => {
    const cfg = config();
    const processes = opts.workers ?? cfg.apiProcesses;
    if (processes < 1) throw new InvalidArgumentError('--workers is at least 1');
    if (processes > 1) {
      const { startCluster } = await import('./cluster.ts');
      await startCluster(cfg, { port: opts.port ?? cfg.port, worker: opts.worker, processes });
      return;
    }
    const { startServer } = await import('./runtime.ts');
    await startServer(cfg, { port: opts.port ?? cfg.port, worker: opts.worker });
  });

  examples(
    program.command('worker').description('run only the background workers (webhook dispatcher, expiry sweeper, pollers)'),
    'DATABASE_URL=postgres://caisse@127.0.0.1/caisse npx caisse worker',
  ).action(async () => {
    const { startWorkers } = await import('./runtime.ts');
    await startWorkers(config());
  });

  examples(program.command('migrate').description('apply the database migrations and exit'), 'npx caisse migrate').action(async () => {
    const cfg = config();
    const { openRuntime } = await import('./runtime.ts');
    const runtime = await openRuntime(cfg, { oneShot: true });
    await runtime.close();
    process.stdout.write(`migrations are up to date (${databaseLabel(cfg)})\n`);
  });

  const merchants = examples(
    program.command('merchants').description('manage merchants'),
    'npx caisse merchants create --name "Boutique Douala"',
    'npx caisse merchants list',
  );
  examples(
    merchants
      .command('create')
      .description('create a merchant with test keys and a dashboard login (shown once)')
      .requiredOption('--name <name>', 'merchant name')
      .option('--email <email>', 'dashboard login e-mail (default: derived from the name, @caisse.local)')
      .option('--language <language>', "default language of its customers' messages: fr or en", parseLanguage, 'fr')
      .option('--country <country>', `where it sells, selecting providers and currency: ${COUNTRY_CODES.join(', ')}`, parseCountry, DEFAULT_COUNTRY)
      .option('--json', 'print JSON'),
    'npx caisse merchants create --name "Boutique Douala" --email owner@boutique.cm --language fr',
    'npx caisse merchants create --name "Boutique Dakar" --country SN',
  ).action(async (opts: { name: string; email?: string; language: Language; country: Country; json?: boolean }) => {
    const created = await admin('merchants.create', {
      name: opts.name,
      language: opts.language,
      country: opts.country,
      ...(opts.email !== undefined ? { email: opts.email } : {}),
    });
    print(created, opts.json === true);
    if (opts.json !== true) process.stdout.write(`\nexport CAISSE_API_KEY=${created.test.apiKey} CAISSE_SECRET_KEY=${created.test.secretKey}\n`);
  });

  examples(
    merchants.command('list').description('list the merchants (id, name, dashboard e-mail)').option('--json', 'print JSON'),
    'npx caisse merchants list --json',
  ).action(async (opts: { json?: boolean }) => {
    const list = await admin('merchants.list', {});
    if (opts.json === true) print(list, true);
    else if (list.length === 0) process.stdout.write('no merchants yet (npx caisse merchants create --name …)\n');
    else for (const m of list) process.stdout.write(`${m.id}  ${m.name}${m.email ? `  <${m.email}>` : ''}\n`);
  });

  examples(
    merchants
      .command('fees <merchantId>')
      .description("set a merchant's fee schedule: a percentage of each payment plus a fixed part per currency")
      .requiredOption('--percent <percent>', 'e.g. 1.5 (at most 2 decimals, 0 to 100)')
      .option('--fixed <amounts>', 'fixed part per currency in major units: "0" (every currency) or "XAF:0,EUR:0.25"', '0')
      .option('--json', 'print JSON'),
    'npx caisse merchants fees mch_01jd… --percent 1.5 --fixed XAF:50,EUR:0.25',
  ).action(async (merchantId: string, opts: { percent: string; fixed: string; json?: boolean }) => {
    // The configuration's own parser reads the same forms as CAISSE_FEE_PERCENT and CAISSE_FEE_FIXED.
    const fixed = opts.fixed.trim() === '0' ? '' : opts.fixed;
    let fees: { bps: number; fixedMinor: Record<string, bigint> };
    try {
      fees = loadConfig({ ...process.env, CAISSE_FEE_PERCENT: opts.percent, CAISSE_FEE_FIXED: fixed }).fees;
    } catch (err) {
      if (err instanceof ConfigError)
        throw new InvalidArgumentError(err.message.replace('CAISSE_FEE_PERCENT', '--percent').replace('CAISSE_FEE_FIXED', '--fixed'));
      throw err;
    }
    const fixedMinor = Object.fromEntries(Object.entries(fees.fixedMinor).map(([c, v]) => [c, v.toString()]));
    print(await admin('merchants.fees', { merchantId, bps: fees.bps, fixedMinor }), opts.json === true);
  });

  examples(
    merchants
      .command('language <merchantId> <language>')
      .description("set a merchant's default language (fr or en): its customers' SMS and e-mail use it when they chose none and their request named none")
      .option('--json', 'print JSON'),
    'npx caisse merchants language mch_01jd… en',
  ).action(async (merchantId: string, language: string, opts: { json?: boolean }) => {
    print(await admin('merchants.language', { merchantId, language: parseLanguage(language) }), opts.json === true);
  });

  examples(
    merchants
      .command('country <merchantId> <country>')
      .description(`set a merchant's country (${COUNTRY_CODES.join(', ')}): its checkout offers that country's mobile-money providers and currency`)
      .option('--json', 'print JSON'),
    'npx caisse merchants country mch_01jd… SN',
  ).action(async (merchantId: string, country: string, opts: { json?: boolean }) => {
    print(await admin('merchants.country', { merchantId, country: parseCountry(country) }), opts.json === true);
  });

  examples(
    merchants
      .command('settlement <merchantId>')
      .description("set how many days a payment's net stays pending before it is available for payouts")
      .requiredOption('--delay-days <days>', '0 (available within seconds) to 365', (v: string) => {
        if (!/^(0|[1-9][0-9]{0,2})$/.test(v) || Number(v) > 365) throw new InvalidArgumentError('--delay-days is a whole number of days from 0 to 365');
        return Number(v);
      })
      .option('--json', 'print JSON'),
    'npx caisse merchants settlement mch_01jd… --delay-days 0',
  ).action(async (merchantId: string, opts: { delayDays: number; json?: boolean }) => {
    print(await admin('merchants.settlement', { merchantId, delayDays: opts.delayDays }), opts.json === true);
  });

  examples(
    merchants
      .command('reserve <merchantId>')
      .description(
        "set a merchant's rolling reserve: a percentage of each payment's net held for some days, then released to its available balance (refunds after a payout draw on it)",
      )
      .option('--percent <percent>', 'share held, 0.01 to 100 (at most 2 decimals)', (v: string) => {
        if (!/^(100(\.0{1,2})?|[0-9]{1,2}(\.[0-9]{1,2})?)$/.test(v) || Number(v) <= 0)
          throw new InvalidArgumentError('--percent is 0.01 to 100, at most 2 decimals');
        return Math.round(Number(v) * 100);
      })
      .option('--days <days>', 'how long each share is held, 1 to 365', (v: string) => {
        if (!/^[1-9][0-9]{0,2}$/.test(v) || Number(v) > 365) throw new InvalidArgumentError('--days is a whole number of days from 1 to 365');
        return Number(v);
      })
      .option('--off', 'no reserve from now on (what is held is still released on its date)')
      .option('--json', 'print JSON'),
    'npx caisse merchants reserve mch_01jd… --percent 10 --days 90',
    'npx caisse merchants reserve mch_01jd… --off',
  ).action(async (merchantId: string, opts: { percent?: number; days?: number; off?: boolean; json?: boolean }) => {
    if (opts.off === true) {
      if (opts.percent !== undefined || opts.days !== undefined) throw new InvalidArgumentError('--off takes neither --percent nor --days');
      print(await admin('merchants.reserve', { merchantId, reserve: null }), opts.json === true);
      return;
    }
    if (opts.percent === undefined || opts.days === undefined) throw new InvalidArgumentError('give --percent and --days (or --off)');
    print(await admin('merchants.reserve', { merchantId, reserve: { bps: opts.percent, days: opts.days } }), opts.json === true);
  });

  const keys = examples(
    program.command('keys').description('manage API keys and secret keys'),
    'npx caisse keys create --merchant mch_… --kind both',
    'npx caisse keys list --merchant mch_…',
  );
  examples(
    keys
      .command('create')
      .description('create a key (or, with --kind both, an API key and a secret key); shown once')
      .requiredOption('--merchant <id>', 'merchant id (npx caisse merchants list)')
      .addOption(
        new Option('--kind <kind>', 'publishable (pk_…), secret (sk_…), restricted (rk_…: --permissions only) or both')
          .choices(['publishable', 'secret', 'restricted', 'both'])
          .default('publishable'),
      )
      .addOption(new Option('--mode <mode>', 'test or live').choices(['test', 'live']).default('test'))
      .option('--name <name>', 'a name to recognise it by', 'API key')
      .option('--origin <origin>', 'a browser origin allowed to use this API key (repeatable; none: any origin)', repeatable)
      .option(
        '--permissions <list>',
        "a restricted key's permissions, resource:read|write separated by commas (payments, refunds, payouts, customers, balance, webhooks, events, payment_links; others: none)",
      )
      .option('--json', 'print JSON'),
    'npx caisse keys create --merchant mch_01jd… --kind both            # lost the development keys? a new pair',
    'npx caisse keys create --merchant mch_01jd… --kind secret --mode live --name "Server"',
    'npx caisse keys create --merchant mch_01jd… --kind restricted --permissions payments:read,balance:read --name "Reporting"',
    'npx caisse keys create --merchant mch_01jd… --origin https://shop.example',
  ).action(
    async (opts: {
      merchant: string;
      kind: 'publishable' | 'secret' | 'restricted' | 'both';
      mode: 'test' | 'live';
      name: string;
      origin?: string[];
      permissions?: string;
      json?: boolean;
    }) => {
      if ((opts.kind === 'restricted') !== (opts.permissions !== undefined)) {
        throw new InvalidArgumentError(
          opts.kind === 'restricted'
            ? '--kind restricted needs --permissions, e.g. --permissions payments:read,balance:read'
            : '--permissions is for --kind restricted only',
        );
      }
      const created = await admin('keys.create', {
        merchantId: opts.merchant,
        kind: opts.kind,
        mode: opts.mode,
        name: opts.name,
        allowedOrigins: opts.origin ?? [],
        ...(opts.permissions === undefined ? {} : { permissions: opts.permissions }),
      });
      print(created, opts.json === true);
      if (opts.json !== true && 'apiKey' in created) {
        const prefix = opts.mode === 'test' ? 'CAISSE' : 'CAISSE_LIVE';
        process.stdout.write(`\nexport ${prefix}_API_KEY=${created.apiKey.secret} ${prefix}_SECRET_KEY=${created.secretKey.secret}\n`);
      }
    },
  );
  examples(
    keys
      .command('roll <keyId>')
      .description('issue a replacement key; the old one works for the grace period')
      .requiredOption('--merchant <id>', 'merchant id')
      .option('--grace <seconds>', 'seconds the old key keeps working (0 to 604800)', wholeNumber, 86_400)
      .option('--json', 'print JSON'),
    'npx caisse keys roll key_01jd… --merchant mch_01jd… --grace 86400',
  ).action(async (keyId: string, opts: { merchant: string; grace: number; json?: boolean }) => {
    print(await admin('keys.roll', { merchantId: opts.merchant, keyId, graceSeconds: opts.grace }), opts.json === true);
  });
  examples(
    keys
      .command('origins <keyId>')
      .description('replace the browser origins allowed to use an API key (no --origin: any origin)')
      .requiredOption('--merchant <id>', 'merchant id')
      .option('--origin <origin>', 'an allowed origin, e.g. https://shop.example (repeatable)', repeatable)
      .option('--json', 'print JSON'),
    'npx caisse keys origins key_01jd… --merchant mch_01jd… --origin https://shop.example --origin http://localhost:3000',
  ).action(async (keyId: string, opts: { merchant: string; origin?: string[]; json?: boolean }) => {
    print(await admin('keys.origins', { merchantId: opts.merchant, keyId, origins: opts.origin ?? [] }), opts.json === true);
  });
  examples(
    keys.command('revoke <keyId>').description('stop a key from working, now').requiredOption('--merchant <id>', 'merchant id').option('--json', 'print JSON'),
    'npx caisse keys revoke key_01jd… --merchant mch_01jd…',
  ).action(async (keyId: string, opts: { merchant: string; json?: boolean }) => {
    print(await admin('keys.revoke', { merchantId: opts.merchant, keyId }), opts.json === true);
  });
  examples(
    keys
      .command('list')
      .description("list a merchant's keys (their secrets are never shown again)")
      .requiredOption('--merchant <id>', 'merchant id (npx caisse merchants list)')
      .option('--json', 'print JSON'),
    'npx caisse keys list --merchant mch_01jd…',
  ).action(async (opts: { merchant: string; json?: boolean }) => {
    const list = await admin('keys.list', { merchantId: opts.merchant });
    if (opts.json === true) print(list, true);
    else if (list.length === 0)
      process.stdout.write(`merchant ${opts.merchant} has no keys (npx caisse keys create --merchant ${opts.merchant} --kind both)\n`);
    else {
      for (const k of list) {
        const state = k.revokedAt ? 'revoked' : k.expiresAt ? `expires ${k.expiresAt}` : 'active';
        const granted = k.permissions
          ? `  ${Object.entries(k.permissions)
              .filter(([, level]) => level !== 'none')
              .map(([r, level]) => `${r}:${level}`)
              .join(',')}`
          : '';
        process.stdout.write(`${k.id}  ${k.display}  ${k.kind} ${k.mode}  ${state}  "${k.name}"${granted}\n`);
      }
    }
  });

  const operators = examples(
    program.command('operators').description('the people who run the platform (operator console at /operator)'),
    'npx caisse operators create --email ops@example.com',
  );
  examples(
    operators
      .command('create')
      .description('create an operator (role admin unless --role says otherwise) with a one-time password, shown once')
      .requiredOption('--email <email>', "the operator's sign-in e-mail")
      .option('--role <role>', `one of ${OPERATOR_ROLES.join(', ')}`, parseOperatorRole, 'admin')
      .option('--json', 'print JSON'),
    'npx caisse operators create --email ops@example.com',
  ).action(async (opts: { email: string; role: OperatorRole; json?: boolean }) => {
    const created = await admin('operators.create', { email: opts.email, role: opts.role });
    print(created, opts.json === true);
    if (opts.json !== true) {
      process.stdout.write(`\nSign in at /operator with ${created.email} and this password; an authenticator app (TOTP) is enrolled at the first sign-in.\n`);
    }
  });

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
    const { checkEnvironmentAccounts, formatProvidersReport, parseProviderHealth, providersReport } = await import('./modules/connectors/index.ts');
    const c = config();
    const quiet = { debug: () => {}, info: () => {}, warn: () => {} };
    const { systemClock } = await import('./platform/clock.ts');
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
      .option('--set <key=value>', 'a non-secret setting, by its camelCase name (baseUrl, targetEnvironment, …); repeatable', repeatable)
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
    else for (const r of results) process.stdout.write(`${r.ok ? 'OK  ' : 'FAIL'} ${r.id} (${r.connector}, ${r.mode}): ${r.detail}\n`);
    if (results.some((r) => !r.ok)) process.exitCode = 1;
  });
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

  program
    .command('reconcile')
    .description("compare every top-up and payout of a period with the provider's records; exit 0 all agree, 1 mismatches, 2 not everything could be checked")
    .requiredOption('--provider <name>', 'the provider, by its registry name (npx caisse providers list)')
    .requiredOption('--from <day>', 'first day, YYYY-MM-DD (UTC)')
    .requiredOption('--to <day>', 'last day, included, YYYY-MM-DD (UTC)')
    .addOption(new Option('--mode <mode>', "live (the configured provider) or test (the providers' sandbox)").choices(['test', 'live']).default('live'))
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
    .action(async (opts: { provider: string; from: string; to: string; mode: 'test' | 'live'; statement?: string; json?: boolean }) => {
      try {
        const { printReport, reconcileQuery } = await import('./cli/reconcile.ts');
        const query = await reconcileQuery(opts);
        const { statement, ...period } = query;
        const args = { ...period, from: query.from.toISOString(), to: query.to.toISOString() };
        // Test mode's sandbox lives in the running development server: reconcile there when one runs.
        const viaServer = config().databaseUrl === undefined || opts.mode === 'test';
        const report = await admin(
          'reconcile.run',
          statement === undefined ? args : { ...args, statement: statement.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) },
          viaServer,
        );
        process.exitCode = printReport(report, opts.json === true, (text) => process.stdout.write(text));
      } catch (err) {
        process.stderr.write(`caisse: ${errorLine(err)}\n`);
        process.exitCode = 2;
      }
    });

  examples(
    targetOptions(
      program
        .command('listen')
        .description("forward this merchant's test events, as they happen, to a local URL, signed like webhooks with a secret it prints")
        .option('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/webhooks')
        .option('--events <types>', `comma-separated event types (default: all of ${EVENT_TYPES.join(', ')})`, eventTypes)
        .option('--print-secret', 'print the signing secret and exit'),
    ),
    'npx caisse listen --forward-to http://localhost:3000/webhooks --events payment.completed,payment.failed',
    'npx caisse listen --print-secret     # the whsec_… your handler verifies with',
  ).action(async (opts: TargetOptions & { forwardTo?: string; events?: EventType[]; printSecret?: boolean }) => {
    const target = apiTarget(opts);
    const { forwardingSecret, listen } = await import('./cli/listen.ts');
    if (opts.printSecret) {
      process.stdout.write(`${forwardingSecret(target.secretKey)}\n`);
      return;
    }
    if (opts.forwardTo === undefined) throw new InvalidArgumentError('give --forward-to <url>');
    const forwardTo = httpUrl(opts.forwardTo, '--forward-to');
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    process.once('SIGTERM', () => stop.abort());
    await overHttp(() => listen({ ...target, forwardTo, events: opts.events, signal: stop.signal, say: (line) => process.stdout.write(`${line}\n`) }));
  });

  examples(
    targetOptions(
      program
        .command('trigger <event>')
        .description(`make a real test payment over HTTP that produces this event (${EVENT_TYPES.join(', ')})`)
        .option(
          '--method <method>',
          'pay from a test wallet (wallet) or directly with a provider that prompts the phone, by its registry name (npx caisse providers list); payment.processing: the first such provider',
        )
        .option('--json', 'print JSON'),
    ),
    'npx caisse trigger payment.completed',
    'npx caisse trigger payment.completed --method <provider>',
    'npx caisse trigger payment.failed --json',
  ).action(async (event: string, opts: TargetOptions & { json?: boolean; method?: string }) => {
    if (!isEventType(event)) throw new InvalidArgumentError(`unknown event type "${event}"; known: ${EVENT_TYPES.join(', ')}`);
    const json = opts.json === true;
    const target = apiTarget(opts);
    const [{ createCaisse }, { trigger, triggerMethods }] = await Promise.all([import('./cli/client.ts'), import('./cli/trigger.ts')]);
    const method = triggerMethods().find((m) => m === opts.method);
    if (opts.method !== undefined && method === undefined)
      throw new InvalidArgumentError(`unknown method "${opts.method}"; known: ${triggerMethods().join(', ')}`);
    await overHttp(async () => {
      const result = await trigger(createCaisse(target), event, json ? undefined : (line) => process.stdout.write(`${line}\n`), undefined, method);
      if (json) print(result, true);
      else {
        for (const e of result.events) process.stdout.write(`produced ${e.type} ${e.id} for ${result.payoutId ?? result.intentId}\n`);
        process.stdout.write(`intent ${result.intentId} is ${result.intentStatus}\n`);
        if (result.expiresAt) process.stdout.write(`payment.expired for ${result.intentId} will come shortly after ${result.expiresAt}\n`);
      }
    });
  });

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
    const { runSandbox } = await import('./modules/connectors/index.ts');
    await runSandbox({ ...opts, dataDir: dataDirectory(process.env) });
  });
  // Which providers it plays comes from the registry, loaded only when this command runs (its help included).
  program.hook('preSubcommand', async (_program, sub) => {
    if (sub !== sandboxCommand) return;
    const { sandboxHelp } = await import('./modules/connectors/index.ts');
    const help = sandboxHelp();
    sub.description(`run the providers' sandbox: ${help.providers} on one port, outcomes by the last three digits of the phone number`);
    const faults = sub.options.find((o) => o.long === '--faults');
    if (faults) faults.description = `fault switches on from the start, comma-separated: ${help.faults}`;
  });

  const messages = examples(
    program
      .command('messages')
      .description('the operator outbox: e-mails that prove an address (sign-up links, password resets, invitations) kept without SMTP'),
    'npx caisse messages list',
  );
  examples(
    messages
      .command('list')
      .description('list the newest messages of the operator outbox (development, or no SMTP server configured)')
      .option('--to <address>', 'only the messages to this e-mail address or phone number')
      .option('--limit <n>', 'how many (at most 100)', wholeNumber, 20)
      .option('--json', 'print JSON'),
    'npx caisse messages list --to owner@boutique.cm',
  ).action(async (opts: { to?: string; limit: number; json?: boolean }) => {
    const list = await admin('messages.list', { limit: Math.min(Math.max(opts.limit, 1), 100), ...(opts.to !== undefined ? { to: opts.to } : {}) });
    if (opts.json === true) print(list, true);
    else if (list.data.length === 0) process.stdout.write('the operator outbox is empty (with SMTP configured, these e-mails are sent)\n');
    else for (const m of list.data) process.stdout.write(`${m.createdAt}  ${m.id}  to ${m.to}  (${m.status})\n${m.body ?? ''}\n\n`);
  });

  const signingKeys = examples(program.command('signing-keys').description('keys that sign user access tokens'), 'npx caisse signing-keys rotate');
  examples(
    signingKeys.command('rotate').description('make a new signing key; the old one stays published until its tokens expire'),
    'npx caisse signing-keys rotate',
  ).action(async () => {
    const { kid } = await admin('signing-keys.rotate', {});
    process.stdout.write(`new signing key ${kid}\n`);
  });

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

/** What to tell the person about a command's failure, after "caisse: ". */
function errorLine(err: unknown): string {
  if (err instanceof ConfigError) return `configuration error: ${err.message}`;
  // By name: the database module (and PGlite with it) loads only for commands that open it.
  if ((err as DataDirLockedError | undefined)?.name === 'DataDirLockedError') {
    return `${(err as DataDirLockedError).message}\n(while \`npm start\` runs, the merchants, keys, ledger verify, reconcile, messages and signing-keys commands are done by it; this one needs it stopped)`;
  }
  if ((err as Error | undefined)?.name === 'DatabaseUnreachableError') return (err as Error).message;
  if (err instanceof ApiError) return `${err.code}: ${err.message}`;
  // By name, as above (platform/migrations.ts loads with the database).
  if ((err as Error | undefined)?.name === 'SchemaAheadError') return (err as Error).message;
  // By name, as above: listen's and trigger's failures (src/cli/errors.ts), already one line.
  if ((err as Error | undefined)?.name === 'CliError') return (err as Error).message;
  if (err instanceof InvalidArgumentError) return err.message;
  return (err as Error).stack ?? String(err);
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
