/**
 * Child processes of the bench: the Caisse server (`caisse start`), the Fastify hello world and
 * the webhook receiver. Each is started on 127.0.0.1, watched for memory, and stopped by the bench.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, readFileSync, readdirSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { sleep } from './load.ts';
import { PGLITE_NODE_ARGS } from '../../packages/server/scripts/start-flags.mjs';

export const REPO = join(import.meta.dirname, '..', '..');
export const CAISSE_BIN = join(REPO, 'packages', 'server', 'bin', 'caisse.js');

/** The node options `npm start` gives the server on embedded PGlite (packages/server/scripts/start-flags.mjs), so the bench measures what it runs. */
export function npmStartNodeArgs(): string[] {
  return [...PGLITE_NODE_ARGS];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The pid and the pids of every descendant (cluster workers). */
function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    const p = out[i] as number;
    try {
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        if (children) for (const c of children.split(/\s+/)) out.push(Number(c));
      }
    } catch {
      /* gone */
    }
  }
  return out;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

export interface MemoryReport {
  /** Highest sum of RSS over the process and its children, sampled every 200 ms (MB). */
  peakTreeRssMb: number;
  /** Highest single-process peak RSS (VmHWM) seen (MB). */
  peakProcessRssMb: number;
  processes: number;
  /** From the server's /metrics when it answered: V8 heap used and reserved, memory outside it. */
  heapUsedMb?: number;
  heapTotalMb?: number;
  externalMb?: number;
}

/** Samples the RSS of a process tree until stopped. */
export class MemoryWatch {
  private peakTree = 0;
  private peakProcess = 0;
  private processes = 1;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 200);
    this.timer.unref();
  }

  sample(): void {
    const tree = processTree(this.pid);
    this.processes = Math.max(this.processes, tree.length);
    let sum = 0;
    for (const p of tree) {
      sum += statusKb(p, 'VmRSS');
      this.peakProcess = Math.max(this.peakProcess, statusKb(p, 'VmHWM'));
    }
    this.peakTree = Math.max(this.peakTree, sum);
  }

  report(): MemoryReport {
    this.sample();
    return { peakTreeRssMb: Math.round(this.peakTree / 1024), peakProcessRssMb: Math.round(this.peakProcess / 1024), processes: this.processes };
  }

  stop(): MemoryReport {
    const r = this.report();
    clearInterval(this.timer);
    return r;
  }
}

/** SIGTERM, then SIGKILL after `killAfterMs`; resolves once it exited. */
export async function stopChild(child: ChildProcess, killAfterMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  await gone;
  clearTimeout(timer);
}

export interface Started {
  child: ChildProcess;
  origin: string;
  port: number;
  memory: MemoryWatch;
  stop(): Promise<MemoryReport>;
}

/** Spawns a node process that listens on `port`, and waits until `readyPath` answers 200. */
export async function startProcess(opts: {
  name: string;
  args: string[];
  env: Record<string, string>;
  port: number;
  readyPath: string;
  logFile: string;
  cwd?: string;
  timeoutMs?: number;
  /** The program (default: this node), e.g. `ip` for `ip netns exec <ns> node …`. */
  command?: string;
  /** Where it listens (default 127.0.0.1). */
  host?: string;
  /** Told the child at once, before it is ready (bench/lib/hosts.ts remembers its pid for cleanup). */
  onSpawn?: (child: ChildProcess) => void;
  /** Ready on any HTTP answer at `readyPath`, not only 200 (the providers' sandbox has no health route). */
  readyOnAnyAnswer?: boolean;
}): Promise<Started> {
  const log = openSync(opts.logFile, 'a');
  const child = spawn(opts.command ?? process.execPath, opts.args, {
    cwd: opts.cwd ?? REPO,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...opts.env },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  opts.onSpawn?.(child);
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `exited with ${code ?? signal}`;
  });
  const origin = `http://${opts.host ?? '127.0.0.1'}:${opts.port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (exited) throw new Error(`${opts.name} ${exited} before it was ready; see ${opts.logFile}`);
    try {
      const res = await request(`${origin}${opts.readyPath}`);
      await res.body.text();
      if (res.statusCode === 200 || opts.readyOnAnyAnswer) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${opts.name} not ready after ${opts.timeoutMs ?? 60_000} ms; see ${opts.logFile}`);
    }
    await sleep(100);
  }
  const memory = new MemoryWatch(child.pid as number);
  return {
    child,
    origin,
    port: opts.port,
    memory,
    async stop() {
      const report = memory.stop();
      await stopChild(child, 40_000);
      return report;
    },
  };
}

export interface ServerOptions {
  databaseUrl?: string;
  dataDir: string;
  masterKey: string;
  logFile: string;
  poolSize?: number;
  /** API processes (node:cluster); undefined: the server's default. */
  apiProcesses?: number;
  logLevel?: string;
  extraEnv?: Record<string, string>;
  /** Options for node itself (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** Run it in this network namespace (`ip netns exec`), listening on `address` (bench/lib/hosts.ts). */
  netns?: { name: string; address: string };
  /** The port (default: a free one). */
  port?: number;
  /** Arguments after `start` (e.g. --no-worker). */
  startArgs?: string[];
  onSpawn?: (child: ChildProcess) => void;
}

/** `caisse start` with the bench's configuration: development mode (plain HTTP), rate limits out of the way. */
export async function startCaisse(o: ServerOptions): Promise<Started> {
  const port = o.port ?? (await freePort());
  const env: Record<string, string> = {
    CAISSE_MODE: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    CAISSE_DATA_DIR: o.dataDir,
    CAISSE_MASTER_KEY: o.masterKey,
    LOG_LEVEL: o.logLevel ?? 'info',
    // The bench's load comes from one API key: lift the per-key limit (25/s in test mode by default).
    CAISSE_RATE_LIMIT_TEST: '1000000',
    CAISSE_WEBHOOK_ALLOW_LOOPBACK: 'true',
    // Run dist/ (npm run bench builds it first), even while someone edits the sources meanwhile.
    CAISSE_COMPILED: '1',
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    ...(o.poolSize ? { DB_POOL_SIZE: String(o.poolSize) } : {}),
    ...(o.apiProcesses ? { CAISSE_API_PROCESSES: String(o.apiProcesses) } : {}),
    ...(o.netns ? { HOST: o.netns.address } : {}),
    ...o.extraEnv,
  };
  const args = [...(o.nodeArgs ?? []), CAISSE_BIN, 'start', ...(o.startArgs ?? [])];
  if (!o.netns) return startProcess({ name: 'caisse', args, env, port, readyPath: '/healthz', logFile: o.logFile });
  // `ip netns exec` execs node in place: the child's pid is the server's.
  return startProcess({
    name: `caisse in ${o.netns.name}`,
    command: '/usr/sbin/ip',
    args: ['netns', 'exec', o.netns.name, process.execPath, ...args],
    env,
    port,
    host: o.netns.address,
    readyPath: '/healthz',
    logFile: o.logFile,
    onSpawn: o.onSpawn,
  });
}
