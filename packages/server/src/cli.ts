import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, type Config, loadConfig } from './config.ts';
import { DataDirLockedError } from './platform/db.ts';
import { ApiError } from './platform/errors.ts';
import { openRuntime, startServer, startWorkers } from './runtime.ts';
import { createServices } from './services.ts';

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

/** Runs a command that needs the database and the services, then closes everything. */
async function withServices<T>(fn: (services: ReturnType<typeof createServices>) => Promise<T>): Promise<T> {
  const runtime = await openRuntime(config());
  try {
    return await fn(createServices(runtime.deps));
  } finally {
    await runtime.close();
  }
}

/** Collects a repeatable option (`--origin a --origin b`). */
function repeatable(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function print(value: unknown, json: boolean) {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${formatHuman(value)}\n`);
}

function formatHuman(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return String(value);
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => (v !== null && typeof v === 'object' ? `${indent}${k}:\n${formatHuman(v, `${indent}  `)}` : `${indent}${k}: ${v}`))
    .join('\n');
}

export function buildCli(): Command {
  const program = new Command('caisse').description('Caisse payment gateway').showHelpAfterError();

  program
    .command('start')
    .description('run the API server (and, unless --no-worker, the webhook dispatcher and expiry sweeper)')
    .option('--port <port>', 'port to listen on (default: PORT or 8080)', port)
    .option('--no-worker', 'do not run the background workers in this process')
    .action(async (opts: { port?: number; worker: boolean }) => {
      const cfg = config();
      await startServer(cfg, { port: opts.port ?? cfg.port, worker: opts.worker });
    });

  program
    .command('worker')
    .description('run only the background workers (webhook dispatcher, expiry sweeper)')
    .action(async () => {
      await startWorkers(config());
    });

  program
    .command('migrate')
    .description('apply the database migrations and exit')
    .action(async () => {
      const runtime = await openRuntime(config());
      await runtime.close();
      process.stdout.write('migrations are up to date\n');
    });

  const merchants = program.command('merchants').description('manage merchants');
  merchants
    .command('create')
    .description('create a merchant with test keys and a dashboard login')
    .requiredOption('--name <name>', 'merchant name')
    .option('--email <email>', 'dashboard login e-mail')
    .option('--json', 'print JSON')
    .action(async (opts: { name: string; email?: string; json?: boolean }) => {
      const created = await withServices((s) => s.merchants.createMerchant({ name: opts.name, email: opts.email }));
      print(created, opts.json === true);
    });

  const keys = program.command('keys').description('manage API keys and secret keys');
  keys
    .command('create')
    .description('create a key; it is shown once')
    .requiredOption('--merchant <id>', 'merchant id')
    .option('--kind <kind>', 'publishable or secret', 'publishable')
    .option('--mode <mode>', 'test or live', 'test')
    .option('--name <name>', 'a name to recognise it by', 'API key')
    .option('--origin <origin>', 'a browser origin allowed to use this API key (repeatable; none: any origin)', repeatable)
    .option('--json', 'print JSON')
    .action(async (opts: { merchant: string; kind: string; mode: string; name: string; origin?: string[]; json?: boolean }) => {
      if (opts.kind !== 'publishable' && opts.kind !== 'secret') throw new InvalidArgumentError('--kind is publishable or secret');
      if (opts.mode !== 'test' && opts.mode !== 'live') throw new InvalidArgumentError('--mode is test or live');
      const kind = opts.kind;
      const mode = opts.mode;
      const created = await withServices(async (s) => {
        if (!(await merchantExists(s, opts.merchant))) throw new ApiError('not_found', `No merchant ${opts.merchant}`);
        return s.merchants.createKey(opts.merchant, { kind, mode, name: opts.name, allowedOrigins: opts.origin ?? [] });
      });
      print(created, opts.json === true);
    });
  keys
    .command('roll <keyId>')
    .description('issue a replacement key; the old one works for the grace period')
    .requiredOption('--merchant <id>', 'merchant id')
    .option('--grace <seconds>', 'seconds the old key keeps working (0 to 604800)', wholeNumber, 86_400)
    .option('--json', 'print JSON')
    .action(async (keyId: string, opts: { merchant: string; grace: number; json?: boolean }) => {
      const rolled = await withServices((s) => s.merchants.rollKey(opts.merchant, keyId, opts.grace));
      print(rolled, opts.json === true);
    });
  keys
    .command('origins <keyId>')
    .description("replace the browser origins allowed to use an API key (no --origin: any origin)")
    .requiredOption('--merchant <id>', 'merchant id')
    .option('--origin <origin>', 'an allowed origin, e.g. https://shop.example (repeatable)', repeatable)
    .option('--json', 'print JSON')
    .action(async (keyId: string, opts: { merchant: string; origin?: string[]; json?: boolean }) => {
      print(await withServices((s) => s.merchants.setAllowedOrigins(opts.merchant, keyId, opts.origin ?? [])), opts.json === true);
    });
  keys
    .command('revoke <keyId>')
    .description('stop a key from working, now')
    .requiredOption('--merchant <id>', 'merchant id')
    .option('--json', 'print JSON')
    .action(async (keyId: string, opts: { merchant: string; json?: boolean }) => {
      print(await withServices((s) => s.merchants.revokeKey(opts.merchant, keyId)), opts.json === true);
    });
  keys
    .command('list')
    .requiredOption('--merchant <id>', 'merchant id')
    .option('--json', 'print JSON')
    .action(async (opts: { merchant: string; json?: boolean }) => {
      print(await withServices((s) => s.merchants.listKeys(opts.merchant)), opts.json === true);
    });

  const ledger = program.command('ledger').description('the double-entry ledger');
  ledger
    .command('verify')
    .description('recompute every balance from the postings; exit 1 on any difference')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const report = await withServices((s) => s.ledger.verify());
      if (opts.json === true) print(report, true);
      else {
        process.stdout.write(`checked ${report.accounts} accounts, ${report.transfers} transfers, ${report.postings} postings\n`);
        for (const d of report.differences) process.stdout.write(`DIFFERENCE ${d.type} ${d.id}: ${d.detail}\n`);
        process.stdout.write(report.ok ? 'ledger is consistent\n' : `${report.differences.length} difference(s) found\n`);
      }
      if (!report.ok) process.exitCode = 1;
    });

  const signingKeys = program.command('signing-keys').description('keys that sign user access tokens');
  signingKeys
    .command('rotate')
    .description('make a new signing key; the old one stays published until its tokens expire')
    .action(async () => {
      const kid = await withServices((s) => s.users.tokens.rotate());
      process.stdout.write(`new signing key ${kid}\n`);
    });

  return program;
}

async function merchantExists(s: ReturnType<typeof createServices>, id: string): Promise<boolean> {
  return (await s.merchants.listKeys(id)).length > 0;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`caisse: configuration error: ${err.message}\n`);
    } else if (err instanceof DataDirLockedError) {
      process.stderr.write(`caisse: ${err.message}\n`);
    } else if (err instanceof ApiError) {
      process.stderr.write(`caisse: ${err.code}: ${err.message}\n`);
    } else if (err instanceof InvalidArgumentError) {
      process.stderr.write(`caisse: ${err.message}\n`);
    } else {
      process.stderr.write(`caisse: ${(err as Error).stack ?? String(err)}\n`);
    }
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runCli(process.argv);
}
