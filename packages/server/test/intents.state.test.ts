import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IntentPatch, type IntentRow, merchantView } from '../src/modules/intents/index.ts';
import { INTENT_STATUSES, INTENT_TRANSITIONS, type IntentStatus } from '../src/modules/intents/intents.state.ts';
import { call, createMerchant, createTestContext, sk, type TestContext, type TestMerchant } from './harness.ts';

/**
 * Every row of the state table (docs/spec/payment-intents.md) on a real database, through the function charges
 * and refunds will use: the move, its event in the same transaction, and every other move refused.
 */
let ctx: TestContext;
let m: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'States');
});
afterAll(() => ctx.close());

const scope = () => ({ merchantId: m.merchantId, mode: 'test' as const });

/** A fresh intent put straight into `status` (the moves that lead there belong to other modules). */
async function intentIn(status: IntentStatus, refunded = 0n): Promise<IntentRow> {
  const res = await call(ctx.app, 'POST', '/gateway', sk(m), { amount: '5000', currency: 'XAF', description: 'State', metadata: { orderId: 'ord_1', n: 2 } });
  expect(res.statusCode).toBe(201);
  return ctx.deps.db
    .updateTable('intents')
    .set({ status, amount_refunded_minor: refunded })
    .where('id', '=', res.json().id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function move(row: IntentRow, to: IntentStatus, patch?: IntentPatch): Promise<IntentRow> {
  return ctx.deps.db.transaction().execute(async (tx) => {
    const locked = await ctx.services.intents.lockForChange(tx, scope(), row.id);
    if (!locked) throw new Error('intent not found');
    return ctx.services.intents.transition(tx, locked, to, { apiVersion: '2026-11-01', ...(patch ? { patch } : {}) });
  });
}

async function eventsOf(id: string) {
  return ctx.deps.db.selectFrom('events').selectAll().where('intent_id', '=', id).orderBy('id').execute();
}

/** What each row of the table also changes, as charges and refunds will set it. */
function patchFor(from: IntentStatus, to: IntentStatus): IntentPatch | undefined {
  if (to === 'PENDING') return { attempts: 1, last_error_code: 'insufficient_funds', last_error_message: 'Not enough funds' };
  if (to === 'FAILED') return { attempts: 3, last_error_code: 'insufficient_funds', last_error_message: 'Not enough funds' };
  if (to === 'PARTIALLY_REFUNDED') return { amount_refunded_minor: from === 'PARTIALLY_REFUNDED' ? 3000n : 1000n };
  if (to === 'REFUNDED') return { amount_refunded_minor: 5000n };
  if (to === 'SUCCEEDED') return { attempts: 1 };
  return undefined;
}

describe('every row of the state table', () => {
  it.each(INTENT_TRANSITIONS.map((t) => [t.from, t.to, t.event, t.also ? ` and ${t.also}` : ''] as const))(
    '%s → %s writes %s%s',
    async (from, to, event, also) => {
      const row = await intentIn(from, from === 'PARTIALLY_REFUNDED' ? 1000n : 0n);
      // The expiry is the sweeper's move: it comes once expiresAt has passed, and dates from it.
      ctx.clock.advance(to === 'EXPIRED' ? 31 * 60 * 1000 : 1000);
      const patch = patchFor(from, to);
      const moved = await move(row, to, patch);
      expect(moved.status).toBe(to);
      expect(moved.updated_at.toISOString()).toBe((to === 'EXPIRED' ? row.expires_at : ctx.clock.now()).toISOString());
      if (patch) expect(moved).toMatchObject(patch);

      const stored = await ctx.deps.db.selectFrom('intents').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      expect(stored.status).toBe(to);
      const events = await eventsOf(row.id);
      if (event === null) {
        expect(events).toEqual([]);
        return;
      }
      // Two events of one move may share a millisecond, and ids order only by it: compared as a set.
      expect(events.map((e) => e.type).sort()).toEqual([event, ...(also ? [also.slice(' and '.length)] : [])].sort());
      const body = JSON.parse(events.find((e) => e.type === event)?.payload ?? '{}');
      expect(body).toMatchObject({ object: 'event', type: event, livemode: false, apiVersion: '2026-11-01', createdAt: ctx.clock.now().toISOString() });
      // The intent as it is now, amount, currency and metadata as created; no session token.
      expect(body.data.paymentIntent).toEqual(merchantView(stored, ctx.clock.now()));
      expect(body.data.paymentIntent).toMatchObject({ status: to, amount: '5000', currency: 'XAF', metadata: { orderId: 'ord_1', n: 2 } });
      expect(body.data.paymentIntent).not.toHaveProperty('sessionToken');
    },
  );

  it('the answers show what charges and refunds set: attempts, lastError, amountRefunded', async () => {
    const row = await intentIn('PENDING');
    await move(row, 'PENDING', { attempts: 1, last_error_code: 'insufficient_funds', last_error_message: 'Not enough funds' });
    const res = (await call(ctx.app, 'GET', `/gateway/${row.id}`, sk(m))).json();
    expect(res).toMatchObject({ status: 'PENDING', attempts: 1, lastError: { code: 'insufficient_funds', message: 'Not enough funds' } });
    const paid = await intentIn('SUCCEEDED');
    await move(paid, 'PARTIALLY_REFUNDED', { amount_refunded_minor: 1250n });
    expect((await call(ctx.app, 'GET', `/gateway/${paid.id}`, sk(m))).json()).toMatchObject({ status: 'PARTIALLY_REFUNDED', amountRefunded: '1250' });
  });
});

describe('every other move is refused', () => {
  const refused = INTENT_STATUSES.flatMap((from) => INTENT_STATUSES.map((to) => [from, to] as const)).filter(
    ([from, to]) => !INTENT_TRANSITIONS.some((t) => t.from === from && t.to === to),
  );

  it(`refuses all ${8 * 8 - INTENT_TRANSITIONS.length} of them with a 409, changing nothing`, async () => {
    expect(refused).toHaveLength(8 * 8 - INTENT_TRANSITIONS.length);
    for (const [from, to] of refused) {
      const row = await intentIn(from);
      const code = from === 'EXPIRED' && (to === 'SUCCEEDED' || to === 'PROCESSING') ? 'intent_expired' : 'intent_state_invalid';
      await expect(move(row, to), `${from} → ${to}`).rejects.toMatchObject({ code, status: 409 });
      const stored = await ctx.deps.db.selectFrom('intents').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      expect(stored.status).toBe(from);
      expect(await eventsOf(row.id)).toEqual([]);
    }
  });

  it('a PENDING intent past expiresAt cannot be charged (409 intent_expired) nor canceled, even before the sweeper', async () => {
    const row = await intentIn('PENDING');
    ctx.clock.advance(30 * 60 * 1000);
    await expect(move(row, 'SUCCEEDED')).rejects.toMatchObject({ code: 'intent_expired', status: 409 });
    await expect(move(row, 'PROCESSING')).rejects.toMatchObject({ code: 'intent_expired' });
    await expect(move(row, 'CANCELED')).rejects.toMatchObject({ code: 'intent_state_invalid', status: 409 });
    expect(await eventsOf(row.id)).toEqual([]);
  });
});

describe('atomicity', () => {
  it('a move and its event commit together or not at all', async () => {
    const row = await intentIn('PENDING');
    await expect(
      ctx.deps.db.transaction().execute(async (tx) => {
        const locked = await ctx.services.intents.lockForChange(tx, scope(), row.id);
        if (!locked) throw new Error('intent not found');
        await ctx.services.intents.transition(tx, locked, 'SUCCEEDED', { apiVersion: '2026-11-01' });
        throw new Error('the ledger transfer failed');
      }),
    ).rejects.toThrow('the ledger transfer failed');
    const stored = await ctx.deps.db.selectFrom('intents').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(stored.status).toBe('PENDING');
    expect(await eventsOf(row.id)).toEqual([]);
  });

  it('the row lock serialises two moves of one intent: exactly one cancel wins', async () => {
    const row = await intentIn('PENDING');
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(ctx.app, 'POST', `/gateway/${row.id}/cancel`, sk(m))));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(answers.filter((a) => a.statusCode === 409).every((a) => a.json().code === 'intent_state_invalid')).toBe(true);
    expect((await eventsOf(row.id)).map((e) => e.type)).toEqual(['payment.canceled']);
  });

  it('a lock in another scope finds nothing', async () => {
    const row = await intentIn('PENDING');
    const found = await ctx.deps.db.transaction().execute(async (tx) => ({
      live: await ctx.services.intents.lockForChange(tx, { merchantId: m.merchantId, mode: 'live' }, row.id),
      other: await ctx.services.intents.lockForChange(tx, { merchantId: 'mch_other', mode: 'test' }, row.id),
    }));
    expect(found).toEqual({ live: undefined, other: undefined });
  });
});
