/**
 * A `caisse start` process on a database of its own, for the browser tests and their global setup
 * (hence no vitest import here). The database copies the run's migrated template when one is
 * given, so the server starts with nothing to migrate; without one it migrates an empty database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { CLI, POSTGRES, withDatabase } from './postgres.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A statement on the PostgreSQL server's default database (create or drop a database). */
export async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: POSTGRES });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** The server a half of the run shares (test/global-setup.ts), as the files reach it. */
/** An operator command (`merchants/create`, `operators/create`) through a server's admin endpoint. */
export async function adminCommand<T>(adminUrl: string, token: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${adminUrl}/admin/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export interface SharedServer {
  url: string;
  databaseUrl: string;
  adminUrl: string;
  adminToken: string;
}

export interface CaisseProcess {
  url: string;
  databaseUrl: string;
  /** The server's loopback admin endpoint (its data directory's admin.json). */
  adminEndpoint(): { url: string; token: string };
  /** An operator command through that endpoint. */
  admin<T>(path: string, body: unknown): Promise<T>;
  /** What the server wrote to stdout and stderr. */
  output(): string;
  /** Stops the server and drops its database. */
  stop(): Promise<void>;
}

export interface LaunchOptions {
  /** The migrated database to copy (`create database … template …`). */
  template?: string;
  /** A sandbox of the caller's own instead of the one the server runs in its process. */
  sandboxUrl?: string;
  env?: Record<string, string>;
  /** Runs on the database before the server starts (a CLI command that needs the database to itself). */
  beforeStart?: (env: NodeJS.ProcessEnv) => Promise<void>;
}

type Started = { ok: true; url: string; child: ChildProcess; exited: Promise<void>; output: string } | { ok: false; why: string; output: string };

/** `caisse start` on `port`, once it answers /readyz; or why it did not (its output says more). */
async function startOn(port: number, env: NodeJS.ProcessEnv): Promise<Started> {
  const started = { output: '' };
  const child: ChildProcess = spawn(process.execPath, [CLI, 'start', '--port', String(port)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (started.output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (started.output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      // The exit can come before the last of its output: wait for the streams to end.
      await Promise.race([new Promise((r) => child.once('close', r)), new Promise((r) => setTimeout(r, 2000))]);
      return { ok: false, why: 'exited early', output: started.output };
    }
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      return { ok: false, why: 'did not become ready', output: started.output };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    ok: true,
    url,
    child,
    exited,
    get output() {
      return started.output;
    },
  };
}

/** A fresh database, then `caisse start` on it in development mode, once it answers /readyz. */
export async function launchCaisse(opts: LaunchOptions = {}): Promise<CaisseProcess> {
  const dbName = `caisse_e2e_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin(`create database ${dbName}${opts.template ? ` template ${opts.template}` : ''}`);
  const databaseUrl = withDatabase(POSTGRES, dbName);
  const dataDir = mkdtempSync(join(tmpdir(), 'caisse-e2e-'));
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    CAISSE_DATA_DIR: dataDir,
    CAISSE_MASTER_KEY: randomBytes(32).toString('base64'),
    CAISSE_MODE: 'development',
    CAISSE_WEBHOOK_ALLOW_LOOPBACK: 'true',
    // A test's server lives a minute at most: its embedded engine is cheaper on V8's baseline compiler.
    CAISSE_PGLITE_BASELINE: 'true',
    LOG_LEVEL: 'warn',
  };
  delete base.TEST_DATABASE_URL;
  // Development mode without a sandbox URL runs the providers' sandbox in the server's process, its
  // callbacks to this server's port: the checkout's top-ups need nothing else.
  for (const name of ['CAISSE_SANDBOX_URL', 'CAISSE_SANDBOX_CALLBACKS_URL', 'CAISSE_MOMO_SANDBOX_URL', 'CAISSE_MOMO_SANDBOX_CALLBACK_URL']) delete base[name];
  Object.assign(base, opts.env);
  await opts.beforeStart?.(base);

  // A free port can be taken (as another connection's ephemeral port) before the server binds it:
  // then another port, up to three times.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...base, PORT: String(port) };
    if (opts.sandboxUrl !== undefined) {
      env.CAISSE_SANDBOX_URL = opts.sandboxUrl;
      env.CAISSE_SANDBOX_CALLBACKS_URL = `http://127.0.0.1:${port}/callbacks`;
    }
    const started = await startOn(port, env);
    if (started.ok) return running(started);
    if (attempt === 3 || !started.output.includes('EADDRINUSE')) throw new Error(`the server ${started.why}:\n${started.output}`);
  }

  function running(started: Started & { ok: true }): CaisseProcess {
    const { url, child, exited } = started;
    const adminEndpoint = () => JSON.parse(readFileSync(join(dataDir, 'admin.json'), 'utf8')) as { url: string; token: string };
    return {
      url,
      databaseUrl,
      adminEndpoint,
      admin: <T>(path: string, body: unknown) => {
        const { url: adminUrl, token } = adminEndpoint();
        return adminCommand<T>(adminUrl, token, path, body);
      },
      output: () => started.output,
      async stop() {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
        await admin(`drop database if exists ${dbName} with (force)`);
      },
    };
  }
}
