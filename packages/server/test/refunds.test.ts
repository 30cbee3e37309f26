import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { minorUnits } from '../src/platform/money.ts';
import { call, createMerchant, createTestContext, onPostgres, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import { authorize, charge, createIntent, eventTypes, expectLedgerClean, merchantMinor, newUser, problem, type TestUser, walletMinor } from './flow.support.ts';

/**
 * POST /gateway/{id}/refunds (docs/spec/payment-intents.md): whole or partial, never more than is left, the ledger
 * reversed into the wallet that paid, PARTIALLY_REFUNDED / REFUNDED and payment.refunded.
 */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Refunds');
  other = await createMerchant(ctx, 'Other');
});
afterEach(() => expectLedgerClean(ctx));
afterAll(() => ctx.close());

/** A user who paid `amount` XAF for a new intent, with `balance` to start with. */
async function paidIntent(amount: string, balance = amount): Promise<{ user: TestUser; intentId: string }> {
  const user = await newUser(ctx, m, { balance });
  const intent = await createIntent(ctx, m, { amount });
  const res = await charge(ctx, user, intent.id, await authorize(ctx, m, user, intent.id));
  expect(res.statusCode, res.body).toBe(200);
  // Events are ordered by time: what follows happens a moment later.
  ctx.clock.advance(1);
  return { user, intentId: intent.id };
}

const refund = (intentId: string, body: Record<string, unknown> = {}, merchant = m) =>
  call(ctx.app, 'POST', `/gateway/${intentId}/refunds`, sk(merchant), body);
