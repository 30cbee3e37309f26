/**
 * The rolling reserve: a share of each charge's net held for N days (per merchant, set by the
 * operator), released once by the settlement worker, drawn by refunds that available cannot
 * cover (a refund after a payout). Wallet and direct mobile-money payments; ManualClock time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/admin.ts';
import { createBalancesService } from '../src/modules/balances/index.ts';
import type { LedgerService } from '../src/modules/ledger/index.ts';
import type { MomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import { DAY, HOUR, SECOND } from '../src/platform/clock.ts';
import { reserveOf } from '../src/platform/fees.ts';
import { minorUnits } from '../src/platform/money.ts';
import { appWithSandbox } from './connectors.support.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser } from './flow.support.ts';
import { call, createMerchant, onPostgres, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let sandbox: MomoSandbox;

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithSandbox({ start: new Date('2026-11-23T10:00:00.000Z'), env: { CAISSE_FEE_PERCENT: '1.5' } }));
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

type Entry = { currency: string; available: string; pending: string; reserved: string; nextReleaseOn: string | null };
type Row = { type: string; amount: string; description: string; status: string; availableOn: string; balanceAfter: string };
const xaf = async (m: TestMerchant) =>
  ((await call(ctx.app, 'GET', '/balance', sk(m))).json() as { balances: Entry[] }).balances.find((b) => b.currency === 'XAF') as Entry;
const statement = async (m: TestMerchant) => ((await call(ctx.app, 'GET', '/balance/transactions?limit=100', sk(m))).json() as { data: Row[] }).data;

/** A merchant holding 10 % for 90 days, set as the operator does (`caisse merchants reserve`). */
async function reserveMerchant(name: string) {
  const m = await createMerchant(ctx, name);
  const set = await runAdminCommand(ctx.services, 'merchants.reserve', { merchantId: m.merchantId, reserve: { bps: 1000, days: 90 } });
  expect(set).toEqual({ merchantId: m.merchantId, reserve: { percent: 10, days: 90 } });
  return m;
}

async function pay(m: TestMerchant, amount: string) {
  const user = await newUser(ctx, m, { balance: '1000000' });
  const intent = await createIntent(ctx, m, { amount });
  const res = await charge(ctx, user, intent.id, await authorize(ctx, m, user, intent.id));
  expect(res.statusCode, res.body).toBe(200);
  return intent;
}

const releaseTransfers = (m: TestMerchant) =>
  ctx.deps.db.selectFrom('ledger_transfers').select('id').where('merchant_id', '=', m.merchantId).where('kind', '=', 'reserve_release').execute();

