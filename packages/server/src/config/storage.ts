import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, type Env, oneOf, type RunMode } from './env.ts';

/** Where the server keeps its data: the database's URLs, the data directory and the master key kept in it, and how it logs. */

export function databaseUrl(env: Env, name: 'DATABASE_URL' | 'DATABASE_LISTEN_URL' | 'DATABASE_READ_URL' = 'DATABASE_URL'): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a URL (expected postgres://user@host:port/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(name, `must use postgres:// or postgresql://, got ${url.protocol}//`);
  }
  return raw;
}

/**
 * The master key: base64 of 32 bytes. Production must configure it. In development, when it is
 * not set, a key is generated once and kept in the data directory so that restarts can still
 * decrypt what was encrypted.
 */
export function masterKey(env: Env, mode: RunMode, dataDir: string): Buffer {
  const raw = env.CAISSE_MASTER_KEY;
  if (raw !== undefined && raw !== '') {
    const key = Buffer.from(raw, 'base64');
    if (key.length !== 32 || key.toString('base64') !== raw.trim()) {
      throw new ConfigError('CAISSE_MASTER_KEY', 'must be the base64 encoding of exactly 32 bytes (openssl rand -base64 32)');
    }
    return key;
  }
  if (mode === 'production') throw new ConfigError('CAISSE_MASTER_KEY', 'is required in production mode');
  const file = join(dataDir, 'master.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  return key;
}

// --- Newcomer defaults (issue 21): one data directory for every entry point, log format. ---

/**
 * The directory a relative CAISSE_DATA_DIR (and the default `.caisse`) is taken from: the root of
 * the npm workspace this server is part of (the nearest directory above it whose package.json has
 * `workspaces`), so `npm start` (which runs in packages/server) and `npx caisse` run from the
 * root or any other folder of the clone open the same database. Outside a workspace: the
 * current directory.
 */
export function projectRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { workspaces?: unknown };
      if (manifest.workspaces !== undefined) return dir;
    } catch {
      /* no package.json here */
    }
    if (dirname(dir) === dir) return process.cwd();
  }
}

/** CAISSE_DATA_DIR, absolute; relative paths and the default `.caisse` are taken from projectRoot(). */
export function dataDirectory(env: Env): string {
  const raw = env.CAISSE_DATA_DIR || '.caisse';
  return isAbsolute(raw) ? resolve(raw) : resolve(projectRoot(), raw);
}

/** CAISSE_LOG_FORMAT: `pretty` (one readable line per entry) or `json`; default pretty only on a terminal in development. */
export function logFormat(env: Env, mode: RunMode, terminal: boolean): 'pretty' | 'json' {
  return oneOf(env, 'CAISSE_LOG_FORMAT', ['pretty', 'json'] as const, mode === 'development' && terminal ? 'pretty' : 'json');
}
