import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSweeper } from '../src/modules/intents/index.ts';
import { purgeExpired } from '../src/modules/retention/index.ts';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { createLogger } from '../src/platform/logger.ts';
import { call, createMerchant, createTestContext, onPostgres, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

/** Expiry with the injected clock: read-time EXPIRED at once, then the sweeper makes it final. */
let ctx: TestContext;
let m: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Expiry');
});
afterAll(() => ctx.close());

async function create(t: TestMerchant, body: Record<string, unknown> = {}) {
  const res = await call(ctx.app, 'POST', '/gateway', sk(t), { amount: '5000', currency: 'XAF', metadata: { orderId: 'o1' }, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; sessionToken: string; expiresAt: string; createdAt: string };
}

const get = async (id: string) => (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json();
const events = (id: string) => ctx.deps.db.selectFrom('events').selectAll().where('intent_id', '=', id).orderBy('id').execute();
const storedStatus = async (id: string) => (await ctx.deps.db.selectFrom('intents').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

/** Sweeps everything due, leaving the clock where it is (expiry of earlier tests included). */
async function sweepAll() {
  return ctx.services.intents.sweepExpired();
}

describe('read-time expiry', () => {
  it('an intent reads PENDING until its expiresAt, then EXPIRED everywhere at once', async () => {
    await sweepAll();
    const intent = await create(m, { expiresIn: 300 });
    ctx.clock.advance(300 * SECOND - 1);
    expect((await get(intent.id)).status).toBe('PENDING');
    expect((await call(ctx.app, 'GET', `/gateway/sessions/${intent.sessionToken}`, pk(m))).json().status).toBe('PENDING');

    ctx.clock.advance(1);
    const merchantRead = await get(intent.id);
    expect(merchantRead).toMatchObject({ status: 'EXPIRED', updatedAt: intent.expiresAt });
    expect((await call(ctx.app, 'GET', `/gateway/sessions/${intent.sessionToken}`, pk(m))).json().status).toBe('EXPIRED');
    const listed = (await call(ctx.app, 'GET', '/gateway?limit=100', sk(m))).json();
    expect(listed.data.find((i: { id: string }) => i.id === intent.id).status).toBe('EXPIRED');

    // Nothing has been written yet: the row is still PENDING, no event.
    expect(await storedStatus(intent.id)).toBe('PENDING');
    expect(await events(intent.id)).toEqual([]);
  });

  it('the status filter follows what a reader sees', async () => {
    const t = await createMerchant(ctx, 'Filter');
    const soon = await create(t, { expiresIn: 300 });
    const later = await create(t, { expiresIn: 3600 });
    ctx.clock.advance(301 * SECOND);
    const ids = async (q: string) => (await call(ctx.app, 'GET', `/gateway?${q}`, sk(t))).json().data.map((i: { id: string }) => i.id);
    expect(await ids('status=EXPIRED')).toEqual([soon.id]);
    expect(await ids('status=PENDING')).toEqual([later.id]);
    await sweepAll();
    expect(await ids('status=EXPIRED')).toEqual([soon.id]);
    expect(await ids('status=PENDING')).toEqual([later.id]);
  });
});

describe('the sweeper', () => {
  it('moves due intents to EXPIRED for good and records payment.expired once', async () => {
    await sweepAll();
    const due = await create(m, { expiresIn: 300 });
    const notDue = await create(m, { expiresIn: 600 });
    ctx.clock.advance(5 * MINUTE);
    const before = await get(due.id);

    ctx.clock.advance(10 * SECOND);
    expect(await sweepAll()).toBe(1);
    expect(await storedStatus(due.id)).toBe('EXPIRED');
    expect(await storedStatus(notDue.id)).toBe('PENDING');
    // The intent reads the same before and after the sweep.
    expect(await get(due.id)).toEqual(before);

    const evts = await events(due.id);
    expect(evts.map((e) => e.type)).toEqual(['payment.expired']);
    const body = JSON.parse(evts[0]?.payload ?? '{}');
    expect(body).toMatchObject({ type: 'payment.expired', livemode: false, apiVersion: '2026-11-01', createdAt: ctx.clock.now().toISOString() });
    expect(body.data.paymentIntent).toMatchObject({ id: due.id, status: 'EXPIRED', amount: '5000', currency: 'XAF', metadata: { orderId: 'o1' } });
    expect(body.data.paymentIntent).not.toHaveProperty('sessionToken');

    // A second round finds nothing: still one event.
    expect(await sweepAll()).toBe(0);
    expect(await events(due.id)).toHaveLength(1);
  });

  it('leaves every other status alone, even long past expiresAt', async () => {
    await sweepAll();
    const ids: Record<string, string> = {};
    for (const status of ['PROCESSING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'PARTIALLY_REFUNDED', 'REFUNDED'] as const) {
      const intent = await create(m, { expiresIn: 300 });
      await ctx.deps.db.updateTable('intents').set({ status }).where('id', '=', intent.id).execute();
      ids[status] = intent.id;
    }
    ctx.clock.advance(24 * 60 * MINUTE);
    await sweepAll();
    for (const [status, id] of Object.entries(ids)) {
      expect(await storedStatus(id)).toBe(status);
      expect((await get(id)).status).toBe(status);
    }
  });

  it('works in batches until nothing is due', async () => {
    await sweepAll();
    const t = await createMerchant(ctx, 'Batches');
    const created = [];
    for (let i = 0; i < 7; i++) created.push(await create(t, { expiresIn: 300 }));
    ctx.clock.advance(5 * MINUTE);
    expect(await ctx.services.intents.sweepExpired(3)).toBe(7);
    for (const c of created) expect(await storedStatus(c.id)).toBe('EXPIRED');
  });

  it("writes each event in the merchant's pinned version, for live intents too", async () => {
    await sweepAll();
    const intent = (
      await call(ctx.app, 'POST', '/gateway', { apiKey: m.live.apiKey, secretKey: m.live.secretKey }, { amount: '10', currency: 'XAF', expiresIn: 300 })
    ).json();
    ctx.clock.advance(5 * MINUTE);
    expect(await sweepAll()).toBe(1);
    const body = JSON.parse((await events(intent.id))[0]?.payload ?? '{}');
    expect(body).toMatchObject({ livemode: true, apiVersion: '2026-11-01', data: { paymentIntent: { amount: '10', currency: 'XAF', livemode: true } } });
  });

  it.runIf(onPostgres)('skips an intent another transaction holds (SKIP LOCKED), and takes it next round', async () => {
    await sweepAll();
    const held = await create(m, { expiresIn: 300 });
    const free = await create(m, { expiresIn: 300 });
    ctx.clock.advance(5 * MINUTE);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = ctx.deps.db.transaction().execute(async (tx) => {
      await ctx.services.intents.lockForChange(tx, { merchantId: m.merchantId, mode: 'test' }, held.id);
      locked();
      await released;
    });
    await isLocked;
    expect(await sweepAll()).toBe(1);
    expect(await storedStatus(free.id)).toBe('EXPIRED');
    expect(await storedStatus(held.id)).toBe('PENDING');
    release();
    await holder;
    expect(await sweepAll()).toBe(1);
    expect(await storedStatus(held.id)).toBe('EXPIRED');
  });

  it.runIf(onPostgres)('two sweepers at once expire each intent exactly once', async () => {
    await sweepAll();
    const t = await createMerchant(ctx, 'Racing');
    const created = [];
    for (let i = 0; i < 30; i++) created.push(await create(t, { expiresIn: 300 }));
    ctx.clock.advance(5 * MINUTE);
    const counts = await Promise.all([ctx.services.intents.sweepExpired(4), ctx.services.intents.sweepExpired(4), ctx.services.intents.sweepExpired(4)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
    const n = await sql<{ n: string }>`select count(*)::text as n from events where type = 'payment.expired' and merchant_id = ${t.merchantId}`.execute(
      ctx.deps.db,
    );
    expect(n.rows[0]?.n).toBe('30');
  });

  it('the worker runs rounds until stopped, and stop waits for the round in progress', async () => {
    await sweepAll();
    const intent = await create(m, { expiresIn: 300 });
    ctx.clock.advance(5 * MINUTE);
    let rounds = 0;
    let firstRound!: () => void;
    const ranOnce = new Promise<void>((resolve) => {
      firstRound = resolve;
    });
    const worker = startSweeper(ctx.services.intents, createLogger({ level: 'silent' }), {
      intervalMs: 1,
      onRound: () => {
        rounds++;
        firstRound();
      },
    });
    expect(worker.name).toBe('sweeper');
    await ranOnce;
    await worker.stop();
    const after = rounds;
    expect(after).toBeGreaterThanOrEqual(1);
    expect(await storedStatus(intent.id)).toBe('EXPIRED');
    // Stopped means stopped: no more rounds (the timer is cleared).
    await new Promise((resolve) => setImmediate(resolve));
    expect(rounds).toBe(after);
  });

  it('a retention round purges idempotency records past 24 hours', async () => {
    await sweepAll();
    await call(ctx.app, 'POST', '/gateway', { ...sk(m), headers: { 'idempotency-key': 'purge-me' } }, { amount: '1', currency: 'XAF' });
    const count = async () => (await ctx.deps.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'purge-me').execute()).length;
    expect(await count()).toBe(1);
    ctx.clock.advance(23 * 60 * MINUTE);
    await purgeExpired(ctx.deps, ctx.services);
    expect(await count()).toBe(1);
    ctx.clock.advance(60 * MINUTE + 1);
    const { idempotencyKeys } = await purgeExpired(ctx.deps, ctx.services);
    expect(idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(0);
  });
});

describe('acting on an expired intent', () => {
  it('cancel after expiresAt: 409 intent_state_invalid (EXPIRED), and the expiry is recorded once, sweeper or not', async () => {
    await sweepAll();
    const intent = await create(m, { expiresIn: 300 });
    ctx.clock.advance(5 * MINUTE);
    const res = await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, sk(m));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'intent_state_invalid', intentStatus: 'EXPIRED' });
    expect(await storedStatus(intent.id)).toBe('EXPIRED');
    expect((await events(intent.id)).map((e) => e.type)).toEqual(['payment.expired']);
    // Again, and after the sweeper: the same answer, still one event.
    expect((await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, sk(m))).json()).toMatchObject({
      code: 'intent_state_invalid',
      intentStatus: 'EXPIRED',
    });
    expect(await sweepAll()).toBe(0);
    expect(await events(intent.id)).toHaveLength(1);
  });

  it('cancel 1 ms before expiresAt still cancels', async () => {
    const intent = await create(m, { expiresIn: 300 });
    ctx.clock.advance(5 * MINUTE - 1);
    const res = await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, sk(m));
    expect(res.json().status).toBe('CANCELED');
  });

  it("expireIfDue (for charges): expires a due intent in the caller's transaction, leaves others", async () => {
    const due = await create(m, { expiresIn: 300 });
    ctx.clock.advance(5 * MINUTE);
    const open = await create(m, { expiresIn: 300 });
    const scope = { merchantId: m.merchantId, mode: 'test' as const };
    const [a, b] = await ctx.deps.db.transaction().execute(async (tx) => {
      const rowA = await ctx.services.intents.lockForChange(tx, scope, due.id);
      const rowB = await ctx.services.intents.lockForChange(tx, scope, open.id);
      if (!rowA || !rowB) throw new Error('missing');
      return [await ctx.services.intents.expireIfDue(tx, rowA, '2026-11-01'), await ctx.services.intents.expireIfDue(tx, rowB, '2026-11-01')];
    });
    expect(a?.status).toBe('EXPIRED');
    expect(b?.status).toBe('PENDING');
    expect((await events(due.id)).map((e) => e.type)).toEqual(['payment.expired']);
    expect(await events(open.id)).toEqual([]);
  });
});
