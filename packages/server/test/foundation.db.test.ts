import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/platform/database.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, DEFERRED, emptyClusterImage, lockDataDir, openPglite, openPostgres, seedEmptyCluster } from '../src/platform/db.ts';
import { migrate, readMigrations } from '../src/platform/migrations.ts';
import { allAhead, prepare } from '../src/platform/prepared.ts';
import { analyzeGrownTables } from '../src/platform/analyze.ts';
import { countSocketWrites, onPostgres, openTestDb, seedDataDir } from './harness.ts';

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

  it("runs a statement compiled once with each call's parameters, constants kept in place", async () => {
    const insert = prepare((k, p: { merchantId: string; key: string; fingerprint: Buffer; at: Date }) =>
      k
        .insertInto('idempotency_keys')
        .values({
          merchant_id: p.merchantId,
          mode: 'test',
          key: p.key,
          fingerprint: p.fingerprint,
          state: 'running',
          request_id: 'req_prepared',
          locked_at: p.at,
          created_at: p.at,
        })
        .returning(['key', 'mode']),
    );
    const byKey = prepare((k, p: { key: string; merchantId: string }) =>
      k
        .selectFrom('idempotency_keys')
        .select(['key', 'fingerprint', 'request_id'])
        .where('merchant_id', '=', p.merchantId)
        .where('key', '=', p.key)
        .where('mode', '=', 'test'),
    );
    const sqlBefore = byKey.sql;
    const at = new Date('2026-11-25T10:00:00Z');
    await sql`insert into merchants (id, name, created_at) values ('mch_prepared', 'Prepared', now())`.execute(db.db);
    expect(await insert.rows(db.db, { merchantId: 'mch_prepared', key: 'k1', fingerprint: Buffer.from([1]), at })).toEqual([{ key: 'k1', mode: 'test' }]);
    expect(await insert.first(db.db, { merchantId: 'mch_prepared', key: 'k2', fingerprint: Buffer.from([2]), at })).toEqual({ key: 'k2', mode: 'test' });
    // Parameters bind by name, whatever their order in the statement.
    expect(await byKey.first(db.db, { key: 'k2', merchantId: 'mch_prepared' })).toEqual({
      key: 'k2',
      fingerprint: Buffer.from([2]),
      request_id: 'req_prepared',
    });
    expect(await byKey.first(db.db, { key: 'k1', merchantId: 'mch_other' })).toBeUndefined();
    expect(byKey.sql).toBe(sqlBefore);
    // Inside a transaction, like any query; `affected` counts the rows touched.
    const remove = prepare((k, p: { merchantId: string }) => k.deleteFrom('idempotency_keys').where('merchant_id', '=', p.merchantId));
    await expect(db.db.transaction().execute((tx) => remove.affected(tx, { merchantId: 'mch_prepared' }))).resolves.toBe(2n);
  });

  it('sends reads ahead: each answers its own rows, in order, in a transaction or not', async () => {
    const value = prepare((k, p: { x: number }) => k.selectNoFrom(sql<number>`${p.x}::int`.as('x')));
    const failing = prepare((k, p: { x: number }) => k.selectNoFrom(sql<number>`(${p.x}::int / 0)`.as('x')));
    // Outside a transaction it runs at once.
    expect(await value.ahead(db.db, { x: 1 })).toEqual([{ x: 1 }]);
    const answers = await db.db.transaction().execute(async (tx) => {
      const a = value.ahead(tx, { x: 2 });
      const b = value.ahead(tx, { x: 3 });
      const c = await value.first(tx, { x: 4 });
      return [await a, await b, c];
    });
    expect(answers).toEqual([[{ x: 2 }], [{ x: 3 }], { x: 4 }]);
    // Awaited with nothing after them: sent anyway.
    expect(await db.db.transaction().execute((tx) => Promise.all([value.ahead(tx, { x: 5 }), value.ahead(tx, { x: 6 })]))).toEqual([[{ x: 5 }], [{ x: 6 }]]);
    // A read that fails fails its own answer and the transaction.
    await expect(
      db.db.transaction().execute(async (tx) => {
        const bad = failing.ahead(tx, { x: 1 });
        await value.first(tx, { x: 7 }).catch(() => {});
        return bad;
      }),
    ).rejects.toThrow(/division by zero/);
    // One that reaches the connection after its transaction ended (the transaction failed without
    // awaiting it) is refused, never run on its own.
    await sql`create table if not exists ahead_late (x int)`.execute(db.db);
    const insert = prepare((k, p: { x: number }) =>
      k
        .insertInto('ahead_late' as never)
        .values({ x: p.x } as never)
        .returning(sql<number>`x`.as('x')),
    );
    const late: Promise<unknown>[] = [];
    await expect(
      db.db.transaction().execute(async (tx) => {
        late.push(insert.ahead(tx, { x: 1 }), insert.ahead(tx, { x: 2 }));
        throw new Error('before the reads were awaited');
      }),
    ).rejects.toThrow('before the reads were awaited');
    await Promise.allSettled(late);
    expect((await sql<{ n: number }>`select count(*)::int as n from ahead_late`.execute(db.db)).rows[0]?.n).toBe(0);
    // allAhead waits for every read to settle before it rejects: all of them ran in the transaction.
    await expect(
      db.db.transaction().execute(async (tx) => {
        await allAhead([failing.ahead(tx, { x: 1 }), insert.ahead(tx, { x: 3 })]);
      }),
    ).rejects.toThrow(/division by zero/);
    expect((await sql<{ n: number }>`select count(*)::int as n from ahead_late`.execute(db.db)).rows[0]?.n).toBe(0);
    await sql`drop table ahead_late`.execute(db.db);
  });

  it('returns 64-bit integers exactly, as bigint', async () => {
    const big = 9_007_199_254_740_993n; // 2^53 + 1: not representable as a JS number
    const res = await sql<{ v: bigint }>`select ${big.toString()}::bigint as v`.execute(db.db);
    expect(res.rows[0]?.v).toBe(big);
    const max = await sql<{ v: bigint }>`select 9223372036854775807::bigint as v`.execute(db.db);
    expect(max.rows[0]?.v).toBe(9_223_372_036_854_775_807n);
  });

  it("parses a named statement's every answer by its own columns, a changed table's included", async () => {
    // Run after run the statement reuses its row parsers: each answer must still be typed.
    const read = (id: string) =>
      sql<{
        id: string;
        n: bigint;
        at: Date;
        doc: { k: number };
        ok: boolean;
      }>`select ${id}::text as id, 7::bigint as n, now() as at, '{"k": 1}'::jsonb as doc, true as ok`.execute(db.db);
    for (const id of ['a', 'b', 'c']) {
      const row = (await read(id)).rows[0];
      expect(row).toEqual({ id, n: 7n, at: expect.any(Date), doc: { k: 1 }, ok: true });
    }
    // `select *` of a table that gained a column: the same text answers with other columns.
    await sql`create table shape_probe (id text primary key, n bigint)`.execute(db.db);
    await sql`insert into shape_probe values ('x', 1)`.execute(db.db);
    const all = () => sql<Record<string, unknown>>`select * from shape_probe where id = ${'x'}`.execute(db.db);
    expect((await all()).rows).toEqual([{ id: 'x', n: 1n }]);
    expect((await all()).rows).toEqual([{ id: 'x', n: 1n }]);
    await sql`alter table shape_probe add column at timestamptz not null default now()`.execute(db.db);
    // PostgreSQL refuses the old plan once ("cached plan must not change result type"); the
    // statement is then prepared afresh and its rows carry the new column, parsed.
    await all().catch(() => undefined);
    expect((await all()).rows).toEqual([{ id: 'x', n: 1n, at: expect.any(Date) }]);
    if (db.url) {
      // A connection opened since prepares the text under its first name, which answered with
      // two columns on the connections before: its three are parsed as three.
      const fresh = openPostgres(db.url, 1);
      try {
        const rows = await sql<Record<string, unknown>>`select * from shape_probe where id = ${'x'}`.execute(fresh.db);
        expect(rows.rows).toEqual([{ id: 'x', n: 1n, at: expect.any(Date) }]);
      } finally {
        await fresh.close();
      }
    }
    await sql`drop table shape_probe`.execute(db.db);
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
    const logged = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: fresh.url as string, max: 2 }) }),
      log: (e) => void statements.push(e.query.sql),
    });
    try {
      expect((await migrate(logged)).length).toBe(readMigrations().length);
      expect(statements.some((s) => s.includes('pg_advisory_xact_lock'))).toBe(true);
      expect(statements.filter((s) => /pg_advisory_(lock|unlock)\b/.test(s))).toEqual([]);
    } finally {
      await logged.destroy();
      await fresh.close();
    }
  });

  it("writes a transaction's BEGIN with its first statement, and a deferred write with the next one", async () => {
    const fresh = await openTestDb();
    const opened = openPostgres(fresh.url as string, 1);
    const counted = (run: () => Promise<unknown>) => countSocketWrites(() => run().catch(() => {}));
    try {
      await sql`create table pipelined (x int)`.execute(opened.db);
      const two = () =>
        opened.db.transaction().execute(async (tx) => {
          await sql`insert into pipelined values (1)`.execute(tx);
          await sql`select 2`.execute(tx);
        });
      // BEGIN + insert, select, COMMIT.
      expect(await counted(two)).toBe(3);
      // A transaction that ends before any statement sends nothing.
      expect(await counted(() => opened.db.transaction().execute(async () => {}))).toBe(0);
      // The insert ran inside the transaction: the failure after it rolls it back.
      const failing = () =>
        opened.db.transaction().execute(async (tx) => {
          await sql`insert into pipelined values (2)`.execute(tx);
          throw new Error('after the insert');
        });
      await expect(failing()).rejects.toThrow('after the insert');
      // A first statement that fails fails the transaction; the connection stays usable.
      await expect(opened.db.transaction().execute((tx) => sql`select * from no_such_table`.execute(tx))).rejects.toThrow(/no_such_table/);
      const rows = await sql<{ x: number }>`select x from pipelined order by x`.execute(opened.db);
      expect(rows.rows.map((r) => r.x)).toEqual([1]);

      // A deferred write rides with the next statement: BEGIN + insert, deferred + select, COMMIT.
      const deferred = (x: number) => sql`${sql.raw(DEFERRED)}insert into pipelined values (${x})`;
      const withDeferred = () =>
        opened.db.transaction().execute(async (tx) => {
          await sql`insert into pipelined values (3)`.execute(tx);
          await deferred(4).execute(tx);
          await sql`select 5`.execute(tx);
        });
      expect(await counted(withDeferred)).toBe(3);
      // One that fails fails the statement it rode with, and the transaction.
      const refusing = sql`${sql.raw(DEFERRED)}select caisse_fail('deferred write refused')`;
      await expect(
        opened.db.transaction().execute(async (tx) => {
          await sql`insert into pipelined values (6)`.execute(tx);
          await refusing.execute(tx);
          await sql`select 7`.execute(tx);
        }),
      ).rejects.toThrow('deferred write refused');
      // Sent with the COMMIT: the COMMIT fails, nothing of the transaction stays.
      await expect(
        opened.db.transaction().execute(async (tx) => {
          await sql`insert into pipelined values (8)`.execute(tx);
          await deferred(9).execute(tx);
          await refusing.execute(tx);
        }),
      ).rejects.toThrow('deferred write refused');
      // A COMMIT that PostgreSQL answers with ROLLBACK (an error was caught and ignored) fails.
      await expect(
        opened.db.transaction().execute(async (tx) => {
          await sql`insert into pipelined values (10)`.execute(tx);
          await sql`select * from no_such_table`.execute(tx).catch(() => {});
        }),
      ).rejects.toThrow(/rolled it back/);
      // Reads sent ahead share the round trip of what follows them, or one of their own.
      const value = prepare((k, p: { x: number }) => k.selectNoFrom(sql<number>`${p.x}::int`.as('x')));
      const reads = () =>
        opened.db.transaction().execute(async (tx) => {
          const a = value.ahead(tx, { x: 1 });
          const b = value.ahead(tx, { x: 2 });
          await sql`select 3`.execute(tx);
          expect([await a, await b]).toEqual([[{ x: 1 }], [{ x: 2 }]]);
          await Promise.all([value.ahead(tx, { x: 4 }), value.ahead(tx, { x: 5 })]);
        });
      // BEGIN + a + b + select, then the two reads awaited alone, then COMMIT.
      expect(await counted(reads)).toBe(3);
      // A failing read ahead fails the statement it rode with; nothing of the transaction stays.
      await expect(
        opened.db.transaction().execute(async (tx) => {
          await sql`insert into pipelined values (12)`.execute(tx);
          void value.ahead(tx, { x: 'not a number' as unknown as number });
          await sql`insert into pipelined values (13)`.execute(tx);
        }),
      ).rejects.toThrow(/invalid input syntax/);
      // Outside a transaction it runs at once.
      await deferred(11).execute(opened.db);
      const after = await sql<{ x: number }>`select x from pipelined order by x`.execute(opened.db);
      expect(after.rows.map((r) => r.x)).toEqual([1, 3, 4, 11]);
    } finally {
      await opened.close();
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
      await expect(
        wrong.listen!(
          'caisse_probe',
          () => {},
          () => {},
        ),
      ).rejects.toThrow(/caisse_no_such_database/);
      const heard = new Promise<string>((resolve) => void right.listen!('caisse_probe', resolve, () => {}).then(() => right.notify!('caisse_probe', 'hello')));
      expect(await heard).toBe('hello');
    } finally {
      await Promise.all([wrong.close(), right.close(), fresh.close()]);
    }
  });
});

