/**
 * Reads beyond one database (issue 60, decision 0091): where the read router sends a dashboard
 * read (replica or primary) as the replica keeps up, lags, stops answering or stops being a
 * standby, and after the merchant's own writes; then, through the HTTP app, that the dashboard's
 * heavy reads reach the replica, the API's and money's never do, a dashboard write is read back
 * at once, and a replica that fails mid-read costs the person nothing. The clock is injected and
 * the replica's positions are the test's: no sleep, no second server.
 */
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, SECOND } from '../src/platform/clock.ts';
import { createReadRouter, type Db, type ReadRouter, type ReplicaProbe } from '../src/platform/db.ts';
import type { Database } from '../src/platform/database.ts';
import { createIntent } from './flow.support.ts';
import { call, createMerchant, sk, type TestContext, type TestMerchant, createTestContext } from './harness.ts';

/** The replica's answers, set by each test: the primary's WAL position, and what the replica replayed (or its failure). */
class FakeServers implements ReplicaProbe {
  primary = 100n;
  replayed: bigint | null = 100n;
  inRecovery = true;
  replicaError: Error | undefined;
  async primaryLsn() {
    return this.primary;
  }
  async replica() {
    if (this.replicaError) throw this.replicaError;
    return { inRecovery: this.inRecovery, replayLsn: this.replayed };
  }
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' });

/** A stand-in for the replica's pool: its queries counted, answered by `db` (the same rows), or failing as a stopped server. */
function countingReplica(db: Db) {
  const replica = { queries: 0, failing: false };
  class Counting implements Driver {
    async init() {}
    async acquireConnection(): Promise<DatabaseConnection> {
      return {
        executeQuery: async <R>(q: CompiledQuery) => {
          replica.queries += 1;
          if (replica.failing) throw refused();
          return (await db.executeQuery(q)) as QueryResult<R>;
        },
        streamQuery: () => {
          throw new Error('not streamed');
        },
      };
    }
    async beginTransaction() {}
    async commitTransaction() {}
    async rollbackTransaction() {}
    async releaseConnection() {}
    async destroy() {}
  }
  const kysely = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new Counting(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  return Object.assign(replica, { db: kysely });
}

function logCollector() {
  const lines: { level: 'info' | 'warn'; msg: string; obj: object }[] = [];
  return {
    lines,
    info: (obj: object, msg: string) => lines.push({ level: 'info', msg, obj }),
    warn: (obj: object, msg: string) => lines.push({ level: 'warn', msg, obj }),
  };
}

describe('the read router', () => {
  const primary = { primary: true } as unknown as Db;
  const replicaDb = { replica: true } as unknown as Db;
  let clock: ManualClock;
  let servers: FakeServers;
  let log: ReturnType<typeof logCollector>;
  let router: ReadRouter;
  const onReplica = (merchantId = 'mch_a') => router.executorFor(merchantId) !== primary;

  beforeEach(() => {
    clock = new ManualClock();
    servers = new FakeServers();
    log = logCollector();
    router = createReadRouter({ primary, replica: replicaDb, clock, maxLagMs: 5 * SECOND, probe: servers, log });
  });

  it('reads from the primary until a probe has seen the replica', async () => {
    expect(onReplica()).toBe(false);
    expect(router.status()).toMatchObject({ state: 'starting', reads: { starting: 1, replica: 0 } });
    await router.probe();
    expect(onReplica()).toBe(true);
    expect(router.status()).toMatchObject({ state: 'up', lagMs: 0, reads: { replica: 1 } });
    expect(log.lines.at(-1)).toMatchObject({ level: 'info', msg: expect.stringContaining('read replica in use again') });
  });

  it('sends reads to the primary once the replica is further behind than the bound, and back when it catches up', async () => {
    await router.probe();
    // The primary writes on; the replica stays where it was.
    for (let i = 1; i <= 6; i++) {
      clock.advance(SECOND);
      servers.primary += 10n;
      await router.probe();
    }
    expect(router.status().lagMs).toBe(6 * SECOND);
    expect(router.status().state).toBe('lagging');
    expect(onReplica()).toBe(false);
    expect(router.status().reads.lagging).toBe(1);
    expect(log.lines.at(-1)).toMatchObject({ level: 'warn', msg: 'read replica lagging: dashboard reads go to the primary', obj: { lagMs: 6000 } });
    // It replays what the primary had 2 s ago: 2 s behind, within the bound.
    servers.replayed = 140n;
    await router.probe();
    expect(router.status()).toMatchObject({ state: 'up', lagMs: 2 * SECOND });
    expect(onReplica()).toBe(true);
  });

  it('counts a replica whose probe stops answering as lagging between probes, without waiting for one', async () => {
    await router.probe();
    clock.advance(5 * SECOND);
    expect(onReplica()).toBe(true);
    clock.advance(1);
    expect(onReplica()).toBe(false);
    expect(router.status().reads.lagging).toBe(1);
  });

  it("reads a merchant's own dashboard write from the primary until the replica has replayed it", async () => {
    await router.probe();
    clock.advance(100);
    router.wrote('mch_a');
    expect(onReplica('mch_a')).toBe(false);
    expect(onReplica('mch_b')).toBe(true);
    expect(router.status().reads.wrote).toBe(1);
    // The write made the primary's position 150; a probe that finds the replica short of it changes nothing.
    clock.advance(400);
    servers.primary = 150n;
    servers.replayed = 120n;
    await router.probe();
    expect(onReplica('mch_a')).toBe(false);
    // Replayed: the merchant reads from the replica again.
    clock.advance(500);
    servers.replayed = 150n;
    await router.probe();
    expect(onReplica('mch_a')).toBe(true);
  });

  it('never counts a probe taken in the same instant as the write as having it', async () => {
    await router.probe();
    router.wrote('mch_a');
    await router.probe();
    expect(onReplica('mch_a')).toBe(false);
    clock.advance(1);
    await router.probe();
    expect(onReplica('mch_a')).toBe(true);
  });

  it('falls back to the primary while the replica does not answer, with a warning, and uses it again when it does', async () => {
    await router.probe();
    servers.replicaError = refused();
    clock.advance(SECOND);
    await router.probe();
    expect(router.status().state).toBe('down');
    expect(onReplica()).toBe(false);
    expect(router.status().reads.down).toBe(1);
    expect(log.lines.at(-1)).toMatchObject({
      level: 'warn',
      msg: 'read replica down: dashboard reads go to the primary',
      obj: { err: expect.stringContaining('ECONNREFUSED') },
    });
    servers.replicaError = undefined;
    clock.advance(SECOND);
    await router.probe();
    expect(onReplica()).toBe(true);
  });

  it('never reads from a server that is not a standby (promoted, or DATABASE_READ_URL naming a primary)', async () => {
    servers.inRecovery = false;
    servers.replayed = null;
    await router.probe();
    expect(router.status().state).toBe('not_replica');
    expect(onReplica()).toBe(false);
  });

  it('keeps the state it had when the primary does not answer its probe, until the lag passes the bound', async () => {
    await router.probe();
    const down = new FakeServers();
    down.primaryLsn = async () => {
      throw refused();
    };
    const noPrimary = createReadRouter({ primary, replica: replicaDb, clock, maxLagMs: 5 * SECOND, probe: down });
    await noPrimary.probe();
    expect(noPrimary.status().state).toBe('starting');
  });
});

describe('dashboard reads through the HTTP app', () => {
  let ctx: TestContext;
  let replica: ReturnType<typeof countingReplica>;
  let servers: FakeServers;
  let router: ReadRouter;
  let m: TestMerchant;
  let session: { cookie: string; csrf: string };
  const log = logCollector();

  beforeAll(async () => {
    servers = new FakeServers();
    ctx = await createTestContext({
      reads: (db, clock) => {
        replica = countingReplica(db);
        router = createReadRouter({ primary: db, replica: replica.db, clock, maxLagMs: 5 * SECOND, probe: servers, log });
        return router;
      },
    });
    m = await createMerchant(ctx, 'Replica');
    const res = await ctx.app.inject({ method: 'POST', url: '/dashboard/api/login', payload: m.dashboard });
    expect(res.statusCode, res.body).toBe(200);
    session = { cookie: String(res.headers['set-cookie']).split(';')[0] as string, csrf: res.json().csrfToken };
    await createIntent(ctx, m, { amount: '2500' });
    await router.probe();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const dashboardGet = (url: string) => ctx.app.inject({ method: 'GET', url: `/dashboard/api${url}`, headers: { cookie: session.cookie } });

  it('answers the Home figures, the lists, the search, the exports and the statement from the replica', async () => {
    for (const url of [
      '/test/overview?period=7d',
      '/test/payments',
      '/test/payments.csv',
      '/test/search?q=2500',
      '/test/customers',
      '/test/balance/transactions',
      '/test/balance/transactions.csv',
    ]) {
      const before = replica.queries;
      const res = await dashboardGet(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(replica.queries, url).toBeGreaterThan(before);
    }
    expect((await dashboardGet('/test/payments')).json().data).toHaveLength(1);
  });

  it("never sends the API's reads or money's to the replica", async () => {
    const before = replica.queries;
    const list = await call(ctx.app, 'GET', '/gateway', sk(m));
    expect(list.statusCode, list.body).toBe(200);
    expect((await call(ctx.app, 'GET', '/balance', sk(m))).statusCode).toBe(200);
    await createIntent(ctx, m, { amount: '700' });
    expect(replica.queries).toBe(before);
  });

  it("reads a dashboard write back at once: the merchant's reads go to the primary until the replica has it", async () => {
    const intent = await createIntent(ctx, m, { amount: '3100' });
    ctx.clock.advance(SECOND);
    await router.probe();
    const cancel = await ctx.app.inject({
      method: 'POST',
      url: `/dashboard/api/test/payments/${intent.id}/cancel`,
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
      payload: {},
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const before = replica.queries;
    const wrote = router.status().reads.wrote;
    const list = await dashboardGet('/test/payments');
    expect(list.json().data.find((p: { id: string }) => p.id === intent.id)).toMatchObject({ status: 'CANCELED' });
    expect(replica.queries).toBe(before);
    expect(router.status().reads.wrote).toBe(wrote + 1);
    // The replica replays the write: the merchant's reads go back to it.
    ctx.clock.advance(SECOND);
    servers.primary += 10n;
    servers.replayed = servers.primary;
    await router.probe();
    await dashboardGet('/test/payments');
    expect(replica.queries).toBeGreaterThan(before);
  });

  it('answers from the primary when the replica fails mid-read, and counts it down (metrics and a log line)', async () => {
    replica.failing = true;
    const failedOver = router.status().failedOver;
    const res = await dashboardGet('/test/overview?period=today');
    expect(res.statusCode, res.body).toBe(200);
    // Each of the overview's queries on the replica failed over to the primary.
    const after = router.status().failedOver;
    expect(after).toBeGreaterThan(failedOver);
    expect(router.status().state).toBe('down');
    expect(log.lines.at(-1)).toMatchObject({ level: 'warn', msg: 'read replica down: dashboard reads go to the primary' });
    // Down: the next reads go to the primary without trying the replica.
    const tried = replica.queries;
    const csv = await dashboardGet('/test/payments.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n').length).toBeGreaterThan(3);
    expect(replica.queries).toBe(tried);
    expect(router.status().failedOver).toBe(after);
    const metrics = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^caisse_replica_up 0$/m);
    expect(metrics.body).toMatch(/^caisse_replica_reads_failed_over_total [1-9]/m);
    expect(metrics.body).toMatch(/^caisse_dashboard_reads_total\{target="primary",reason="down"\} [1-9]/m);
    expect(metrics.body).toMatch(/^caisse_dashboard_reads_total\{target="replica",reason="ok"\} [1-9]/m);
    replica.failing = false;
  });
});