describe('the rolling reserve', () => {
  it('rounds the share half up, like fees', () => {
    expect(reserveOf(minorUnits(9850n), 1000)).toBe(985n);
    expect(reserveOf(minorUnits(15n), 1000)).toBe(2n); // 1.5 → 2
    expect(reserveOf(minorUnits(14n), 1000)).toBe(1n); // 1.4 → 1
    expect(reserveOf(minorUnits(100n), 10_000)).toBe(100n);
    expect(reserveOf(minorUnits(0n), 1000)).toBe(0n);
  });

  it("holds the share of each charge's net, shows it with its release date, and releases it after N days exactly once", async () => {
    const m = await reserveMerchant('Reserve shop');
    const paidAt = ctx.clock.now();
    const intent = await pay(m, '10000');
    // 10 000 − 150 fee = 9 850 net; 10 % of it (985) is held, 8 865 pending.
    const releaseOn = new Date(paidAt.getTime() + 90 * DAY).toISOString();
    expect(await xaf(m)).toEqual({ currency: 'XAF', available: '0', pending: '8865', reserved: '985', nextReleaseOn: releaseOn });
    const rows = await statement(m);
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      ['reserve', '-985'],
      ['fee', '-150'],
      ['charge', '10000'],
    ]);
    expect(rows[0]?.description).toBe(`Reserve for payment ${intent.id}, held until ${releaseOn.slice(0, 10)}`);
    expect(rows[0]?.balanceAfter).toBe('8865');

    // Settled after the 1-day delay: the reserve stays held.
    ctx.clock.advance(DAY);
    await ctx.services.balances.settleDue();
    expect(await xaf(m)).toMatchObject({ available: '8865', pending: '0', reserved: '985' });

    // A second before the 90 days: nothing released.
    ctx.clock.advance(89 * DAY - SECOND);
    expect(await ctx.services.balances.releaseDue()).toBe(0);
    expect(await xaf(m)).toMatchObject({ available: '8865', reserved: '985' });

    // Due: two workers at once (or one again after a crash) release it once.
    ctx.clock.advance(SECOND);
    const released = await Promise.all([ctx.services.balances.releaseDue(), ctx.services.balances.releaseDue()]);
    expect(released[0] + released[1]).toBe(1);
    expect(await ctx.services.balances.releaseDue()).toBe(0);
    expect(await xaf(m)).toEqual({ currency: 'XAF', available: '9850', pending: '0', reserved: '0', nextReleaseOn: null });
    expect(await releaseTransfers(m)).toHaveLength(1);
    const after = await statement(m);
    expect(after[0]).toMatchObject({
      type: 'reserve_release',
      amount: '985',
      status: 'available',
      balanceAfter: '9850',
      description: `Reserve released for payment ${intent.id}`,
    });
    await expectLedgerClean(ctx);
    expect(await ctx.services.balances.differences({ merchantId: m.merchantId, mode: 'test' })).toEqual([]);
  });

  it('a refund after a payout draws on the reserve instead of taking the balance below zero', async () => {
    const m = await reserveMerchant('Refund shop');
    const intent = await pay(m, '10000');
    expect((await call(ctx.app, 'POST', '/test/balance/settle', sk(m))).statusCode).toBe(200);
    // The merchant pays out everything available.
    const payout = await call(ctx.app, 'POST', '/payouts', sk(m), {
      amount: '8865',
      currency: 'XAF',
      destination: { provider: 'mtn_momo', phoneNumber: '+237670000001' },
    });
    expect(payout.statusCode, payout.body).toBe(202);
    expect(await xaf(m)).toMatchObject({ available: '0', reserved: '985' });

    // Refund 1 000: 15 of fee comes back, 985 leaves the merchant, all of it from the reserve.
    const refund = await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), { amount: '1000' });
    expect(refund.statusCode, refund.body).toBe(201);
    expect(await xaf(m)).toMatchObject({ available: '0', reserved: '0', nextReleaseOn: null });
    const rows = await statement(m);
    expect(rows.slice(0, 3).map((r) => [r.type, r.amount, r.status])).toEqual([
      ['fee', '15', 'available'],
      ['refund', '-1000', 'available'],
      ['reserve_release', '985', 'available'],
    ]);
    expect(rows[2]?.description).toMatch(/^Reserve drawn for refund re_/);

    // A larger refund than the reserve holds: the rest goes below zero, as before.
    const more = await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), { amount: '2000' });
    expect(more.statusCode, more.body).toBe(201);
    expect(await xaf(m)).toMatchObject({ available: '-1970', reserved: '0' });

    // The emptied hold is released on its date with nothing to move.
    ctx.clock.advance(91 * DAY);
    expect(await ctx.services.balances.releaseDue()).toBe(1);
    expect(await releaseTransfers(m)).toHaveLength(0);
    expect(await xaf(m)).toMatchObject({ available: '-1970', reserved: '0', nextReleaseOn: null });
    await expectLedgerClean(ctx);
    expect(await ctx.services.balances.differences({ merchantId: m.merchantId, mode: 'test' })).toEqual([]);
    await ctx.services.payouts.drain();
  });

  it("a refund of a payment not yet settled takes back its share of the payment's own hold", async () => {
    const m = await reserveMerchant('Early refund shop');
    const intent = await pay(m, '10000');
    // Half: 75 of fee back, 4 925 leaves the merchant; half the hold (492.5 → 493) with it.
    expect((await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), { amount: '5000' })).statusCode).toBe(201);
    expect(await xaf(m)).toMatchObject({ available: '0', pending: '4433', reserved: '492' });
    const rows = await statement(m);
    expect(rows.slice(0, 3).map((r) => [r.type, r.amount, r.status])).toEqual([
      ['fee', '75', 'pending'],
      ['refund', '-5000', 'pending'],
      ['reserve_release', '493', 'pending'],
    ]);
    // The rest: the whole hold is back, nothing is left anywhere.
    expect((await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), {})).statusCode).toBe(201);
    expect(await xaf(m)).toEqual({ currency: 'XAF', available: '0', pending: '0', reserved: '0', nextReleaseOn: null });
    expect((await call(ctx.app, 'POST', '/test/balance/settle', sk(m))).statusCode).toBe(200);
    expect(await xaf(m)).toMatchObject({ available: '0', pending: '0', reserved: '0' });
    await expectLedgerClean(ctx);
    expect(await ctx.services.balances.differences({ merchantId: m.merchantId, mode: 'test' })).toEqual([]);
  });

  it('a direct mobile-money payment holds the share too; a merchant without a reserve holds nothing; --off stops new holds', async () => {
    const m = await reserveMerchant('Momo reserve shop');
    const intent = await createIntent(ctx, m, { amount: '5000' });
    const started = await call(
      ctx.app,
      'POST',
      '/charge',
      { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
      { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: '+237677099000' } },
    );
    expect(started.statusCode, started.body).toBe(202);
    await ctx.services.attempts.drain();
    ctx.clock.advance(2 * SECOND);
    await sandbox.tick();
    await expect.poll(async () => (await xaf(m)).reserved, { interval: 20, timeout: 5000 }).toBe('493');
    // 5 000 − 75 = 4 925 net, 492.5 → 493 held.
    expect(await xaf(m)).toMatchObject({ pending: '4432' });

    const plain = await createMerchant(ctx, 'No reserve shop');
    await pay(plain, '10000');
    expect(await xaf(plain)).toEqual({ currency: 'XAF', available: '0', pending: '9850', reserved: '0', nextReleaseOn: null });

    expect(await runAdminCommand(ctx.services, 'merchants.reserve', { merchantId: m.merchantId, reserve: null })).toEqual({
      merchantId: m.merchantId,
      reserve: null,
    });
    ctx.clock.advance(HOUR);
    await pay(m, '10000');
    expect(await xaf(m)).toMatchObject({ pending: `${4432 + 9850}`, reserved: '493' });
    await expectLedgerClean(ctx);
  });

  it('a release that fails before its commit leaves the hold to the next round, which releases it once', async () => {
    // Earlier tests' holds released first: this one is then the only one due.
    ctx.clock.advance(366 * DAY);
    await ctx.services.balances.releaseDue();
    const m = await reserveMerchant('Crash shop');
    await pay(m, '10000');
    ctx.clock.advance(90 * DAY);
    // A worker whose transaction dies after the ledger transfer (a crash before the commit).
    let crashed = false;
    const crashing = createBalancesService(ctx.deps, {
      ledger: {
        ...ctx.services.ledger,
        async transfer(...args: Parameters<LedgerService['transfer']>) {
          await ctx.services.ledger.transfer(...args);
          crashed = true;
          throw new Error('process killed');
        },
      },
    });
    await expect(crashing.releaseDue()).rejects.toThrow('process killed');
    expect(crashed).toBe(true);
    expect(await xaf(m)).toMatchObject({ available: '0', reserved: '985' });
    expect(await releaseTransfers(m)).toHaveLength(0);
    expect(await ctx.services.balances.releaseDue()).toBe(1);
    expect(await ctx.services.balances.releaseDue()).toBe(0);
    expect(await xaf(m)).toMatchObject({ reserved: '0', nextReleaseOn: null });
    expect(await releaseTransfers(m)).toHaveLength(1);
    await expectLedgerClean(ctx);
    expect(await ctx.services.balances.differences({ merchantId: m.merchantId, mode: 'test' })).toEqual([]);
  });

  it('ledger verify finds holds that disagree with the reserve account', async () => {
    const m = await reserveMerchant('Checked shop');
    const intent = await pay(m, '10000');
    const scope = { merchantId: m.merchantId, mode: 'test' as const };
    expect(await ctx.services.balances.differences(scope)).toEqual([]);
    await ctx.deps.db.updateTable('reserve_holds').set({ remaining_minor: 900n }).where('source_id', '=', intent.id).execute();
    expect(await ctx.services.balances.differences(scope)).toEqual([
      { type: 'statement', id: `${m.merchantId} test XAF`, detail: "the reserve's holds keep 900 but the reserve account holds 985" },
    ]);
    await ctx.deps.db.updateTable('reserve_holds').set({ remaining_minor: 985n }).where('source_id', '=', intent.id).execute();
  });

  it.runIf(onPostgres)('refunds and releases running at once neither deadlock nor lose a unit (PostgreSQL)', async () => {
    const m = await reserveMerchant('Busy shop');
    const intents = [];
    for (let i = 0; i < 6; i++) {
      intents.push(await pay(m, '10000'));
      ctx.clock.advance(HOUR);
    }
    expect((await call(ctx.app, 'POST', '/test/balance/settle', sk(m))).statusCode).toBe(200);
    // Everything available goes out, then the holds fall due while refunds arrive.
    const payout = await call(ctx.app, 'POST', '/payouts', sk(m), {
      amount: '53190',
      currency: 'XAF',
      destination: { provider: 'mtn_momo', phoneNumber: '+237670000001' },
    });
    expect(payout.statusCode, payout.body).toBe(202);
    ctx.clock.advance(90 * DAY - 3 * HOUR);
    const answers = await Promise.all([
      ...intents.map((intent) => call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), { amount: '1000' })),
      ctx.services.balances.releaseDue(),
      ctx.services.balances.releaseDue(),
    ]);
    for (const res of answers.slice(0, intents.length) as { statusCode: number; body: string }[]) expect(res.statusCode, res.body).toBe(201);
    ctx.clock.advance(DAY);
    await ctx.services.balances.releaseDue();
    // 6 × 985 held; 6 × 985 taken by the refunds (from the reserve or, once released, from available).
    expect(await xaf(m)).toMatchObject({ available: '0', reserved: '0', nextReleaseOn: null });
    await expectLedgerClean(ctx);
    expect(await ctx.services.balances.differences({ merchantId: m.merchantId, mode: 'test' })).toEqual([]);
    await ctx.services.payouts.drain();
  });
});
