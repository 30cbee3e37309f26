/**
 * Real processes for the shutdown, listen and crash tests and the bench scripts: `caisse start`
 * as a child process (node bin/caisse.js, the way users run it), one-shot CLI commands, a
 * database per run (a fresh PostgreSQL database or an embedded data directory), and free ports.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CAISSE_BIN = join(SERVER_DIR, 'bin', 'caisse.js');
/** A fixed master key: every process of one run must decrypt what the others encrypted. */
export const PROCESS_MASTER_KEY = Buffer.alloc(32, 11).toString('base64');

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Where a run keeps its data: a fresh PostgreSQL database, or an embedded data directory. */
export interface RunDatabase {
  kind: 'postgres' | 'pglite';
  /** Variables that point a process at it (DATABASE_URL or CAISSE_DATA_DIR). */
  env: Record<string, string>;
  url?: string;
  dataDir?: string;
  drop(): Promise<void>;
}

/**
 * A fresh database: on PostgreSQL when `adminUrl` is given (a database is created beside it, a copy
 * of `template` when given), else a temporary data directory.
 */
export async function createRunDatabase(adminUrl: string | undefined, label = 'run', template?: string): Promise<RunDatabase> {
  if (adminUrl === undefined) {
    const dataDir = mkdtempSync(join(tmpdir(), `caisse-${label}-`));
    return { kind: 'pglite', env: { CAISSE_DATA_DIR: dataDir }, dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `caisse_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template === undefined ? '' : ` template ${template}`}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // A data directory all the same, for the development master key file if one is ever written.
  const dataDir = mkdtempSync(join(tmpdir(), `caisse-${label}-`));
  return {
    kind: 'postgres',
    env: { DATABASE_URL: url.toString(), CAISSE_DATA_DIR: dataDir },
    url: url.toString(),
    dataDir,
    async drop() {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The environment of a child process: only what Caisse reads, never the test runner's database variables. */
export function processEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (/^(CAISSE_|DATABASE_URL$|TEST_DATABASE_URL$|PORT$|LOG_LEVEL$|REDIS_URL$)/.test(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    CAISSE_MASTER_KEY: PROCESS_MASTER_KEY,
    CAISSE_WEBHOOK_ALLOW_LOOPBACK: 'true',
    CAISSE_RATE_LIMIT_TEST: '100000',
    CAISSE_RATE_LIMIT_LIVE: '100000',
    // A test's server lives seconds: its embedded engine is cheaper on V8's baseline compiler.
    CAISSE_PGLITE_BASELINE: 'true',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** A child process whose output is kept (the last `keep` lines of each stream). */
export interface Proc {
  child: ChildProcess;
  pid: number;
  /** stdout and stderr lines, oldest first (bounded). */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once stdout and stderr have ended (after `exited`, every line is in `lines` only then). */
  drained: Promise<void>;
  /** Resolves with the first line (already seen or to come) matching `pattern`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  kill(signal?: NodeJS.Signals): void;
}

export function spawnCaisse(args: string[], env: Record<string, string>, opts: { keep?: number } = {}): Proc {
  const keep = opts.keep ?? 5000;
  const child = spawn(process.execPath, [CAISSE_BIN, ...args], { cwd: SERVER_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const watchers = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();
  const onLine = (line: string) => {
    lines.push(line);
    if (lines.length > keep) lines.splice(0, lines.length - keep);
    for (const w of watchers) {
      if (w.pattern.test(line)) {
        watchers.delete(w);
        w.resolve(line);
      }
    }
  };
  const ends: Promise<void>[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = '';
    if (stream) ends.push(new Promise((resolve) => stream.once('close', () => resolve())));
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buffer += chunk;
      let i: number;
      while ((i = buffer.indexOf('\n')) >= 0) {
        onLine(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
      }
    });
    stream?.on('end', () => {
      if (buffer !== '') onLine(buffer);
      buffer = '';
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    pid: child.pid as number,
    lines,
    exited,
    drained: Promise.all(ends).then(() => {}),
    waitForLine(pattern, timeoutMs = 60_000) {
      const found = lines.find((l) => pattern.test(l));
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const w = {
          pattern,
          resolve: (line: string) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        const timer = setTimeout(() => {
          watchers.delete(w);
          reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; output:\n${lines.slice(-30).join('\n')}`));
        }, timeoutMs);
        watchers.add(w);
        void exited.then(({ code, signal }) => {
          if (!watchers.has(w)) return;
          watchers.delete(w);
          clearTimeout(timer);
          reject(new Error(`process exited (${code ?? signal}) before a line matching ${pattern}; output:\n${lines.slice(-30).join('\n')}`));
        });
      });
    },
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

