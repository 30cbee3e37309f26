import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/platform/database.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir, openPglite, openPostgres } from '../src/platform/db.ts';
import { migrate, readMigrations } from '../src/platform/migrations.ts';
import { analyzeGrownTables } from '../src/platform/analyze.ts';
import { onPostgres, openTestDb, seedDataDir, TEST_DATABASE_URL } from './harness.ts';

const CLI = join(import.meta.dirname, '..', 'bin', 'caisse.js');

function run(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('database', () => {
  let db: Awaited<ReturnType<typeof openTestDb>>;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(() => db.close());

  // PGlite only: one connection (a prepared statement lives on its connection) and no autovacuum.
  it.skipIf(onPostgres)('analyses a table again once it doubled since its statistics, so cached plans are made again', async () => {
    await sql`create table analyze_probe (id int primary key, v text)`.execute(db.db);
    const plan = async () => {
      const res = await sql<{ 'QUERY PLAN': string }>`explain execute analyze_probe_by_id(7)`.execute(db.db);
      return res.rows.map((r) => r['QUERY PLAN']).join(' ');
    };
    try {
      // Small: a sequential scan is as good as an index, nothing to do.
      await sql`insert into analyze_probe select g, 'x' from generate_series(1, 10) g`.execute(db.db);
      expect(await analyzeGrownTables(db.db)).not.toContain('analyze_probe');
      // Statistics of a young table (as a VACUUM ANALYZE of a new database leaves them), then a
      // prepared statement's generic plan, made after five runs: a sequential scan.
      await sql`analyze analyze_probe`.execute(db.db);
      await sql`prepare analyze_probe_by_id(int) as select v from analyze_probe where id = $1`.execute(db.db);
      for (let i = 0; i < 6; i++) await sql`execute analyze_probe_by_id(7)`.execute(db.db);
      await sql`insert into analyze_probe select g, repeat('x', 100) from generate_series(11, 5000) g`.execute(db.db);
      expect(await plan()).toMatch(/Seq Scan/);
      expect(await analyzeGrownTables(db.db)).toContain('analyze_probe');
      expect(await plan()).toMatch(/Index Scan/);
      const stats = await sql<{ reltuples: number }>`select reltuples from pg_class where relname = 'analyze_probe'`.execute(db.db);
      expect(Number(stats.rows[0]?.reltuples)).toBeGreaterThan(4000);
      // Analysed: nothing again until it doubles.
      expect(await analyzeGrownTables(db.db)).not.toContain('analyze_probe');
      await sql`insert into analyze_probe select g, repeat('x', 100) from generate_series(5001, 12000) g`.execute(db.db);
      expect(await analyzeGrownTables(db.db)).toContain('analyze_probe');
    } finally {
      await sql`deallocate all`.execute(db.db);
      await sql`drop table analyze_probe`.execute(db.db);
    }
  });

  it('returns 64-bit integers exactly, as bigint', async () => {
    const big = 9_007_199_254_740_993n; // 2^53 + 1: not representable as a JS number
    const res = await sql<{ v: bigint }>`select ${big.toString()}::bigint as v`.execute(db.db);
    expect(res.rows[0]?.v).toBe(big);
    const max = await sql<{ v: bigint }>`select 9223372036854775807::bigint as v`.execute(db.db);
    expect(max.rows[0]?.v).toBe(9_223_372_036_854_775_807n);
  });

  it('applies each migration once, even when several migrators race', async () => {
    const again = await Promise.all([migrate(db.db), migrate(db.db), migrate(db.db)]);
    expect(again.flat()).toEqual([]);
    const rows = await sql<{ name: string }>`select name from schema_migrations order by name`.execute(db.db);
    expect(rows.rows.map((r) => r.name)).toEqual(readMigrations().map((m) => m.name));
  });
});

describe.runIf(onPostgres)('migrations on PostgreSQL', () => {
  it('concurrent starts against one fresh database apply the migrations once', async () => {
    const fresh = await openTestDb();
    // openTestDb migrated it already: drop everything and race three separate pools.
    await sql`drop schema public cascade; create schema public`.execute(fresh.db);
    const pools = [0, 1, 2].map(() => openPostgres(fresh.url as string, 2));
    try {
      const results = await Promise.all(pools.map((p) => migrate(p.db)));
      expect(results.flat().sort()).toEqual(readMigrations().map((m) => m.name));
    } finally {
      await Promise.all(pools.map((p) => p.close()));
      await fresh.close();
    }
  });

  it('holds no session-level lock, so a pooler in transaction mode (PgBouncer) may sit in between', async () => {
    const fresh = await openTestDb();
    await sql`drop schema public cascade; create schema public`.execute(fresh.db);
    const statements: string[] = [];
    const logged = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: fresh.url as string, max: 2 }) }), log: (e) => void statements.push(e.query.sql) });
    try {
      expect((await migrate(logged)).length).toBe(readMigrations().length);
      expect(statements.some((s) => s.includes('pg_advisory_xact_lock'))).toBe(true);
      expect(statements.filter((s) => /pg_advisory_(lock|unlock)\b/.test(s))).toEqual([]);
    } finally {
      await logged.destroy();
      await fresh.close();
    }
  });

  it('LISTENs over DATABASE_LISTEN_URL when one is given, NOTIFYs over the pool', async () => {
    const fresh = await openTestDb();
    const url = new URL(fresh.url as string);
    const elsewhere = new URL(url);
    elsewhere.pathname = '/caisse_no_such_database';
    const wrong = openPostgres(url.toString(), 1, { listenUrl: elsewhere.toString() });
    const right = openPostgres(url.toString(), 1, { listenUrl: url.toString() });
    try {
      await expect(wrong.listen!('caisse_probe', () => {}, () => {})).rejects.toThrow(/caisse_no_such_database/);
      const heard = new Promise<string>((resolve) => void right.listen!('caisse_probe', resolve, () => {}).then(() => right.notify!('caisse_probe', 'hello')));
      expect(await heard).toBe('hello');
    } finally {
      await Promise.all([wrong.close(), right.close(), fresh.close()]);
    }
  });
});