const intentOf = async (id: string) => (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as Record<string, unknown>;

describe('refunds', () => {
  it('refunds the whole amount by default: REFUNDED, money back in the wallet, payment.refunded', async () => {
    const { user, intentId } = await paidIntent('5000', '8000');
    const merchantBefore = await merchantMinor(ctx, m.merchantId);
    const res = await refund(intentId, { reason: 'requested_by_customer' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      id: expect.stringMatching(/^re_[0-9a-z]{26}$/),
      object: 'refund',
      amount: '5000',
      currency: 'XAF',
      intentId,
      status: 'SUCCEEDED',
      reason: 'requested_by_customer',
      createdAt: ctx.clock.now().toISOString(),
    });
    expect(await intentOf(intentId)).toMatchObject({ status: 'REFUNDED', amountRefunded: '5000' });
    expect(await walletMinor(ctx, user.id)).toBe(8000n);
    expect(await merchantMinor(ctx, m.merchantId)).toBe(merchantBefore - 5000n);
    expect(await eventTypes(ctx, intentId)).toEqual(['payment.completed', 'payment.refunded']);
    const event = await ctx.deps.db
      .selectFrom('events')
      .select('payload')
      .where('intent_id', '=', intentId)
      .where('type', '=', 'payment.refunded')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.payload).data.paymentIntent).toMatchObject({ status: 'REFUNDED', amountRefunded: '5000', metadata: { orderId: '42' } });
  });

  it('refunds in parts: PARTIALLY_REFUNDED, then REFUNDED with the rest; never more than is left', async () => {
    const { user, intentId } = await paidIntent('5000');
    expect((await refund(intentId, { amount: '1500' })).json()).toMatchObject({ amount: '1500', reason: null });
    expect(await intentOf(intentId)).toMatchObject({ status: 'PARTIALLY_REFUNDED', amountRefunded: '1500' });
    expect(await walletMinor(ctx, user.id)).toBe(1500n);

    const tooMuch = problem(await refund(intentId, { amount: '3501' }), 422, 'refund_exceeds_amount');
    expect(tooMuch).toMatchObject({ param: 'amount', amountRefundable: '3500' });
    expect(await walletMinor(ctx, user.id)).toBe(1500n);

    expect((await refund(intentId, { amount: '1000' })).statusCode).toBe(201);
    ctx.clock.advance(1);
    const rest = await refund(intentId);
    expect(rest.json()).toMatchObject({ amount: '2500' });
    expect(await intentOf(intentId)).toMatchObject({ status: 'REFUNDED', amountRefunded: '5000' });
    expect(await walletMinor(ctx, user.id)).toBe(5000n);
    expect(await eventTypes(ctx, intentId)).toEqual(['payment.completed', 'payment.refunded', 'payment.refunded', 'payment.refunded']);

    // Nothing is left: a fully refunded intent takes no more refunds.
    expect(problem(await refund(intentId, { amount: '1' }), 409, 'intent_state_invalid')).toMatchObject({ intentStatus: 'REFUNDED' });
  });

  it('checks the amount against the currency: amount_invalid', async () => {
    const { intentId } = await paidIntent('5000');
    problem(await refund(intentId, { amount: '10.5' }), 400, 'amount_invalid');
    problem(await refund(intentId, { amount: '0' }), 400, 'amount_invalid');
    problem(await refund(intentId, { amount: 100 }), 400, 'amount_invalid');
    problem(await refund(intentId, { amount: '-1' }), 400, 'amount_invalid');
    problem(await refund(intentId, { why: 'x' }), 400, 'parameter_unknown');
    expect(await intentOf(intentId)).toMatchObject({ status: 'SUCCEEDED', amountRefunded: '0' });
  });

  it('refuses an intent that was not paid (409 intent_state_invalid) and an unknown or foreign one (404)', async () => {
    const pending = await createIntent(ctx, m);
    expect(problem(await refund(pending.id), 409, 'intent_state_invalid')).toMatchObject({ intentStatus: 'PENDING' });
    const canceled = await createIntent(ctx, m);
    await call(ctx.app, 'POST', `/gateway/${canceled.id}/cancel`, sk(m));
    problem(await refund(canceled.id), 409, 'intent_state_invalid');
    problem(await refund('pi_00000000000000000000000000'), 404, 'not_found');
    const { intentId } = await paidIntent('1000');
    problem(await refund(intentId, {}, other), 404, 'not_found');
    problem(await call(ctx.app, 'POST', `/gateway/${intentId}/refunds`, { apiKey: m.live.apiKey, secretKey: m.live.secretKey }, {}), 404, 'not_found');
    problem(await call(ctx.app, 'POST', `/gateway/${intentId}/refunds`, pk(m), {}), 401, 'secret_key_required');
    expect(await intentOf(intentId)).toMatchObject({ status: 'SUCCEEDED' });
  });

  it("may take the merchant's balance below zero (the customer is paid back first)", async () => {
    const t = await createMerchant(ctx, 'Thin');
    const user = await newUser(ctx, t, { balance: '3000' });
    const intent = await createIntent(ctx, t, { amount: '3000' });
    expect((await charge(ctx, user, intent.id, await authorize(ctx, t, user, intent.id))).statusCode).toBe(200);
    // The merchant's balance is moved away (as a payout would) by a transfer to its external account.
    await ctx.deps.db.transaction().execute(async (tx) => {
      const balance = await ctx.services.ledger.merchantBalance(tx, { merchantId: t.merchantId, mode: 'test', currency: 'XAF' });
      const external = await ctx.services.ledger.externalAccount(tx, { merchantId: t.merchantId, mode: 'test', currency: 'XAF' });
      await ctx.services.ledger.transfer(tx, {
        merchantId: t.merchantId,
        mode: 'test',
        kind: 'payout',
        from: balance.id,
        to: external.id,
        amount: minorUnits(3000n),
      });
    });
    const res = await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(t), {});
    expect(res.statusCode, res.body).toBe(201);
    expect(await merchantMinor(ctx, t.merchantId)).toBe(-3000n);
    expect(await walletMinor(ctx, user.id)).toBe(3000n);
  });

  it(`${onPostgres ? 200 : 20} concurrent refunds never exceed the amount`, async () => {
    const n = onPostgres ? 200 : 20;
    // Each asks for 1/(n/2) of the amount: exactly half can succeed.
    const part = 100;
    const amount = String((n / 2) * part);
    const { user, intentId } = await paidIntent(amount);
    const merchantBefore = await merchantMinor(ctx, m.merchantId);
    const answers = await Promise.all(Array.from({ length: n }, () => refund(intentId, { amount: String(part) })));
    const ok = answers.filter((r) => r.statusCode === 201);
    expect(ok).toHaveLength(n / 2);
    for (const r of answers.filter((a) => a.statusCode !== 201)) {
      expect([409, 422], r.body).toContain(r.statusCode);
      expect((r.json() as { code: string }).code).toMatch(/^(refund_exceeds_amount|intent_state_invalid)$/);
    }
    expect(await intentOf(intentId)).toMatchObject({ status: 'REFUNDED', amountRefunded: amount });
    expect(await walletMinor(ctx, user.id)).toBe(BigInt(amount));
    expect(await merchantMinor(ctx, m.merchantId)).toBe(merchantBefore - BigInt(amount));
    const refunds = await ctx.deps.db.selectFrom('refunds').select('amount_minor').where('intent_id', '=', intentId).execute();
    expect(refunds.reduce((sum, r) => sum + r.amount_minor, 0n)).toBe(BigInt(amount));
    expect((await eventTypes(ctx, intentId)).filter((t) => t === 'payment.refunded')).toHaveLength(n / 2);
  });

  it(`${onPostgres ? 200 : 20} concurrent refunds of random amounts: the sum never passes the amount`, async () => {
    const n = onPostgres ? 200 : 20;
    const { user, intentId } = await paidIntent('50000');
    const amounts = Array.from({ length: n }, (_, i) => 100 + ((i * 7919) % 900));
    const answers = await Promise.all(amounts.map((a) => refund(intentId, { amount: String(a) })));
    const refunded = answers.reduce((sum, r, i) => sum + (r.statusCode === 201 ? BigInt(amounts[i] as number) : 0n), 0n);
    expect(refunded).toBeLessThanOrEqual(50000n);
    const intent = await intentOf(intentId);
    expect(intent.amountRefunded).toBe(String(refunded));
    expect(intent.status).toBe(refunded === 50000n ? 'REFUNDED' : 'PARTIALLY_REFUNDED');
    expect(await walletMinor(ctx, user.id)).toBe(refunded);
  });
});
