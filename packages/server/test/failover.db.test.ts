import { createServer, connect, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPostgres, type OpenedDb } from '../src/platform/db.ts';
import { isDatabaseUnavailable } from '../src/platform/db-unavailable.ts';
import { asApiError } from '../src/platform/http/errors.ts';
import { createWakeups } from '../src/platform/wakeups.ts';
import { call, createTestContext, onPostgres, TEST_DATABASE_URL, type TestContext } from './harness.ts';
import { freePort } from './processes.ts';

/**
 * When the database's primary dies or is replaced (docs/operations.md): requests answer 503
 * `unavailable` with Retry-After, never a 500; /readyz says not ready; the pool recovers by itself.
 */

/** A TCP server that accepts and at once hangs up, as a primary killed mid-connection does. */
async function vanishingServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, close: () => new Promise((r) => server.close(() => r())) };
}

let ctx: TestContext;
let vanishing: Awaited<ReturnType<typeof vanishingServer>>;
let gone: OpenedDb;
let refused: OpenedDb;

beforeAll(async () => {
  vanishing = await vanishingServer();
  gone = openPostgres(`postgres://postgres@127.0.0.1:${vanishing.port}/caisse`, 2);
  refused = openPostgres(`postgres://postgres@127.0.0.1:${await freePort()}/caisse`, 2);
  ctx = await createTestContext({
    beforeReady(app) {
      app.get('/t/db-gone', { config: { auth: 'none' } }, async () => (await sql`select 1 as one`.execute(gone.db)).rows);
      app.post('/t/db-refused', { config: { auth: 'none' } }, async () => {
        await refused.db.transaction().execute((tx) => sql`select 1`.execute(tx));
        return { committed: true };
      });
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await gone.close();
  await refused.close();
  await vanishing.close();
});

function expectUnavailable(res: { statusCode: number; headers: Record<string, unknown>; json(): { code?: string } }) {
  expect(res.statusCode).toBe(503);
  expect(res.json().code).toBe('unavailable');
  expect(res.headers['retry-after']).toBe('2');
}

describe('no database reachable', () => {
  it('a pool whose server hangs up answers 503 unavailable with Retry-After, logged as a warning', async () => {
    const before = ctx.logs.length;
    expectUnavailable(await call(ctx.app, 'GET', '/t/db-gone'));
    const lines = ctx.logs.slice(before).join('');
    expect(lines).not.toContain('"level":50');
    expect(lines).toContain('the database is not reachable');
  });

  it('a transaction on a pool whose server refuses connections is a 503, never a success', async () => {
    expectUnavailable(await call(ctx.app, 'POST', '/t/db-refused'));
  });

  it('/readyz says not ready while no writable database answers, and ready again after', async () => {
    const deps = ctx.app.deps as { db: OpenedDb['db'] };
    const own = deps.db;
    deps.db = gone.db;
    try {
      expectUnavailable(await call(ctx.app, 'GET', '/readyz'));
    } finally {
      deps.db = own;
    }
    expect((await call(ctx.app, 'GET', '/readyz')).json()).toEqual({ status: 'ready' });
  });

  it('tells connection failures from the request’s own errors', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', '57P01', '57P03', '08006', '08P01', '25006']) {
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(true);
      expect(asApiError(Object.assign(new Error('x'), { code }))?.code).toBe('unavailable');
    }
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })]))).toBe(true);
    for (const code of ['23505', '40001', '22021', 'P0001', undefined])
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), String(code)).toBe(false);
    expect(asApiError(new Error('boom'))).toBeNull();
  });
});

/** A TCP relay to the test PostgreSQL that can be cut (its connections dropped, new ones refused) and restored on the same port. */
async function relay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const port = await freePort();
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', resolve);
    });
  await open();
  return {
    port,
    async cut() {
      const closed = new Promise<void>((r) => server?.close(() => r()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: open,
  };
}

/** A pool of `size` to the test PostgreSQL through a relay that can be cut. */
async function throughRelay(size: number) {
  const target = new URL(TEST_DATABASE_URL as string);
  const r = await relay(target);
  const via = new URL(target);
  via.host = `127.0.0.1:${r.port}`;
  return { r, database: openPostgres(via.toString(), size) };
}

describe.runIf(onPostgres)('the pool after a failover (PostgreSQL)', () => {
  it('recovers by itself once a server answers again: no restart', async () => {
    const { r, database } = await throughRelay(3);
    try {
      const one = async () => (await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows[0]?.one;
      // Every connection of the pool is open and idle when the server goes.
      await Promise.all([one(), one(), one()]);
      await r.cut();
      const during = await one().then(
        () => 'answered',
        (err: unknown) => (isDatabaseUnavailable(err) ? 'unavailable' : String(err)),
      );
      expect(during).toBe('unavailable');
      await r.restore();
      expect(await one()).toBe(1);
      expect(await Promise.all([one(), one(), one()])).toEqual([1, 1, 1]);
    } finally {
      await r.cut();
      await database.close();
    }
  });

  it('LISTEN reconnects by itself: its subscribers hear reset, then the wake-ups of other processes again', async () => {
    const { r, database } = await throughRelay(1);
    const wakeups = createWakeups(database);
    const heard: string[] = [];
    wakeups.subscribe('webhooks', (m) => heard.push('reset' in m ? 'reset' : `wake ${m.payload}`));
    const other = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await other.connect();
    try {
      await wakeups.ready();
      await r.cut();
      await r.restore();
      await vi.waitFor(() => expect(heard).toContain('reset'), { timeout: 10_000, interval: 50 });
      await other.query(`select pg_notify('caisse_webhooks', 'after')`);
      await vi.waitFor(() => expect(heard).toContain('wake after'), { timeout: 5_000, interval: 50 });
    } finally {
      await other.end();
      await wakeups.close();
      await r.cut();
      await database.close();
    }
  });
});
