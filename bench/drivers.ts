/**
 * Driver CPU: node-postgres (as the server drives it) against postgres.js (`postgres` on npm),
 * CPU of this Node process only (process.cpuUsage, user + system) per operation.
 *
 *   A  pg         the server's own pool: openPostgres from platform/db.ts (pipeline: true, its
 *                 `types`, named prepared statements, BEGIN written with the first statement),
 *                 a client checked out per operation as Kysely does (pool.connect / release).
 *   B  postgres   postgres.js used on its own: sql.unsafe on the shared pool (statements from
 *                 several callers pipelined on one connection), transactions through sql.begin
 *                 (which waits for BEGIN's answer: one round trip more than A).
 *   C  reserved   postgres.js as a Kysely dialect drives it (kysely-postgres-js): reserve() per
 *                 operation, unsafe() on it; BEGIN written with the first statement, as A does.
 *
 * Workloads, 32 concurrent callers over 10 connections, a fixed count after a warm-up:
 *   select  a prepared select of one row by primary key, 12 columns (text, bigint, timestamptz,
 *           jsonb, boolean);
 *   tx      BEGIN; select … for update of one row; update it; insert a row of 8 columns; COMMIT.
 *
 * postgres.js is not a dependency of the repository. Install it in a scratch directory and name
 * it with POSTGRES_JS (the package's directory); without it this script says so and exits 0:
 *
 *   mkdir -p /tmp/drv && cd /tmp/drv && echo '{"private":true}' > package.json \
 *     && npm install --no-save postgres@3.4.x
 *   POSTGRES_JS=/tmp/drv/node_modules/postgres flock /tmp/bench.lock npx tsx --expose-gc bench/drivers.ts
 *
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), DRIVERS_COUNT (20000 per run),
 * DRIVERS_WARMUP (3000), DRIVERS_ROUNDS (4). Its two tables are made with a unique name and
 * dropped at the end.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openPostgres } from '../packages/server/src/platform/db.ts';

const URL_ = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const COUNT = Number(process.env.DRIVERS_COUNT ?? 20_000);
const WARMUP = Number(process.env.DRIVERS_WARMUP ?? 3_000);
const ROUNDS = Number(process.env.DRIVERS_ROUNDS ?? 4);
const CALLERS = 32;
const POOL = 10;
const ROWS = 10_000;

/** The little of postgres.js this script uses (the package is not installed in the repository). */
interface PgjsQuery extends Promise<unknown[]> {
  execute(): PgjsQuery;
}
interface PgjsSql {
  unsafe(text: string, values?: unknown[], options?: { prepare?: boolean }): PgjsQuery;
}
interface PgjsReserved extends PgjsSql {
  release(): void;
}
interface PgjsPool extends PgjsSql {
  begin<T>(fn: (tx: PgjsSql) => Promise<T>): Promise<T>;
  reserve(): Promise<PgjsReserved>;
  json(value: unknown): unknown;
  end(opts?: { timeout?: number }): Promise<void>;
}
interface PgjsModule {
  default: ((url: string, options: Record<string, unknown>) => PgjsPool) & { BigInt: unknown };
}

async function loadPostgresJs(): Promise<{ mod: PgjsModule; where: string } | undefined> {
  const dir = process.env.POSTGRES_JS;
  if (dir) {
    const entry = join(dir, 'src', 'index.js');
    if (!existsSync(entry)) return undefined;
    return { mod: (await import(pathToFileURL(entry).href)) as PgjsModule, where: dir };
  }
  try {
    const name = 'postgres';
    return { mod: (await import(name)) as PgjsModule, where: 'node_modules' };
  } catch {
    return undefined;
  }
}

