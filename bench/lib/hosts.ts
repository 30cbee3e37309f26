/**
 * Several hosts on one machine (bench/README.md, "Several hosts"): three network namespaces joined
 * by veth pairs to a bridge in the root namespace, PgBouncer in transaction mode in front of the
 * machine's PostgreSQL, a TCP forward to the machine's Redis, and one `caisse start` per namespace.
 *
 * Addresses come from 198.18.0.0/15, the range reserved for benchmarks: the bridge is 198.18.0.1,
 * the hosts 198.18.0.11–13, on a /24 with no route out of it, so nothing is sent anywhere but to
 * these addresses and 127.0.0.1. Needs root (`ip netns`).
 *
 * Cleanup is idempotent and runs first too: a run that was killed leaves processes (their pids are
 * kept in STATE_DIR), namespaces, the bridge and its database; the next run removes them.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sleep } from './load.ts';
import { REPO, type Started, startCaisse, stopChild } from './processes.ts';

export const BRIDGE = 'czbr0';
export const ROOT_ADDRESS = '198.18.0.1';
export const HOST_ADDRESSES = ['198.18.0.11', '198.18.0.12', '198.18.0.13'] as const;
export const NAMESPACES = HOST_ADDRESSES.map((_, i) => `caisse-h${i + 1}`);
export const PGBOUNCER_PORT = 6543;
export const REDIS_FORWARD_PORT = 6379;
export const API_PORT = 8080;
/** Pids of the processes a run started, one file each: what a killed run left is ended by the next. */
const STATE_DIR = '/run/caisse-hosts';
const DB_PREFIX = 'caisse_hosts_';
const IP = '/usr/sbin/ip';
const PGBOUNCER = '/usr/sbin/pgbouncer';

function sh(cmd: string, args: string[], opts: { quiet?: boolean } = {}): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    if (opts.quiet) return '';
    const e = err as { stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')}: ${e.stderr?.trim() || e.message}`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function remember(child: ChildProcess, what: string): void {
  mkdirSync(STATE_DIR, { recursive: true });
  writeFileSync(join(STATE_DIR, `${child.pid}.pid`), what);
}

/** Ends what a previous run left (by pid, when the process is still the one it started), removes the network and stale databases. */
export async function cleanup(adminUrl: string, log: (line: string) => void = () => {}): Promise<void> {
  const killed: number[] = [];
  if (existsSync(STATE_DIR)) {
    for (const file of readdirSync(STATE_DIR)) {
      const pid = Number(file.replace(/\.pid$/, ''));
      const what = readFileSync(join(STATE_DIR, file), 'utf8');
      let cmdline = '';
      try {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        /* gone */
      }
      if (pid > 1 && cmdline.includes(what)) {
        log(`ending ${what} (pid ${pid}) left by an earlier run`);
        process.kill(pid, 'SIGKILL');
        killed.push(pid);
      }
      rmSync(join(STATE_DIR, file), { force: true });
    }
  }
  for (let i = 0; i < 50 && killed.some(alive); i++) await sleep(100);
  removeNetwork();
  // Databases of earlier runs whose process is gone (caisse_hosts_<time>_<pid>).
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like '${DB_PREFIX}%'`);
    for (const { datname } of rows) {
      const pid = Number(/_(\d+)$/.exec(datname)?.[1]);
      if (pid !== process.pid && !alive(pid)) {
        log(`dropping ${datname}, left by an earlier run`);
        await admin.query(`drop database if exists ${datname} with (force)`);
      }
    }
  } finally {
    await admin.end();
  }
}

/** Removes the namespaces, the root ends of the veth pairs (a namespace a process still holds keeps its end alive) and the bridge. */
function removeNetwork(): void {
  NAMESPACES.forEach((ns, i) => {
    sh(IP, ['netns', 'del', ns], { quiet: true });
    sh(IP, ['link', 'del', `czv${i + 1}`], { quiet: true });
  });
  sh(IP, ['link', 'del', BRIDGE], { quiet: true });
}

/** The bridge, three namespaces, a veth pair each; loopback up in each (the server's MoMo sandbox listens there). */
export function makeNetwork(): void {
  sh(IP, ['link', 'add', BRIDGE, 'type', 'bridge']);
  sh(IP, ['addr', 'add', `${ROOT_ADDRESS}/24`, 'dev', BRIDGE]);
  sh(IP, ['link', 'set', BRIDGE, 'up']);
  NAMESPACES.forEach((ns, i) => {
    const outside = `czv${i + 1}`;
    const inside = `czp${i + 1}`;
    sh(IP, ['netns', 'add', ns]);
    sh(IP, ['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside, 'netns', ns]);
    sh(IP, ['link', 'set', outside, 'master', BRIDGE, 'up']);
    sh(IP, ['-n', ns, 'addr', 'add', `${HOST_ADDRESSES[i]}/24`, 'dev', inside]);
    sh(IP, ['-n', ns, 'link', 'set', inside, 'up']);
    sh(IP, ['-n', ns, 'link', 'set', 'lo', 'up']);
  });
}

/** Debian's pgbouncer, installed with apt-get when missing. */
export function ensurePgbouncer(log: (line: string) => void = () => {}): void {
  if (existsSync(PGBOUNCER)) return;
  log('installing pgbouncer (apt-get)');
  sh('apt-get', ['update']);
  execFileSync('apt-get', ['install', '-y', 'pgbouncer'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

async function waitForPort(host: string, port: number, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, host);
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${what} does not listen on ${host}:${port}`);
    await sleep(100);
  }
}

