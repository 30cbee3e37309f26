/**
 * Fees (docs/spec/money-out.md) over HTTP: 1.5 % of a 5 000 XAF payment is 75, the merchant's balance gets
 * 4 925 and the platform's revenue 75, in the charge's transfer; the intent and payment.completed
 * show fee and net; refunds of any split return the fee in proportion, exactly all of it at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/admin.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser } from './flow.support.ts';
import { call, createMerchant, createTestContext, sk, type TestContext, type TestMerchant } from './harness.ts';
import { withCardRoute } from './fixtures/card-route.ts';

let ctx: TestContext;
let m: TestMerchant;
// A card route lets the Cameroonian shop's intents be in euros (decision 0082).
let removeCardRoute = () => {};

beforeAll(async () => {
  removeCardRoute = withCardRoute();
  ctx = await createTestContext({ env: { CAISSE_FEE_PERCENT: '1.5', CAISSE_FEE_FIXED: 'EUR:0.25' } });
  m = await createMerchant(ctx, 'Fee shop');
});
afterAll(async () => {
  removeCardRoute();
  await ctx?.close();
});

/** The merchant's accounts of a kind, summed; `merchant_balance` means its money: available + pending. */
async function accounts(kind: string, currency = 'XAF'): Promise<bigint> {
  const kinds = kind === 'merchant_balance' ? ['merchant_balance', 'merchant_pending'] : [kind];
  const rows = await ctx.deps.db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('merchant_id', '=', m.merchantId)
    .where('kind', 'in', kinds as 'merchant_balance'[])
    .where('currency', '=', currency as 'XAF')
    .execute();
  return rows.reduce((sum, r) => sum + r.balance, 0n);
}

async function pay(amount: string, currency = 'XAF') {
  const user = await newUser(ctx, m, { balance: '100000', currency });
  const intent = await createIntent(ctx, m, { amount, currency });
  const res = await charge(ctx, user, intent.id, await authorize(ctx, m, user, intent.id));
  expect(res.statusCode, res.body).toBe(200);
  return intent;
}

describe('fees', () => {
  it('a 1.5 % merchant receives 4 925 of 5 000 XAF; the platform 75; the intent and payment.completed say so', async () => {
    const before = await accounts('merchant_balance');
    const intent = await pay('5000');
    expect((await accounts('merchant_balance')) - before).toBe(4925n);
    expect(await accounts('platform_revenue')).toBe(75n);
    const read = (await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m))).json();
    expect(read).toMatchObject({ status: 'SUCCEEDED', amount: '5000', fee: '75', net: '4925' });
    const events = (await call(ctx.app, 'GET', '/events?type=payment.completed', sk(m))).json() as {
      data: { data: { paymentIntent: { id: string; fee: string; net: string } } }[];
    };
    expect(events.data.find((e) => e.data.paymentIntent.id === intent.id)?.data.paymentIntent).toMatchObject({ fee: '75', net: '4925' });
    // Not paid yet: no fee.
    const open = await createIntent(ctx, m, { amount: '1000' });
    expect((await call(ctx.app, 'GET', `/gateway/${open.id}`, sk(m))).json()).toMatchObject({ fee: null, net: null });
    await expectLedgerClean(ctx);
  });

  it('a per-merchant schedule replaces the default; a fixed part per currency adds to the percentage', async () => {
    await ctx.services.merchants.setFees(m.merchantId, 200, { XAF: 10n });
    const before = await accounts('platform_revenue');
    const intent = await pay('1001');
    // 2 % of 1001 = 20.02 → 20, + 10 fixed.
    expect((await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m))).json()).toMatchObject({ fee: '30', net: '971' });
    expect((await accounts('platform_revenue')) - before).toBe(30n);
    await ctx.services.merchants.setFees(m.merchantId, 150, {});
    // EUR: 1.5 % of 12.50 = 0.1875 → 0.19; the merchant's own schedule names no EUR fixed part.
    const eur = await pay('12.50', 'EUR');
    expect((await call(ctx.app, 'GET', `/gateway/${eur.id}`, sk(m))).json()).toMatchObject({ fee: '0.19', net: '12.31' });
    await expectLedgerClean(ctx);
  });

  it('refunds return the fee in proportion, and all of it once all is refunded', async () => {
    const intent = await pay('5000');
    const merchantBefore = await accounts('merchant_balance');
    const revenueBefore = await accounts('platform_revenue');
    for (const amount of ['1234', '2000', '1766']) {
      const res = await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), { amount });
      expect(res.statusCode, res.body).toBe(201);
    }
    expect((await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m))).json()).toMatchObject({ status: 'REFUNDED', amountRefunded: '5000' });
    // The merchant gave back what it received (4 925), the platform its 75.
    expect(merchantBefore - (await accounts('merchant_balance'))).toBe(4925n);
    expect(revenueBefore - (await accounts('platform_revenue'))).toBe(75n);
    await expectLedgerClean(ctx);
  });
});

describe('caisse merchants fees', () => {
  it('sets the schedule and shows it as given: a percentage and major units per currency', async () => {
    const shop = await createMerchant(ctx, 'Fee schedule shop');
    const answer = await runAdminCommand(ctx.services, 'merchants.fees', { merchantId: shop.merchantId, bps: 225, fixedMinor: { EUR: '25', XAF: '50' } });
    expect(answer).toEqual({ merchantId: shop.merchantId, percent: 2.25, fixed: { EUR: '0.25', XAF: '50' } });
  });
});