const loaded = await loadPostgresJs();
if (loaded === undefined) {
  console.log('postgres.js (`postgres` on npm) is not installed: nothing to compare. Install it in a scratch directory:');
  console.log('  mkdir -p /tmp/drv && cd /tmp/drv && echo \'{"private":true}\' > package.json && npm install --no-save postgres@3.4.x');
  console.log('  POSTGRES_JS=/tmp/drv/node_modules/postgres npx tsx --expose-gc bench/drivers.ts');
  process.exit(0);
}
const postgres = loaded.mod.default;
const require = createRequire(import.meta.url);
const versionOf = (packageJson: string): string => {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
};
const pgjsVersion = versionOf(join(process.env.POSTGRES_JS ?? join(process.cwd(), 'node_modules', 'postgres'), 'package.json'));
const pgVersion = versionOf(require.resolve('pg/package.json'));

// ---- schema ----------------------------------------------------------------------------------

const tag = `drv_${process.pid}_${Date.now().toString(36)}`;
const PAY = `${tag}_pay`;
const LEDGER = `${tag}_ledger`;

const admin = new pg.Client({ connectionString: URL_ });
await admin.connect();

async function dropTables(): Promise<void> {
  await admin.query(`drop table if exists ${LEDGER}, ${PAY}`);
}

await admin.query(`
  create table ${PAY} (
    id bigint primary key,
    merchant text not null,
    amount bigint not null,
    fee bigint not null,
    currency text not null,
    status text not null,
    description text,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    captured_at timestamptz,
    live boolean not null,
    metadata jsonb not null
  )`);
await admin.query(`
  create table ${LEDGER} (
    id bigserial primary key,
    payment_id bigint not null,
    amount bigint not null,
    currency text not null,
    kind text not null,
    reference text not null,
    created_at timestamptz not null,
    live boolean not null,
    metadata jsonb not null
  )`);
await admin.query(
  `insert into ${PAY}
   select i, 'mer_' || (i % 97), 1000 + i, 30 + i % 7, 'EUR', 'succeeded', 'Order #' || i,
          now() - (i || ' minutes')::interval, now(), now() - (i || ' seconds')::interval, i % 2 = 0,
          jsonb_build_object('order', 'ord_' || i, 'customer', 'cus_' || (i % 311), 'items', i % 5, 'gift', false)
   from generate_series(1, $1::int) i`,
  [ROWS],
);
await admin.query(`vacuum analyze ${PAY}`);

const SELECT = `select id, merchant, amount, fee, currency, status, description, created_at, updated_at, captured_at, live, metadata from ${PAY} where id = $1`;
const LOCK = `${SELECT} for update`;
const UPDATE = `update ${PAY} set amount = amount + $2, updated_at = now() where id = $1`;
const INSERT = `insert into ${LEDGER} (payment_id, amount, currency, kind, reference, created_at, live, metadata) values ($1, $2, $3, $4, $5, $6, $7, $8)`;

let seed = 42;
/** A small deterministic generator: both drivers see the same sequence of rows. */
function nextId(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return 1 + (seed % ROWS);
}

// ---- drivers ---------------------------------------------------------------------------------

type Op = () => Promise<unknown>;

/** One pool of a driver: made afresh for every run, warmed up, measured, closed. */
interface Opened {
  select: Op;
  tx: Op;
  close(): Promise<void>;
}

interface Driver {
  name: string;
  open(): Opened;
}

function ledgerValues(id: number, json: (v: unknown) => unknown): unknown[] {
  return [id, 25n, 'EUR', 'capture', `ref_${id}`, new Date(), true, json({ source: 'bench', payment: id, retries: 0 })];
}

/**
 * The server's own pool: openPostgres makes it with its options and installs its per-client
 * wrappers ('connect' handlers); a subclass of pg.Pool, for the time of that call, hands it over.
 */
function serverPool(): { pool: pg.Pool; close(): Promise<void> } {
  let captured: pg.Pool | undefined;
  const OriginalPool = pg.Pool;
  (pg as { Pool: typeof pg.Pool }).Pool = class extends OriginalPool {
    constructor(config?: pg.PoolConfig) {
      super(config);
      captured = this as unknown as pg.Pool;
    }
  } as typeof pg.Pool;
  let opened: ReturnType<typeof openPostgres>;
  try {
    opened = openPostgres(URL_, POOL);
  } finally {
    (pg as { Pool: typeof pg.Pool }).Pool = OriginalPool;
  }
  if (captured === undefined) throw new Error('openPostgres made no pg.Pool');
  return { pool: captured, close: () => opened.close() };
}

