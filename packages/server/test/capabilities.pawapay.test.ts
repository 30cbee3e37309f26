/**
 * pawaPay's capabilities come from the account's active configuration (decision 0099): an
 * operation it does not enable for an operator is refused before anything is stored or sent (a
 * refund 409 `refund_unsupported`, a payout 400 `destination_unsupported`), or the route's next
 * connector is taken; the method settings say so. The sandbox leaves operations out per operator.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/admin.ts';
import { PAWAPAY_CONNECTOR, type Sandbox } from '../src/modules/connectors/index.ts';
import type { PawapaySandbox } from '../src/modules/connectors/pawapay/pawapay.sandbox.ts';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes } from './connectors.support.ts';
import { createIntent, expectLedgerClean } from './flow.support.ts';
import { call, createMerchant, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let sandbox: Sandbox;
let pp: PawapaySandbox;
let cm: TestMerchant;
let bj: TestMerchant;

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithAllSandboxes());
  pp = sandbox.of(PAWAPAY_CONNECTOR);
  cm = await createMerchant(ctx, 'Douala capabilities shop');
  await ctx.services.merchants.setSettlementDelay(cm.merchantId, 0);
  bj = await createMerchant(ctx, 'Cotonou capabilities shop');
  await ctx.services.merchants.setCountry(bj.merchantId, 'BJ');
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});
afterEach(async () => {
  await configure({});
});

type Attempt = { provider: string; connector: string };
type Intent = { id: string; status: string; amountRefunded: string; attempts: Attempt[] };

/** Sets what the account's active configuration leaves out, and lets the connector's minute-long copy of it expire. */
async function configure(disabled: Parameters<PawapaySandbox['setDisabledOperations']>[0]) {
  pp.setDisabledOperations(disabled);
  ctx.clock.advance(MINUTE + SECOND);
}

const route = (country: string, kind: 'payment' | 'payout', method: string, connectors: string[] | null) =>
  runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country, kind, method, connectors });
const pay = (m: TestMerchant, intent: { id: string; sessionToken: string }, provider: string, phoneNumber: string) =>
  call(
    ctx.app,
    'POST',
    '/charge',
    { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
    { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider, phoneNumber } },
  );
const read = async (m: TestMerchant, id: string) => (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as Intent;
const payout = (m: TestMerchant, phoneNumber = '+237670000001') =>
  call(ctx.app, 'POST', '/payouts', sk(m), { amount: '1000', currency: 'XAF', destination: { provider: 'mtn_momo', phoneNumber } });

async function later(ms = 2 * SECOND) {
  await ctx.services.callbacks.drain();
  ctx.clock.advance(ms);
  await sandbox.tick();
  await ctx.services.callbacks.pollDue();
  await ctx.services.callbacks.drain();
}

/** A payment of MTN MoMo in Cameroon taken through pawaPay, SUCCEEDED. */
async function paidThroughPawapay(amount: string): Promise<string> {
  await route('CM', 'payment', 'mtn_momo', ['pawapay']);
  try {
    const intent = await createIntent(ctx, cm, { amount });
    const charged = await pay(cm, intent, 'mtn_momo', '+237670000001');
    expect(charged.statusCode, charged.body).toBe(202);
    expect((charged.json() as Intent).attempts).toEqual([expect.objectContaining({ connector: 'pawapay' })]);
    await later();
    expect((await read(cm, intent.id)).status).toBe('SUCCEEDED');
    return intent.id;
  } finally {
    await route('CM', 'payment', 'mtn_momo', null);
  }
}

describe('refunds', () => {
  it('REFUND not enabled for the operator: 409 refund_unsupported saying why, nothing stored or sent; enabled again, refunded', async () => {
    const id = await paidThroughPawapay('3000');
    await configure({ REFUND: ['MTN_MOMO_CMR'] });
    const refused = await call(ctx.app, 'POST', `/gateway/${id}/refunds`, sk(cm), { amount: '1000' });
    expect(refused.statusCode, refused.body).toBe(409);
    const problem = refused.json() as { code: string; detail: string };
    expect(problem.code).toBe('refund_unsupported');
    expect(problem.detail).toContain("pawaPay's active configuration of this account does not enable refunds to MTN_MOMO_CMR (XAF)");
    await ctx.services.callbacks.drain();
    expect(pp.stats().refunds).toBe(0);
    expect(await read(cm, id)).toMatchObject({ status: 'SUCCEEDED', amountRefunded: '0' });
    // The dashboard's form to record a refund made elsewhere opens for it, as for any payment its provider cannot refund.
    expect(await ctx.services.recordedRefunds.recordable({ merchantId: cm.merchantId, mode: 'test' }, id)).toBe(true);

    await configure({});
    const refunded = await call(ctx.app, 'POST', `/gateway/${id}/refunds`, sk(cm), {});
    expect(refunded.statusCode, refunded.body).toBe(202);
    await later();
    await later();
    expect(await read(cm, id)).toMatchObject({ status: 'REFUNDED', amountRefunded: '3000' });
    expect(pp.stats().refunds).toBe(1);
    await expectLedgerClean(ctx);
  });
});

describe('late payments', () => {
  it('a late success through pawaPay that it cannot refund to its operator waits to be returned by hand, nothing sent', async () => {
    const id = await paidThroughPawapay('2000');
    const attempt = await ctx.deps.db.selectFrom('payment_attempts').selectAll().where('intent_id', '=', id).executeTakeFirstOrThrow();
    await configure({ REFUND: ['MTN_MOMO_CMR'] });
    // Read outside the transaction, as the refunds do; the settling transaction asks the copy.
    await ctx.services.connectors.forMode('test').get('pawapay')?.refreshLacks?.();
    const refunds = pp.stats().refunds;
    const before = await ctx.services.refunds.openManualReturns();
    const row = await ctx.deps.db.transaction().execute((tx) => ctx.services.refunds.returnLatePayment(tx, attempt));
    expect(row).toBeUndefined();
    expect(await ctx.services.refunds.openManualReturns()).not.toEqual(before);
    expect(pp.stats().refunds).toBe(refunds);
  });
});

describe('payouts', () => {
  it('PAYOUT not enabled: the route’s next connector pays; pawaPay alone: 400 destination_unsupported saying why; enabled: through pawaPay', async () => {
    // Money to pay out: a payment through MTN's own connector, available at once.
    const intent = await createIntent(ctx, cm, { amount: '10000' });
    expect((await pay(cm, intent, 'mtn_momo', '+237670000001')).statusCode).toBe(202);
    await later();
    await ctx.services.balances.settleDue();
    const before = pp.stats().payouts;

    await configure({ PAYOUT: ['MTN_MOMO_CMR'] });
    await route('CM', 'payout', 'mtn_momo', ['pawapay', 'mtn_momo']);
    try {
      const next = await payout(cm);
      expect(next.statusCode, next.body).toBe(202);
      expect(next.json()).toMatchObject({ connector: 'mtn_momo' });

      await route('CM', 'payout', 'mtn_momo', ['pawapay']);
      const refused = await payout(cm);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'destination_unsupported', param: 'destination.provider' });
      expect((refused.json() as { detail: string }).detail).toContain('does not enable payouts to MTN_MOMO_CMR (XAF)');
      await ctx.services.payouts.drain();
      expect(pp.stats().payouts).toBe(before);

      await configure({});
      const through = await payout(cm);
      expect(through.statusCode, through.body).toBe(202);
      expect(through.json()).toMatchObject({ connector: 'pawapay' });
      await ctx.services.payouts.drain();
      expect(pp.stats().payouts).toBe(before + 1);
    } finally {
      await route('CM', 'payout', 'mtn_momo', null);
    }
  });
});