describe('embedded data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'caisse-lock-'));
  // A migrated data directory: what is checked here is its lock, not a first start.
  beforeAll(() => seedDataDir(dir));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a second opener in this process is refused, naming the holder', async () => {
    const first = await openPglite(dir);
    try {
      await expect(openPglite(dir)).rejects.toThrow(DataDirLockedError);
      await expect(openPglite(dir)).rejects.toThrow(`process ${process.pid}`);
    } finally {
      await first.close();
    }
    // Released on close: it opens again.
    const again = await openPglite(dir);
    await again.close();
  });

  it("runs the engine in a thread of its own: this thread's event loop turns while a statement runs", async () => {
    // One count of a million rows: the engine works for a while without answering.
    const busy = (opened: Awaited<ReturnType<typeof openPglite>>) => async () => {
      let turns = 0;
      let done = false;
      const spin = () => {
        if (done) return;
        turns++;
        setImmediate(spin);
      };
      setImmediate(spin);
      await sql`select count(*) from generate_series(1, 1000000)`.execute(opened.db);
      done = true;
      return turns;
    };
    const threaded = await openPglite(dir, { thread: true });
    const inThread = await busy(threaded)().finally(() => threaded.close());
    const same = await openPglite(dir);
    const onThisThread = await busy(same)().finally(() => same.close());
    expect(inThread).toBeGreaterThan(100);
    expect(onThisThread).toBeLessThan(inThread / 10);
  });

  // Both engines hand the engine a statement's Parse, Bind, Describe and Execute in one call with its Sync.
  it.each([
    ['the threaded engine', true],
    ['the engine on this thread', false],
  ])('%s answers errors, transactions, prepared statements and large rows as PGlite does', async (_name, thread) => {
    const opened = await openPglite(dir, { thread });
    try {
      await sql`create table thread_probe (id int primary key, v text)`.execute(opened.db);
      await sql`insert into thread_probe values (${1}, ${'a'})`.execute(opened.db);
      await expect(sql`insert into thread_probe values (${1}, ${'b'})`.execute(opened.db)).rejects.toMatchObject({ code: '23505' });
      // An error in Bind (a parameter the type refuses), in the middle of a held batch: the next statement runs.
      await expect(sql`select v from thread_probe where id = ${'not a number'}`.execute(opened.db)).rejects.toMatchObject({ code: '22P02' });
      expect((await sql<{ v: string }>`select v from thread_probe where id = ${1}`.execute(opened.db)).rows).toEqual([{ v: 'a' }]);
      await expect(
        opened.db.transaction().execute(async (tx) => {
          await sql`insert into thread_probe values (${2}, ${'c'})`.execute(tx);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      // The same text many times: a named prepared statement after the first.
      for (let i = 0; i < 20; i++) {
        const r = await sql<{ v: string }>`select v from thread_probe where id = ${1}`.execute(opened.db);
        expect(r.rows).toEqual([{ v: 'a' }]);
      }
      const big = await sql<{ v: string }>`select repeat('x', 200000) as v from generate_series(1, 20)`.execute(opened.db);
      expect(big.rows).toHaveLength(20);
      expect(big.rows[19]?.v).toHaveLength(200_000);
      const count = await sql<{ n: number }>`select count(*)::int as n from thread_probe`.execute(opened.db);
      expect(count.rows[0]?.n).toBe(1);
      await sql`drop table thread_probe`.execute(opened.db);
    } finally {
      await opened.close();
    }
  });

  it('runs with 16 MB of shared buffers (WASM memory never shrinks: the default 128 MB cost ~150 MB of RSS)', async () => {
    const opened = await openPglite(dir);
    try {
      const res = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(opened.db);
      expect(res.rows[0]?.shared_buffers).toBe('16MB');
    } finally {
      await opened.close();
    }
  });

  it('a lock left by a dead process is taken over', () => {
    const stale = mkdtempSync(join(tmpdir(), 'caisse-stale-'));
    const release = lockDataDir(stale);
    const file = join(stale, 'caisse.lock');
    const content = JSON.parse(readFileSync(file, 'utf8'));
    expect(content.pid).toBe(process.pid);
    release();
    // A pid that cannot be alive.
    writeFileSync(file, JSON.stringify({ ...content, pid: 2 ** 22 + 7 }));
    const again = lockDataDir(stale);
    again();
    rmSync(stale, { recursive: true, force: true });
  });

  it('a second caisse process on the same directory exits, naming the process that holds it', async () => {
    const first = await openPglite(dir);
    try {
      const res = await run(['migrate'], { CAISSE_DATA_DIR: dir, DATABASE_URL: '' });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`already open by process ${process.pid}`);
    } finally {
      await first.close();
    }
  });

  it('caisse merchants create --json prints the merchant, its test keys and its dashboard login', async () => {
    const pgDb = TEST_DATABASE_URL ? await openTestDb() : undefined;
    const env: Record<string, string> = pgDb ? { DATABASE_URL: pgDb.url as string } : { CAISSE_DATA_DIR: dir, DATABASE_URL: '' };
    const res = await run(['merchants', 'create', '--name', 'Boutique Douala', '--json'], env);
    await pgDb?.close();
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.merchantId).toMatch(/^mch_/);
    expect(out.test.apiKey).toMatch(/^pk_test_[0-9A-Za-z]{32,}$/);
    expect(out.test.secretKey).toMatch(/^sk_test_[0-9A-Za-z]{32,}$/);
    expect(out.dashboard).toEqual({ email: expect.stringContaining('@'), password: expect.any(String) });
  });
});

describe('configuration', () => {
  it('names the bad variable', async () => {
    const res = await run(['migrate'], { PORT: 'eighty', CAISSE_DATA_DIR: join(tmpdir(), 'caisse-cfg') });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('PORT');
  });
});