function postgresJs(): PgjsPool {
  return postgres(URL_, { max: POOL, types: { bigint: postgres.BigInt }, onnotice: () => {} });
}

const A: Driver = {
  name: 'pg',
  open() {
    const { pool, close } = serverPool();
    return {
      close,
      async select() {
        const client = await pool.connect();
        try {
          return await client.query(SELECT, [nextId()]);
        } finally {
          client.release();
        }
      },
      async tx() {
        const client = await pool.connect();
        const id = nextId();
        try {
          // The way Kysely drives the server's clients: `begin` (held by pipelined(), written with
          // the select), each statement awaited, `commit`.
          await client.query('begin');
          await client.query(LOCK, [id]);
          await client.query(UPDATE, [id, 25n]);
          await client.query(
            INSERT,
            ledgerValues(id, (v) => v),
          );
          await client.query('commit');
        } catch (err) {
          await client.query('rollback').catch(() => {});
          throw err;
        } finally {
          client.release();
        }
      },
    };
  },
};

const B: Driver = {
  name: 'postgres.js',
  open() {
    const sql = postgresJs();
    return {
      close: () => sql.end({ timeout: 5 }),
      select() {
        return sql.unsafe(SELECT, [nextId()], { prepare: true });
      },
      tx() {
        const id = nextId();
        return sql.begin(async (tx) => {
          await tx.unsafe(LOCK, [id], { prepare: true });
          await tx.unsafe(UPDATE, [id, 25n], { prepare: true });
          await tx.unsafe(INSERT, ledgerValues(id, sql.json), { prepare: true });
        });
      },
    };
  },
};

const C: Driver = {
  name: 'postgres.js reserved',
  open() {
    const sql = postgresJs();
    return {
      close: () => sql.end({ timeout: 5 }),
      async select() {
        const r = await sql.reserve();
        try {
          return await r.unsafe(SELECT, [nextId()], { prepare: true });
        } finally {
          r.release();
        }
      },
      async tx() {
        const r = await sql.reserve();
        const id = nextId();
        try {
          const begin = r.unsafe('begin').execute();
          begin.catch(() => {});
          await r.unsafe(LOCK, [id], { prepare: true });
          await begin;
          await r.unsafe(UPDATE, [id, 25n], { prepare: true });
          await r.unsafe(INSERT, ledgerValues(id, sql.json), { prepare: true });
          await r.unsafe('commit');
        } catch (err) {
          await r.unsafe('rollback').catch(() => {});
          throw err;
        } finally {
          r.release();
        }
      },
    };
  },
};

// ---- measurement -----------------------------------------------------------------------------

async function drive(op: Op, count: number): Promise<void> {
  let next = 0;
  const caller = async () => {
    while (next < count) {
      next++;
      await op();
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, caller));
}

interface Sample {
  cpuUs: number;
  opsPerS: number;
}

/**
 * A fresh pool per run: postgres.js's pool gets dearer with every statement it serves while all
 * its connections are busy (see bench/results/drivers.md), so a pool kept across runs would
 * measure its age. DRIVERS_KEEP=1 keeps one pool per driver for the whole process instead.
 */
const KEEP = process.env.DRIVERS_KEEP === '1';
const kept = new Map<Driver, Opened>();

async function measure(d: Driver, w: 'select' | 'tx'): Promise<Sample> {
  const opened = KEEP ? (kept.get(d) ?? kept.set(d, d.open()).get(d)!) : d.open();
  try {
    const op = opened[w];
    await drive(op, WARMUP);
    (globalThis as { gc?: () => void }).gc?.();
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await drive(op, COUNT);
    const wallNs = Number(process.hrtime.bigint() - t0);
    const cpu = process.cpuUsage(cpu0);
    return { cpuUs: (cpu.user + cpu.system) / COUNT, opsPerS: COUNT / (wallNs / 1e9) };
  } finally {
    if (!KEEP) await opened.close();
  }
}

