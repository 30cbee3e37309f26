/**
 * Throwaway PostgreSQL 15 clusters for the failover and restore drills (scripts/failover-test.ts,
 * scripts/restore-test.ts): each in a directory of its own under one temporary folder owned by the
 * `postgres` user, on a free port, run with Debian's binaries as that user. Everything is removed
 * by `close()`.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../test/processes.ts';

export const PG_BIN = '/usr/lib/postgresql/15/bin';
const PGBOUNCER = '/usr/sbin/pgbouncer';

/**
 * The programs a drill needs, checked before it starts: one line saying what to install rather
 * than a spawn ENOENT in the middle of the run. Resolves with that line, or undefined.
 */
export function missingPrograms(needs: { bouncer: boolean }): string | undefined {
  const missing: string[] = [];
  if (!existsSync(join(PG_BIN, 'initdb')) || !existsSync(join(PG_BIN, 'pg_ctl')))
    missing.push(`PostgreSQL 15's server programs (${PG_BIN}): apt-get install postgresql-15`);
  if (needs.bouncer && !existsSync(PGBOUNCER)) missing.push(`PgBouncer (${PGBOUNCER}): apt-get install pgbouncer`);
  if (process.getuid?.() !== 0) missing.push('root (the clusters run as the postgres user): run it with sudo');
  return missing.length === 0 ? undefined : `this drill needs ${missing.join('; and ')}`;
}

function ids(): { uid: number; gid: number } {
  return { uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()) };
}

/** A program of PostgreSQL's, run as the postgres user; its output is returned (and thrown with its error). */
export function asPostgres(program: string, args: string[]): string {
  try {
    return execFileSync('runuser', ['-u', 'postgres', '--', program.startsWith('/') ? program : join(PG_BIN, program), ...args], { stdio: 'pipe' }).toString();
  } catch (err) {
    const e = err as { stderr?: Buffer; stdout?: Buffer };
    throw new Error(`${program} ${args.join(' ')} failed: ${e.stderr?.toString() ?? ''}${e.stdout?.toString() ?? ''}`);
  }
}

export interface Cluster {
  name: string;
  dir: string;
  port: number;
  /** postgres://postgres@127.0.0.1:port/database */
  url(database?: string): string;
  start(): void;
  /** Stops it: `fast` lets it finish, `immediate` does not (for a cluster that is being thrown away). */
  stop(mode?: 'fast' | 'immediate'): void;
  /** The postmaster's pid, while it runs. */
  pid(): number | undefined;
  /** Appends settings to postgresql.conf, or to postgresql.auto.conf (read last: it wins over what pg_basebackup -R wrote there). */
  conf(lines: string[], file?: 'postgresql.conf' | 'postgresql.auto.conf'): void;
  log(): string;
}

export interface Workspace {
  dir: string;
  /** A new data directory: initdb, or `fromDir` filled by the caller (pg_basebackup, a restored copy). */
  cluster(name: string, port: number, opts?: { init?: boolean }): Cluster;
  /** A folder the postgres user owns (a WAL archive, a base backup). */
  folder(name: string): string;
  close(): void;
}

/** Settings every drill cluster gets: local only, small, logs in its directory. */
const BASE_CONF = (dir: string, port: number) => [
  `port = ${port}`,
  "listen_addresses = '127.0.0.1'",
  `unix_socket_directories = '${dir}'`,
  'shared_buffers = 32MB',
  'max_connections = 60',
  'wal_level = replica',
  'max_wal_senders = 5',
  'max_replication_slots = 5',
  'hot_standby = on',
];