/** A process of ours, remembered for cleanup; resolves once `ready` printed (or at once). */
function spawnTracked(what: string, command: string, args: string[], logFile: string, env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const log = openSync(logFile, 'a');
  const child = spawn(command, args, { stdio: ['ignore', log, log], env });
  closeSync(log);
  child.once('error', () => {});
  remember(child, what);
  return child;
}

async function stopTracked(child: ChildProcess): Promise<void> {
  await stopChild(child, 10_000);
  rmSync(join(STATE_DIR, `${child.pid}.pid`), { force: true });
}

export interface HostsOptions {
  /** The machine's PostgreSQL, for creating and dropping the run's database (127.0.0.1). */
  adminUrl: string;
  /** An existing database to use (the bench's); otherwise a fresh one is made and dropped. */
  database?: string;
  masterKey: string;
  log?: (line: string) => void;
  /** PgBouncer's server connections per database (its default_pool_size). */
  pgbouncerPool?: number;
}

export interface HostsWorld {
  database: string;
  /** The direct URL of the run's database (127.0.0.1), for the test's own reads. */
  directUrl: string;
  /** Through PgBouncer: transaction mode, and the session-mode path LISTEN uses. */
  pooledUrl: string;
  sessionUrl: string;
  redisUrl: string;
  work: string;
  /** PgBouncer's pid (its CPU is counted apart). */
  pgbouncerPid: number;
  /** Starts `caisse start` in namespace i (0–2); only the first runs the background workers. */
  startHost(i: number, env?: Record<string, string>): Promise<Started>;
  /** A forward inside namespace i from its 127.0.0.1:port to the root namespace's ROOT_ADDRESS:port (webhooks to a receiver). */
  forwardFromHost(i: number, port: number): Promise<void>;
  /** Stops everything and removes the network, the database (when made here) and the work directory. */
  close(): Promise<void>;
}

/**
 * Sets the whole thing up. On any failure what was made is removed before the error is thrown;
 * callers still call close() in a `finally` (and on SIGINT/SIGTERM).
 */