// Check that the drivers read the same row the same way (bigint, Date, parsed jsonb, boolean).
{
  const kinds = (r: Record<string, unknown>) =>
    Object.entries(r)
      .map(([k, v]) => `${k}:${v instanceof Date ? 'Date' : typeof v}`)
      .join(' ');
  const seen: string[] = [];
  for (const d of [A, B]) {
    const opened = d.open();
    const answer = (await opened.select()) as pg.QueryResult | Record<string, unknown>[];
    const row = Array.isArray(answer) ? answer[0] : (answer.rows[0] as Record<string, unknown> | undefined);
    if (row === undefined) throw new Error(`${d.name} read no row`);
    seen.push(kinds(row));
    await opened.close();
  }
  if (seen[0] !== seen[1]) throw new Error(`the drivers read rows differently:\n pg ${seen[0]}\n js ${seen[1]}`);
  console.log(`row: ${seen[0]}`);
}

const only = process.env.DRIVERS_ONLY?.split(',');
const drivers = [A, B, C].filter((d) => only === undefined || only.includes(d.name));
const workloads = (['select', 'tx'] as const).filter(
  (w) => process.env.DRIVERS_WORKLOADS === undefined || process.env.DRIVERS_WORKLOADS.split(',').includes(w),
);
const results: Record<string, Record<string, Sample[]>> = {};
/** The samples of one workload and driver, in round order. */
function samples(w: string, name: string): Sample[] {
  const byDriver = (results[w] ??= {});
  return (byDriver[name] ??= []);
}

const load0 = loadavg();
console.log(`node ${process.version}, ${cpus().length} cpus, postgres.js ${pgjsVersion} (${loaded.where}), pg ${pgVersion}`);
console.log(
  `load before: ${load0.map((l) => l.toFixed(2)).join(' ')}; ${COUNT} ops per run after ${WARMUP}, ${CALLERS} callers, ${POOL} connections, ${KEEP ? 'one pool per driver' : 'a fresh pool per run'}`,
);
try {
  // Round 0 is not counted: it only brings every driver's code to the same JIT state.
  for (let round = 0; round <= ROUNDS; round++) {
    for (const w of workloads) {
      // Same starting state for every run of a round: the ledger emptied, the same ids.
      for (const d of drivers) {
        await admin.query(`truncate ${LEDGER}`);
        seed = 42 + round;
        const s = await measure(d, w);
        if (round === 0) continue;
        samples(w, d.name).push(s);
        console.log(
          `round ${round} ${w.padEnd(6)} ${d.name.padEnd(21)} ${s.cpuUs.toFixed(1).padStart(7)} µs CPU/op ${s.opsPerS.toFixed(0).padStart(6)} ops/s, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`,
        );
      }
    }
  }
} finally {
  const load1 = loadavg();
  console.log(`load after: ${load1.map((l) => l.toFixed(2)).join(' ')}`);
  for (const opened of kept.values()) await opened.close();
  await dropTables();
  await admin.end();
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

console.log('\nworkload | driver | CPU µs/op median (range) | ops/s median (range) | pg ÷ driver per round');
for (const w of workloads) {
  const base = only === undefined || only.includes(A.name) ? samples(w, A.name) : [];
  for (const d of drivers) {
    const xs = samples(w, d.name);
    const cpu = xs.map((x) => x.cpuUs);
    const ops = xs.map((x) => x.opsPerS);
    const ratios = d === A || base.length === 0 ? '' : xs.map((x, i) => (base[i]!.cpuUs / x.cpuUs).toFixed(2)).join(' ');
    console.log(
      `${w} | ${d.name} | ${median(cpu).toFixed(1)} (${Math.min(...cpu).toFixed(1)}–${Math.max(...cpu).toFixed(1)}) | ${median(ops).toFixed(0)} (${Math.min(...ops).toFixed(0)}–${Math.max(...ops).toFixed(0)}) | ${ratios}`,
    );
  }
}
console.log(`\nJSON ${JSON.stringify(results)}`);