describe('a first start on a new data directory', () => {
  const root = mkdtempSync(join(tmpdir(), 'caisse-first-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const pgliteVersion = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', '..', 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'),
  ).version;

  /** An image as the build leaves it: VERSION and pgdata/ (here a stand-in, not a cluster). */
  function fakeImage(name: string, version: string): string {
    const image = join(root, name);
    mkdirSync(join(image, 'pgdata', 'base'), { recursive: true });
    writeFileSync(join(image, 'pgdata', 'PG_VERSION'), '17\n');
    writeFileSync(join(image, 'VERSION'), version);
    return image;
  }

  it('copies the empty cluster of the installed PGlite, and nothing over a pgdata already there', () => {
    const image = fakeImage('image', pgliteVersion);
    expect(emptyClusterImage(image)).toBe(image);
    const dataDir = join(root, 'data');
    // What a copy cut short by a crash left: taken away, copied again.
    mkdirSync(join(dataDir, 'pgdata.partial'), { recursive: true });
    writeFileSync(join(dataDir, 'pgdata.partial', 'half'), '');
    expect(seedEmptyCluster(dataDir, image)).toBe(true);
    expect(readdirSync(dataDir)).toEqual(['pgdata']);
    expect(readFileSync(join(dataDir, 'pgdata', 'PG_VERSION'), 'utf8')).toBe('17\n');
    writeFileSync(join(dataDir, 'pgdata', 'PG_VERSION'), '17 (in use)\n');
    expect(seedEmptyCluster(dataDir, image)).toBe(false);
    expect(readFileSync(join(dataDir, 'pgdata', 'PG_VERSION'), 'utf8')).toBe('17 (in use)\n');
  });

  it("leaves an image of another PGlite version alone (PGlite's initdb instead)", () => {
    const image = fakeImage('old-image', '0.0.1');
    expect(emptyClusterImage(image)).toBeUndefined();
    expect(emptyClusterImage(join(root, 'no-image'))).toBeUndefined();
    expect(seedEmptyCluster(join(root, 'data-2'), emptyClusterImage(image))).toBe(false);
  });

  it("opens, migrates and writes on a data directory made from the build's cluster", async () => {
    // The server's build made it before the tests (scripts/builds.mjs).
    const image = emptyClusterImage() as string;
    expect(image).toBeDefined();
    const dataDir = join(root, 'real');
    const opened = await openPglite(dataDir);
    try {
      expect(readdirSync(dataDir).sort()).toEqual(['caisse.lock', 'pgdata']);
      // pg_control begins with the cluster's system identifier, which initdb draws anew: the image's.
      const systemId = (pgdata: string) =>
        readFileSync(join(pgdata, 'global', 'pg_control'))
          .subarray(0, 8)
          .toString('hex');
      expect(systemId(join(dataDir, 'pgdata'))).toBe(systemId(join(image, 'pgdata')));
      await migrate(opened.db);
      const merchants = await sql<{ n: bigint }>`select count(*) as n from merchants`.execute(opened.db);
      expect(Number(merchants.rows[0]?.n)).toBe(0);
    } finally {
      await opened.close();
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
});
