import { InvalidArgumentError, type Command } from 'commander';
import { isLanguage, type Language } from '@caisse/intl';
import type { AdminArgs, AdminCommand, AdminResult } from '../admin.ts';
import { ConfigError, type Config, loadConfig } from '../config.ts';
import { COUNTRY_CODES, type Country, isCountry } from '../platform/countries.ts';
import type { DataDirLockedError } from '../platform/db.ts';
import { ApiError } from '../platform/errors.ts';
import { processAlive } from '../platform/process-alive.ts';
// The server, its database and its services load only for the commands that use them (import()).
import type { createServices } from '../services.ts';

// What every command group (src/cli/commands/) uses: the configuration, the operator commands, options and output.

export function config(): Config {
  return loadConfig(process.env);
}

export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return n;
}

export function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

/** Where the command works: the embedded database's directory, or "PostgreSQL". */
export function databaseLabel(cfg: Config): string {
  return cfg.databaseUrl === undefined ? `embedded database in ${cfg.dataDir}` : 'PostgreSQL (DATABASE_URL)';
}

/** Runs a command that needs the database and the services, then closes everything. */
export async function withServices<T>(fn: (services: ReturnType<typeof createServices>) => Promise<T>): Promise<T> {
  const { openRuntime } = await import('../runtime.ts');
  const { createServices } = await import('../services.ts');
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
export async function admin<C extends AdminCommand>(name: C, args: AdminArgs<C>, viaServer = config().databaseUrl === undefined): Promise<AdminResult<C>> {
  const cfg = config();
  const { checkAdminArgs, readAdminFile, runAdminCommand } = await import('../admin.ts');
  checkAdminArgs(name, args);
  const server = viaServer ? readAdminFile(cfg.dataDir) : undefined;
  const sameDatabase = (server?.database ?? 'embedded') === (cfg.databaseUrl === undefined ? 'embedded' : 'postgresql');
  if (server !== undefined && sameDatabase && processAlive(server.pid)) {
    const { AdminUnreachableError, callAdmin } = await import('./admin-client.ts');
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
export function examples(command: Command, ...lines: string[]): Command {
  return command.addHelpText('after', `\n${lines.length > 1 ? 'Examples' : 'Example'}:\n${lines.map((l) => `  $ ${l}`).join('\n')}`);
}

/** A language option: fr or en. */
export function parseLanguage(value: string): Language {
  if (!isLanguage(value)) throw new InvalidArgumentError('a language is fr or en');
  return value;
}

/** A country option: CM, SN or CI. */
export function parseCountry(value: string): Country {
  const upper = value.toUpperCase();
  if (!isCountry(upper)) throw new InvalidArgumentError(`a country is one of ${COUNTRY_CODES.join(', ')}`);
  return upper;
}

/** Collects a repeatable option (`--origin a --origin b`). */
export function repeatable(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function print(value: unknown, json: boolean) {
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

/** What to tell the person about a command's failure, after "caisse: ". */
export function errorLine(err: unknown): string {
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
  // A system call that failed (a file that is not there, a port already taken) is no bug: its message says it.
  const sys = err as NodeJS.ErrnoException | undefined;
  if (sys instanceof Error && typeof sys.code === 'string' && typeof sys.syscall === 'string') {
    return sys.code === 'EADDRINUSE' ? `${sys.message} (another process listens there: --port chooses another)` : sys.message;
  }
  return (err as Error).stack ?? String(err);
}