export function openWorkspace(label: string): Workspace {
  if (process.getuid?.() !== 0) throw new Error(`the ${label} test needs root (its clusters run as the postgres user)`);
  const { uid, gid } = ids();
  const dir = mkdtempSync(join(tmpdir(), `caisse-${label}-`));
  chownSync(dir, uid, gid);
  const clusters: Cluster[] = [];
  const folder = (name: string) => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true, mode: 0o700 });
    chownSync(path, uid, gid);
    return path;
  };
  return {
    dir,
    folder,
    cluster(name, port, opts = {}) {
      const data = join(dir, name);
      const logFile = join(dir, `${name}.log`);
      if (opts.init ?? true) {
        asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
      }
      const c: Cluster = {
        name,
        dir: data,
        port,
        url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
        start: () => void asPostgres('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '120', 'start']),
        stop(mode = 'fast') {
          if (existsSync(join(data, 'postmaster.pid'))) asPostgres('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
        },
        pid() {
          try {
            return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
          } catch {
            return undefined;
          }
        },
        conf(lines, file = 'postgresql.conf') {
          appendFileSync(join(data, file), `\n${lines.join('\n')}\n`);
        },
        log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
      };
      if (opts.init ?? true) c.conf(BASE_CONF(dir, port));
      else c.conf([`port = ${port}`, `unix_socket_directories = '${dir}'`]);
      clusters.push(c);
      return c;
    },
    close() {
      for (const c of clusters.reverse()) {
        try {
          c.stop('immediate');
        } catch {
          // Already gone (a killed primary): its directory goes below.
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The pid and every descendant of it (a postmaster and its backends), for a SIGKILL of them all at once. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of execFileSync('ps', ['-e', '-o', 'pid=,ppid=']).toString().trim().split('\n')) {
    const [p, pp] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(pp, [...(children.get(pp) ?? []), p]);
  }
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...(children.get(all[i] as number) ?? []));
  return all;
}

export async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * PgBouncer in transaction mode in front of one server, plus the session-mode path LISTEN needs
 * (DATABASE_LISTEN_URL). `pointAt` rewrites its configuration and RELOADs it through the admin
 * console: the way a failover moves it to the new primary.
 */
export interface Bouncer {
  url: string;
  sessionUrl: string;
  pointAt(port: number): Promise<void>;
}

export async function startBouncer(
  ws: Workspace,
  o: { port: number; serverPort: number; database: string; spawn: (cmd: string, args: string[], log: string) => void },
): Promise<Bouncer> {
  const { uid, gid } = ids();
  const dir = ws.folder('pgbouncer');
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  const write = (serverPort: number) =>
    writeFileSync(
      ini,
      [
        '[databases]',
        `caisse = host=127.0.0.1 port=${serverPort} dbname=${o.database} user=postgres`,
        `caisse_session = host=127.0.0.1 port=${serverPort} dbname=${o.database} user=postgres pool_mode=session`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${o.port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(dir, 'userlist.txt')}`,
        'admin_users = postgres',
        'pool_mode = transaction',
        'max_client_conn = 500',
        'default_pool_size = 20',
        'ignore_startup_parameters = extra_float_digits,options',
        // No primary: clients waiting for a server get an error within seconds (Caisse answers 503),
        // and a new server is tried every second rather than every 15.
        'server_login_retry = 1',
        'server_connect_timeout = 3',
        'query_wait_timeout = 10',
        `logfile = ${join(dir, 'pgbouncer.log')}`,
        `pidfile = ${join(dir, 'pgbouncer.pid')}`,
        '',
      ].join('\n'),
    );
  write(o.serverPort);
  for (const f of ['userlist.txt', 'pgbouncer.ini']) chownSync(join(dir, f), uid, gid);
  o.spawn(PGBOUNCER, ['-u', 'postgres', ini], join(dir, 'pgbouncer.out'));
  const admin = `postgres://postgres@127.0.0.1:${o.port}/pgbouncer`;
  for (let i = 0; ; i++) {
    try {
      await query(admin, 'SHOW VERSION');
      break;
    } catch (err) {
      if (i > 100) throw new Error(`PgBouncer did not start: ${String(err)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url: `postgres://postgres@127.0.0.1:${o.port}/caisse`,
    sessionUrl: `postgres://postgres@127.0.0.1:${o.port}/caisse_session`,
    async pointAt(port) {
      write(port);
      await query(admin, 'RELOAD');
    },
  };
}

/**
 * A streaming copy of `primary` (a standby or a read replica): a base backup through its own
 * replication slot `slot` (also its application_name), started with `conf` added, and waited
 * for until the primary sees it in `state` (pg_stat_replication's `state`, or `sync_state` when
 * `state` is 'sync').
 */
export async function streamingCopy(
  ws: Workspace,
  primary: Cluster,
  o: { name: string; slot: string; conf: string[]; state: 'streaming' | 'sync' },
): Promise<Cluster> {
  await query(primary.url(), `select pg_create_physical_replication_slot('${o.slot}')`);
  const port = await freePort();
  asPostgres('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    `${ws.dir}/${o.name}`,
    '-X',
    'stream',
    '-R',
    '-S',
    o.slot,
  ]);
  const copy = ws.cluster(o.name, port, { init: false });
  copy.conf(
    [`primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${o.slot}'`, `primary_slot_name = '${o.slot}'`, ...o.conf],
    'postgresql.auto.conf',
  );
  copy.start();
  const column = o.state === 'sync' ? 'sync_state' : 'state';
  for (let i = 0; ; i++) {
    const rows = await query<Record<string, string>>(primary.url(), `select ${column} from pg_stat_replication where application_name = $1`, [o.slot]);
    if (rows[0]?.[column] === o.state) return copy;
    if (i > 150) throw new Error(`${o.name} does not reach ${o.state}: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