/** Runs a CLI command to its end. */
export async function runCaisse(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; output: string }> {
  const child = spawn(process.execPath, [CAISSE_BIN, ...args], { cwd: SERVER_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
    output += c;
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { code, stdout, output };
}

export interface TestKeys {
  merchantId: string;
  apiKey: string;
  secretKey: string;
  /** The owner's dashboard sign-in, made with the merchant. */
  dashboard?: { email: string; password: string };
}

/** `caisse merchants create --json` (PostgreSQL, or an embedded data directory no server holds); `country` as `--country` (default CM). */
export async function createMerchantWithCli(env: Record<string, string>, name = 'Shop', country?: string): Promise<TestKeys> {
  const res = await runCaisse(['merchants', 'create', '--name', name, ...(country === undefined ? [] : ['--country', country]), '--json'], {
    ...env,
    LOG_LEVEL: 'warn',
  });
  if (res.code !== 0) throw new Error(`merchants create failed (${res.code}):\n${res.output}`);
  // The pretty-printed JSON document, after any log line.
  const created = JSON.parse(res.stdout.slice(res.stdout.search(/^\{$/m))) as {
    merchantId: string;
    test: { apiKey: string; secretKey: string };
    dashboard?: { email: string; password: string };
  };
  return { merchantId: created.merchantId, apiKey: created.test.apiKey, secretKey: created.test.secretKey, dashboard: created.dashboard };
}

export interface ServerProc extends Proc {
  port: number;
  url: string;
  /** The development merchant printed on an empty embedded database. */
  devMerchant?: TestKeys;
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * `caisse start --port N` as a child process, resolved once /healthz answers. Without `port`, a
 * free port is picked; should another process take it before the server listens (EADDRINUSE: a
 * race with anything else opening sockets meanwhile), the server is started again on another.
 */
export async function startServerProcess(opts: { env: Record<string, string>; port?: number; args?: string[]; timeoutMs?: number }): Promise<ServerProc> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(opts);
    } catch (err) {
      if (!(err instanceof PortTakenError) || opts.port !== undefined || attempt === 3) throw err;
    }
  }
}

class PortTakenError extends Error {}

/** The last line of each form of the start banner: a merchant made now, one already there, none. */
export const BANNER_END = /Next: docs\/quickstart\.md|prints a new export line|No merchant yet: /;

async function startServerOnce(opts: { env: Record<string, string>; port?: number; args?: string[]; timeoutMs?: number }): Promise<ServerProc> {
  const port = opts.port ?? (await freePort());
  const proc = spawnCaisse(['start', '--port', String(port), ...(opts.args ?? [])], opts.env);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  let exited = false;
  void proc.exited.then(() => (exited = true));
  while (!(await healthy(url))) {
    if (exited) {
      // The exit can come before the last of its output: read that first, to say why.
      const { code, signal } = await proc.exited;
      await Promise.race([proc.drained, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
      const output = proc.lines.slice(-40).join('\n');
      const message = `caisse start exited (${code ?? signal}) before answering:\n${output}`;
      throw /EADDRINUSE/.test(output) ? new PortTakenError(message) : new Error(message);
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`caisse start did not answer within ${opts.timeoutMs ?? 90_000} ms:\n${proc.lines.slice(-40).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // The banner is written after the server listens, in one write that the pipe may split: it can
  // reach us after the first healthy answer, and its first line before its keys. Wait for its
  // last line (src/banner.ts ends each of its three forms so), for a while at most.
  const bannerRead = () => BANNER_END.test(proc.lines.join('\n'));
  for (const until = Date.now() + 10_000; !bannerRead() && !exited && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
  const text = proc.lines.join('\n');
  // The start banner (src/banner.ts): "Merchant  mch_… (created now…)", then the export line.
  const merchantId = /Merchant\s+(mch_\S+) \(created now/.exec(text)?.[1];
  const apiKey = /export CAISSE_API_KEY=(pk_test_\S+)/.exec(text)?.[1];
  const secretKey = /CAISSE_SECRET_KEY=(sk_test_\S+)/.exec(text)?.[1];
  const devMerchant = merchantId && apiKey && secretKey ? { merchantId, apiKey, secretKey } : undefined;
  return { ...proc, port, url, devMerchant };
}