export async function openHosts(o: HostsOptions): Promise<HostsWorld> {
  const log = o.log ?? (() => {});
  if (process.getuid?.() !== 0) throw new Error('the hosts test needs root (ip netns, and PgBouncer runs as the postgres user)');
  await cleanup(o.adminUrl, log);
  ensurePgbouncer(log);
  const work = mkdtempSync(join(tmpdir(), 'caisse-hosts-'));
  const children: ChildProcess[] = [];
  /** Every server spawned, ready or not: a stop during start-up must end them too. */
  const hosts: ChildProcess[] = [];
  const ownDatabase = o.database === undefined;
  const database = o.database ?? `${DB_PREFIX}${Date.now()}_${process.pid}`;
  const close = async () => {
    await Promise.all(hosts.splice(0).map((h) => stopTracked(h)));
    for (const c of children.splice(0).reverse()) await stopTracked(c);
    removeNetwork();
    if (ownDatabase) {
      const admin = new pg.Client({ connectionString: o.adminUrl });
      await admin
        .connect()
        .then(() => admin.query(`drop database if exists ${database} with (force)`))
        .catch((err) => log(`could not drop ${database}: ${err}`));
      await admin.end().catch(() => undefined);
    }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    if (ownDatabase) {
      const admin = new pg.Client({ connectionString: o.adminUrl });
      await admin.connect();
      await admin.query(`create database ${database}`).finally(() => admin.end());
    }
    makeNetwork();
    const pgUrl = new URL(o.adminUrl);
    const pgHost = pgUrl.hostname;
    const pgPort = pgUrl.port || '5432';
    // PgBouncer refuses to run as root: it runs as postgres (-u), which must read its files.
    const bouncerDir = join(work, 'pgbouncer');
    mkdirSync(bouncerDir);
    writeFileSync(join(bouncerDir, 'userlist.txt'), '"postgres" ""\n');
    writeFileSync(
      join(bouncerDir, 'pgbouncer.ini'),
      [
        '[databases]',
        `caisse = host=${pgHost} port=${pgPort} dbname=${database} user=postgres`,
        // A second path to the same database that keeps its session: LISTEN (DATABASE_LISTEN_URL).
        `caisse_session = host=${pgHost} port=${pgPort} dbname=${database} user=postgres pool_mode=session`,
        '[pgbouncer]',
        `listen_addr = ${ROOT_ADDRESS}`,
        `listen_port = ${PGBOUNCER_PORT}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(bouncerDir, 'userlist.txt')}`,
        'pool_mode = transaction',
        'max_client_conn = 1000',
        `default_pool_size = ${o.pgbouncerPool ?? 20}`,
        'ignore_startup_parameters = extra_float_digits,options',
        `logfile = ${join(bouncerDir, 'pgbouncer.log')}`,
        'log_connections = 0',
        'log_disconnections = 0',
        '',
      ].join('\n'),
    );
    const uid = Number(sh('id', ['-u', 'postgres']).trim());
    const gid = Number(sh('id', ['-g', 'postgres']).trim());
    chownSync(work, uid, gid);
    for (const f of ['', 'userlist.txt', 'pgbouncer.ini']) chownSync(join(bouncerDir, f), uid, gid);
    const bouncer = spawnTracked('pgbouncer', PGBOUNCER, ['-u', 'postgres', join(bouncerDir, 'pgbouncer.ini')], join(work, 'pgbouncer.out'));
    children.push(bouncer);
    await waitForPort(ROOT_ADDRESS, PGBOUNCER_PORT, 'PgBouncer');
    // The machine's Redis listens on 127.0.0.1 only: a forward on the bridge's address.
    const redis = new URL(process.env.HOSTS_REDIS_URL || 'redis://127.0.0.1:6379');
    children.push(
      spawnTracked(
        'forward.mjs',
        process.execPath,
        [join(REPO, 'bench', 'forward.mjs'), ROOT_ADDRESS, String(REDIS_FORWARD_PORT), redis.hostname, redis.port || '6379'],
        join(work, 'forward-redis.log'),
      ),
    );
    await waitForPort(ROOT_ADDRESS, REDIS_FORWARD_PORT, 'the Redis forward');
    const via = (db: string) => `postgres://postgres@${ROOT_ADDRESS}:${PGBOUNCER_PORT}/${db}`;
    const direct = new URL(o.adminUrl);
    direct.pathname = `/${database}`;
    const world: HostsWorld = {
      database,
      directUrl: direct.toString(),
      pooledUrl: via('caisse'),
      sessionUrl: via('caisse_session'),
      redisUrl: `redis://${ROOT_ADDRESS}:${REDIS_FORWARD_PORT}`,
      work,
      pgbouncerPid: bouncer.pid as number,
      async startHost(i, env = {}) {
        const name = NAMESPACES[i] as string;
        const started = await startCaisse({
          databaseUrl: world.pooledUrl,
          dataDir: join(work, `data-${i + 1}`),
          masterKey: o.masterKey,
          logFile: join(work, `${name}.log`),
          netns: { name, address: HOST_ADDRESSES[i] as string },
          port: API_PORT,
          startArgs: i === 0 ? [] : ['--no-worker'],
          onSpawn: (child) => {
            remember(child, 'caisse.js');
            hosts.push(child);
          },
          extraEnv: {
            DB_PREPARED_STATEMENTS: 'false',
            DATABASE_LISTEN_URL: world.sessionUrl,
            REDIS_URL: world.redisUrl,
            ...env,
          },
        });
        return started;
      },
      async forwardFromHost(i, port) {
        const child = spawnTracked(
          'forward.mjs',
          IP,
          [
            'netns',
            'exec',
            NAMESPACES[i] as string,
            process.execPath,
            join(REPO, 'bench', 'forward.mjs'),
            '127.0.0.1',
            String(port),
            ROOT_ADDRESS,
            String(port),
          ],
          join(work, `forward-${port}.log`),
        );
        children.push(child);
        const deadline = Date.now() + 10_000;
        while (!readFileSync(join(work, `forward-${port}.log`), 'utf8').includes('ready')) {
          if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the forward in ${NAMESPACES[i]} did not start`);
          await sleep(50);
        }
      },
      close,
    };
    return world;
  } catch (err) {
    await close();
    throw err;
  }
}
