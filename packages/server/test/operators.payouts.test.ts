/**
 * Payout review (issue 34, docs/decisions/0041-payout-review.md): a payout above its mode and
 * currency's threshold waits in REVIEW for a finance operator other than the one who set the
 * threshold; approved, it goes to the provider (the MoMo sandbox, over real HTTP); rejected, its
 * money is back in available with `payout.failed`. Two approvals at once: one effect (run it with
 * TEST_DATABASE_URL for PostgreSQL's concurrency). Time is a ManualClock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import { SECOND } from '../src/platform/clock.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser, problem } from './flow.support.ts';
import { call, sk, type TestContext, type TestMerchant } from './harness.ts';
import { consoleWithSandbox, type operatorConsole } from './operators.support.ts';

let ctx: TestContext;
let sandbox: MomoSandbox;
let ops: ReturnType<typeof operatorConsole>;
let shop: TestMerchant;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ ctx, sandbox, ops, shop, close } = await consoleWithSandbox('Reviewed Shop'));
  await ctx.services.merchants.setSettlementDelay(shop.merchantId, 0);
  const user = await newUser(ctx, shop, { balance: '1000000' });
  const intent = await createIntent(ctx, shop, { amount: '500000' });
  expect((await charge(ctx, user, intent.id, await authorize(ctx, shop, user, intent.id))).statusCode).toBe(200);
  await ctx.services.balances.settleDue();
});
afterAll(() => close?.());

const payout = (amount: string) =>
  call(ctx.app, 'POST', '/payouts', sk(shop), { amount, currency: 'XAF', destination: { provider: 'mtn_momo', phoneNumber: '+237670000001' } });
const read = async (id: string) => (await call(ctx.app, 'GET', `/payouts/${id}`, sk(shop))).json() as { status: string; failureReason: string | null };
const available = async () => {
  const b = (await call(ctx.app, 'GET', '/balance', sk(shop))).json() as { balances: { currency: string; available: string }[] };
  return b.balances.find((x) => x.currency === 'XAF')?.available;
};
async function providerDecides() {
  await ctx.services.payouts.drain();
  ctx.clock.advance(2 * SECOND);
  await sandbox.tick();
  // The sandbox's callbacks are answered once recorded; their status reads run behind the answer.
  await ctx.services.callbacks.drain();
}
const sandboxRequests = async () => ((await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as { data: unknown[] }).data.length;

describe('payout review', () => {
  it('a payout above the threshold waits for a second finance operator, then goes to the provider', async () => {
    const setter = await ops.operator('finance');
    const approver = await ops.operator('finance');
    const support = await ops.operator('support');

    const denied = problem(
      await ops.send('PUT', '/operator/api/payouts/thresholds', support, { mode: 'test', currency: 'XAF', amount: '10000' }),
      403,
      'permission_denied',
    );
    expect(denied).toMatchObject({ permission: 'payouts:thresholds' });
    problem(await ops.send('PUT', '/operator/api/payouts/thresholds', setter, { mode: 'test', currency: 'XAF', amount: '12.5' }), 400, 'amount_invalid');
    const set = await ops.send('PUT', '/operator/api/payouts/thresholds', setter, { mode: 'test', currency: 'XAF', amount: '10000' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual([
      expect.objectContaining({ livemode: false, currency: 'XAF', amount: '10000', setBy: { id: setter.id, email: setter.email } }),
    ]);

    // At the threshold: not above it, straight to the provider.
    const small = (await payout('10000')).json();
    expect(small.status).toBe('PENDING');
    await ctx.services.payouts.drain();
    const before = await available();
    const requestsBefore = await sandboxRequests();
    const big = await payout('20000');
    expect(big.statusCode, big.body).toBe(202);
    expect(big.json().status).toBe('REVIEW');
    const id = big.json().id as string;
    // The money is set aside at once; the provider hears nothing.
    expect(Number(await available())).toBe(Number(before) - 20000);
    await providerDecides();
    expect(await read(id)).toMatchObject({ status: 'REVIEW' });
    expect(await read(small.id)).toMatchObject({ status: 'PAID' });
    expect(await sandboxRequests()).toBe(requestsBefore);
    // The merchant lists it by its state.
    const listed = (await call(ctx.app, 'GET', '/payouts?status=REVIEW', sk(shop))).json();
    expect(listed.data.map((p: { id: string }) => p.id)).toEqual([id]);

    const queue = (await ops.send('GET', '/operator/api/payouts/review', approver)).json();
    expect(queue.data).toEqual([expect.objectContaining({ id, merchantId: shop.merchantId, amount: '20000', thresholdSetBy: setter.id })]);
    // Four eyes: the one who set the threshold does not decide.
    problem(await ops.send('POST', `/operator/api/payouts/${id}/approve`, setter, {}), 403, 'four_eyes_required');
    problem(await ops.send('POST', `/operator/api/payouts/${id}/approve`, support, {}), 403, 'permission_denied');
    expect(await read(id)).toMatchObject({ status: 'REVIEW' });

    const approved = await ops.send('POST', `/operator/api/payouts/${id}/approve`, approver, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ id, status: 'PENDING' });
    await providerDecides();
    expect(await read(id)).toMatchObject({ status: 'PAID' });
    problem(await ops.send('POST', `/operator/api/payouts/${id}/reject`, approver, { reason: 'too late' }), 409, 'payout_state_invalid');

    const audit = (await ops.send('GET', `/operator/api/audit?targetId=${id}`, await ops.operator('admin'))).json();
    expect(audit.data).toEqual([
      expect.objectContaining({
        action: 'payout.approved',
        actor: { id: approver.id, email: approver.email },
        before: { status: 'REVIEW' },
        after: expect.objectContaining({ status: 'PENDING' }),
      }),
    ]);
    const thresholdAudit = (await ops.send('GET', '/operator/api/audit?targetId=test:XAF', await ops.operator('admin'))).json();
    expect(thresholdAudit.data[0]).toMatchObject({ action: 'payout.threshold_set', before: null, after: expect.objectContaining({ amount: '10000' }) });
    await expectLedgerClean(ctx);
  });

  it('a rejected payout gives the balance back, with payout.failed, and never reaches the provider', async () => {
    const reviewer = await ops.operator('finance');
    const before = await available();
    const requestsBefore = await sandboxRequests();
    const held = (await payout('30000')).json();
    expect(held.status).toBe('REVIEW');
    expect(Number(await available())).toBe(Number(before) - 30000);

    problem(await ops.send('POST', `/operator/api/payouts/${held.id}/reject`, reviewer, {}), 400, 'validation_error');
    const rejected = await ops.send('POST', `/operator/api/payouts/${held.id}/reject`, reviewer, { reason: 'Destination not on file' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ status: 'FAILED', failureReason: 'REVIEW_REJECTED' });
    expect(await available()).toBe(before);
    await providerDecides();
    expect(await sandboxRequests()).toBe(requestsBefore);
    const events = await ctx.deps.db
      .selectFrom('events')
      .select('payload')
      .where('merchant_id', '=', shop.merchantId)
      .where('type', '=', 'payout.failed')
      .execute();
    expect(events.filter((e) => e.payload.includes(held.id))).toHaveLength(1);
    const audit = (await ops.send('GET', `/operator/api/audit?targetId=${held.id}`, await ops.operator('admin'))).json();
    expect(audit.data[0]).toMatchObject({
      action: 'payout.rejected',
      reason: 'Destination not on file',
      after: { status: 'FAILED', failureReason: 'REVIEW_REJECTED' },
    });
    await expectLedgerClean(ctx);
  });

  it('two operators approving one payout at once: one effect', async () => {
    const [a, b] = [await ops.operator('finance'), await ops.operator('admin')];
    const requestsBefore = await sandboxRequests();
    const held = (await payout('40000')).json();
    expect(held.status).toBe('REVIEW');
    const answers = await Promise.all([
      ops.send('POST', `/operator/api/payouts/${held.id}/approve`, a, {}),
      ops.send('POST', `/operator/api/payouts/${held.id}/approve`, b, {}),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    await providerDecides();
    expect(await read(held.id)).toMatchObject({ status: 'PAID' });
    expect(await sandboxRequests()).toBe(requestsBefore + 1);
    const audit = (await ops.send('GET', `/operator/api/audit?targetId=${held.id}`, b)).json();
    expect(audit.data.filter((e: { action: string }) => e.action === 'payout.approved')).toHaveLength(1);
    const transfers = await ctx.deps.db.selectFrom('ledger_transfers').select('kind').where('reference', '=', held.id).execute();
    expect(transfers.map((t) => t.kind).sort()).toEqual(['payout', 'payout_paid']);
    await expectLedgerClean(ctx);
  });

  it('without a threshold, or after it is removed, nothing is held', async () => {
    const finance = await ops.operator('finance');
    const removed = await ops.send('PUT', '/operator/api/payouts/thresholds', finance, { mode: 'test', currency: 'XAF', amount: null });
    expect(removed.json().data).toEqual([]);
    expect((await payout('50000')).json().status).toBe('PENDING');
    await providerDecides();
  });
});