describe('deposits', () => {
  type Method = { provider?: string; available?: boolean };
  type Setting = { provider: string; capabilities: { collect: boolean; disburse: boolean; refund: boolean }; configured: boolean };
  const methods = async (m: TestMerchant, sessionToken: string) =>
    ((await call(ctx.app, 'GET', `/payment-methods?sessionToken=${encodeURIComponent(sessionToken)}`, pk(m))).json() as { data: Method[] }).data;
  const setting = async (m: TestMerchant, provider: string) =>
    ((await call(ctx.app, 'GET', '/payment-methods/settings', sk(m))).json() as { providers: Setting[] }).providers.find((p) => p.provider === provider);

  it('DEPOSIT not enabled: pawaPay is skipped for the next connector of the route; alone, the method is not offered', async () => {
    await route('BJ', 'payment', 'moov_money', ['pawapay', 'cinetpay']);
    try {
      await configure({ DEPOSIT: ['MOOV_BEN'] });
      const intent = await createIntent(ctx, bj, { currency: 'XOF', amount: '2000' });
      const charged = await pay(bj, intent, 'moov_money', '0145112233');
      expect(charged.statusCode, charged.body).toBe(202);
      expect((charged.json() as Intent).attempts).toEqual([expect.objectContaining({ provider: 'moov_money', connector: 'cinetpay' })]);
      expect(pp.payments('deposit').filter((d) => d.provider.code === 'MOOV_BEN')).toEqual([]);

      await route('BJ', 'payment', 'moov_money', ['pawapay']);
      const other = await createIntent(ctx, bj, { currency: 'XOF', amount: '2000' });
      expect((await methods(bj, other.sessionToken)).map((d) => d.provider)).not.toContain('moov_money');
      const refused = await pay(bj, other, 'moov_money', '0145112233');
      expect(refused.statusCode, refused.body).toBe(503);
      expect(pp.payments('deposit').filter((d) => d.provider.code === 'MOOV_BEN')).toEqual([]);

      // Enabled: offered and taken through pawaPay.
      await configure({});
      expect((await methods(bj, other.sessionToken)).map((d) => d.provider)).toContain('moov_money');
      const taken = await pay(bj, other, 'moov_money', '0145112233');
      expect(taken.statusCode, taken.body).toBe(202);
      expect((taken.json() as Intent).attempts).toEqual([expect.objectContaining({ connector: 'pawapay' })]);
    } finally {
      await route('BJ', 'payment', 'moov_money', null);
    }
  });

  it('the method settings show what pawaPay’s configuration enables for the operator (the dashboard offers no refund or payout it refuses)', async () => {
    await route('BJ', 'payment', 'moov_money', ['pawapay']);
    try {
      expect((await setting(bj, 'moov_money'))?.capabilities).toEqual({ collect: true, disburse: true, refund: true });
      await configure({ REFUND: ['MOOV_BEN'], PAYOUT: ['MOOV_BEN'] });
      expect((await setting(bj, 'moov_money'))?.capabilities).toEqual({ collect: true, disburse: false, refund: false });
    } finally {
      await route('BJ', 'payment', 'moov_money', null);
    }
  });
});
