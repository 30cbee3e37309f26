import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { makeEvent, recordEvent } from './webhooks.receiver.ts';
import { nodeTransport, type WebhookTransport } from '../src/modules/webhooks/transport.ts';
import { type OpenedDb, openPostgres } from '../src/platform/db.ts';
import { call, createMerchant, createTestContext, onPostgres, sk, type TestContext } from './harness.ts';
import { type Receiver, startReceiver, testIntent } from './webhooks.receiver.ts';

/**
 * Several dispatchers on one database share the queue through FOR UPDATE SKIP LOCKED: every event
 * is delivered, none twice while leases hold. 5,000 events on PostgreSQL (two connection pools,
 * as two processes would have); a smaller run on PGlite, where there is only one connection.
 */
const EVENTS = onPostgres ? 5000 : 300;

let ctx: TestContext;
let receiver: Receiver;
let secondPool: OpenedDb | undefined;

beforeAll(async () => {
  ctx = await createTestContext();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await secondPool?.close();
  await ctx.close();
});

describe('two dispatchers on one database', () => {
  it(`deliver ${EVENTS} events with none lost and none twice`, { timeout: 240_000 }, async () => {
    const m = await createMerchant(ctx, 'Bulk');
    const res = await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: receiver.url });
    expect(res.statusCode).toBe(201);

    const made = new Set<string>();
    for (let batch = 0; batch < EVENTS / 100; batch++) {
      await ctx.deps.db.transaction().execute(async (tx) => {
        for (let i = 0; i < 100; i++) {
          const n = batch * 100 + i;
          const e = await recordEvent(tx, ctx.deps, {
            merchantId: m.merchantId,
            mode: 'test',
            type: 'payment.completed',
            apiVersion: '2026-11-01',
            paymentIntent: testIntent({ id: `pi_bulk${n}`, metadata: { n: String(n) } }),
          });
          made.add(e.id);
        }
      });
    }

    const sent = { a: 0, b: 0 };
    const counting =
      (who: 'a' | 'b'): WebhookTransport =>
      async (req) => {
        sent[who] += 1;
        return nodeTransport(req);
      };
    const dbB = ctx.database.url ? (secondPool = openPostgres(ctx.database.url, 10)).db : ctx.deps.db;
    // A generous deadline per delivery: on a loaded machine a local answer can take over the usual
    // 10 s, and a retry would then wait on the frozen test clock (and might deliver twice).
    const a = createDispatcher(ctx.deps, { concurrency: 32, pollIntervalMs: 10, timeoutMs: 120_000, transport: counting('a') });
    const b = createDispatcher({ ...ctx.deps, db: dbB }, { concurrency: 32, pollIntervalMs: 10, timeoutMs: 120_000, transport: counting('b') });
    const started = performance.now();
    a.start();
    b.start();
    try {
      await vi.waitFor(
        async () => {
          const left = await ctx.deps.db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'succeeded').limit(1).execute();
          expect(left).toHaveLength(0);
        },
        { timeout: 200_000, interval: 200 },
      );
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`${EVENTS} deliveries by two dispatchers in ${seconds.toFixed(1)} s (${Math.round(EVENTS / seconds)}/s): a=${sent.a} b=${sent.b}`);

    const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
    expect(new Set(ids)).toEqual(made);
    expect(ids).toHaveLength(EVENTS);
    expect(sent.a + sent.b).toBe(EVENTS);
    expect(sent.a).toBeGreaterThan(0);
    expect(sent.b).toBeGreaterThan(0);
    const attempts = await ctx.deps.db
      .selectFrom('webhook_delivery_attempts')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(attempts.n)).toBe(EVENTS);
  });
});

describe('an endpoint disabled while several of its deliveries fail at once', () => {
  /*
   * Each failure records itself in a transaction that locks its delivery, then the endpoint's row;
   * the one that disables the endpoint parks its pending deliveries. Parking those that the other
   * failures hold while they wait for the endpoint deadlocked on PostgreSQL: PostgreSQL ended one
   * transaction, its attempt went unrecorded, and its delivery was sent again once its lease lapsed.
   */
  it('records every attempt, deadlocks none, and leaves every pending delivery parked', async () => {
    const m = await createMerchant(ctx, 'Failing at once');
    const failing = await startReceiver((_req, res) => {
      res.writeHead(500);
      res.end();
    });
    try {
      const res = await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: failing.url });
      expect(res.statusCode).toBe(201);
      const endpointId = String((res.json() as { id: string }).id);
      // Failing for five days: the next failure disables it.
      await ctx.deps.db
        .updateTable('webhook_endpoints')
        .set({ failing_since: new Date(ctx.clock.now().getTime() - 6 * 24 * 3600_000) })
        .where('id', '=', endpointId)
        .execute();
      for (let i = 0; i < 12; i++) await makeEvent(ctx, m.merchantId);

      const dispatcher = createDispatcher(ctx.deps, { timeoutMs: 5000, concurrency: 12 });
      const claimed = await dispatcher.claim(12);
      expect(claimed).toHaveLength(12);
      await dispatcher.deliver(claimed);

      // Each send has its attempt: none was rolled back by a deadlock (a delivery parked by the one
      // that disabled the endpoint counts its claim lost, but still records what it sent).
      expect(failing.received).toHaveLength(12);
      const attempts = await ctx.deps.db
        .selectFrom('webhook_delivery_attempts')
        .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_delivery_attempts.delivery_id')
        .select('webhook_deliveries.id')
        .where('webhook_deliveries.endpoint_id', '=', endpointId)
        .execute();
      expect(attempts).toHaveLength(12);
      const view = (await call(ctx.app, 'GET', `/webhook-endpoints/${endpointId}`, sk(m))).json();
      expect(view).toMatchObject({ enabled: false, disabledReason: 'failing' });
      const rows = await ctx.deps.db.selectFrom('webhook_deliveries').select(['status', 'next_attempt_at']).where('endpoint_id', '=', endpointId).execute();
      expect(rows.filter((r) => r.status === 'pending' && r.next_attempt_at !== null)).toEqual([]);
    } finally {
      await failing.close();
    }
  });
});
