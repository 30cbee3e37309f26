/**
 * Refunds of payments made directly with mobile money: back to the payer's number through the
 * provider (MTN MoMo: a transfer), 202 PENDING with the money held out of the merchant's balance,
 * then SUCCEEDED (payment.refunded) or FAILED (refund.failed, the money back); and a late payment
 * returned by itself. Against the MoMo sandbox (real HTTP); time is the shared ManualClock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import { DAY, MINUTE, SECOND } from '../src/platform/clock.ts';
import { appWithSandbox, withCollectionOnlyMomo } from './connectors.support.ts';
import { createIntent, eventTypes, expectLedgerClean } from './flow.support.ts';
import { call, createMerchant, dashboardBrowserOf, dashboardCall, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let sandbox: MomoSandbox;
let m: TestMerchant;

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithSandbox());
  m = await createMerchant(ctx, 'Momo refunds');
  await ctx.services.merchants.setFees(m.merchantId, 150, {});
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

let numbers = 0;
/** A new MTN Cameroon number (each test its own, so the prompt limits stay apart). */
const mtn = (suffix = '000') => `+2376771${String(++numbers).padStart(2, '0')}${suffix}`;

type Intent = { status: string; amountRefunded: string; attempts: { late: boolean; status: string }[] };
type Refund = { id: string; status: string; amount: string; reason: string | null };
const read = async (id: string) => (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as Intent;
const refund = (id: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  call(ctx.app, 'POST', `/gateway/${id}/refunds`, { ...sk(m), headers }, body);
const pending = async () => {
  const balance = (await call(ctx.app, 'GET', '/balance', sk(m))).json() as { balances: { currency: string; pending: string }[] };
  return balance.balances.find((b) => b.currency === 'XAF')?.pending;
};
const statement = async (source: string) =>
  (
    (await call(ctx.app, 'GET', '/balance/transactions?limit=100', sk(m))).json() as {
      data: { type: string; amount: string; source: string | null; status: string }[];
    }
  ).data
    .filter((t) => t.source === source)
    .map((t) => [t.type, t.amount])
    .sort();
/** The provider requests (MTN transfers) made to this number. */
const transfersTo = (phone: string) => sandbox.requests().filter((r) => r.kind === 'disbursement' && r.partyId === phone.slice(1));

/** Lets the provider calls started in the background finish, moves time, and polls what is due (the one poller: attempts and refunds alike). */
async function later(ms = 2 * SECOND) {
  await ctx.services.callbacks.drain();
  ctx.clock.advance(ms);
  await sandbox.tick();
  await ctx.services.callbacks.pollDue();
  await ctx.services.callbacks.drain();
}

/** An intent of 5 000 XAF paid directly by `phone` (fee 75, net 4 925). */
async function paidDirectly(phone: string) {
  const intent = await createIntent(ctx, m);
  const started = await call(
    ctx.app,
    'POST',
    '/charge',
    { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
    { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: phone } },
  );
  expect(started.statusCode, started.body).toBe(202);
  await later();
  expect((await read(intent.id)).status).toBe('SUCCEEDED');
  return intent;
}

describe('refunds of direct mobile-money payments', () => {
  it('202 PENDING with the money held; the transfer to the payer succeeds: PARTIALLY_REFUNDED then REFUNDED', async () => {
    const phone = mtn();
    const intent = await paidDirectly(phone);
    const before = await pending();

    const res = await refund(intent.id, { amount: '2000', reason: 'damaged' });
    expect(res.statusCode, res.body).toBe(202);
    const asked = res.json() as Refund;
    expect(asked).toMatchObject({
      id: expect.stringMatching(/^re_/),
      object: 'refund',
      status: 'PENDING',
      amount: '2000',
      currency: 'XAF',
      intentId: intent.id,
      reason: 'damaged',
      // Through the payment's own connector and account.
      connector: 'mtn_momo',
      providerAccount: 'pac_sandbox_mtn_momo',
    });
    // Held out of the merchant's balance at once (the fee comes back in proportion: 30 of 75).
    expect(Number(before) - Number(await pending())).toBe(1970);
    expect(await statement(asked.id)).toEqual([
      ['fee', '30'],
      ['refund', '-2000'],
    ]);
    // The intent changes only when the provider has paid; what is held counts against what is left.
    expect(await read(intent.id)).toMatchObject({ status: 'SUCCEEDED', amountRefunded: '0' });
    expect((await refund(intent.id, { amount: '3001' })).json()).toMatchObject({ status: 422, code: 'refund_exceeds_amount', amountRefundable: '3000' });

    await later();
    expect(await read(intent.id)).toMatchObject({ status: 'PARTIALLY_REFUNDED', amountRefunded: '2000' });
    const [transfer] = transfersTo(phone);
    expect(transfer).toMatchObject({ kind: 'disbursement', amount: '2000', currency: 'XAF' });
    const events = await ctx.deps.db
      .selectFrom('events')
      .select(['type', 'payload'])
      .where('intent_id', '=', intent.id)
      .where('type', '=', 'payment.refunded')
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]?.payload ?? '{}').data).toMatchObject({
      paymentIntent: { status: 'PARTIALLY_REFUNDED' },
      refund: { id: asked.id, status: 'SUCCEEDED' },
    });

    // The rest, by default; polls after the outcome change nothing.
    const rest = await refund(intent.id);
    expect(rest.json()).toMatchObject({ status: 'PENDING', amount: '3000' });
    await later();
    await later();
    expect(await read(intent.id)).toMatchObject({ status: 'REFUNDED', amountRefunded: '5000' });
    expect(transfersTo(phone)).toHaveLength(2);
    expect(Number(before) - Number(await pending())).toBe(4925);
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.processing', 'payment.completed', 'payment.refunded', 'payment.refunded']);
    expect((await refund(intent.id)).json()).toMatchObject({ status: 409, code: 'intent_state_invalid' });
    await expectLedgerClean(ctx);
  });

  it('concurrent refunds of one mobile-money payment never hold or send more than it', async () => {
    const phone = mtn();
    const intent = await paidDirectly(phone);
    const before = await pending();
    // Twelve ask 1 000 of 5 000 at once: what is held while the provider pays counts against the rest.
    const answers = await Promise.all(Array.from({ length: 12 }, () => refund(intent.id, { amount: '1000' })));
    const accepted = answers.filter((r) => r.statusCode === 202);
    expect(accepted).toHaveLength(5);
    for (const r of answers.filter((a) => a.statusCode !== 202)) {
      expect(r.json(), r.body).toMatchObject({ code: expect.stringMatching(/^(refund_exceeds_amount|intent_state_invalid)$/) });
    }
    expect(accepted.map((r) => (r.json() as Refund).status)).toEqual(Array(5).fill('PENDING'));
    expect(Number(before) - Number(await pending())).toBe(4925);
    await later();
    await later();
    expect(await read(intent.id)).toMatchObject({ status: 'REFUNDED', amountRefunded: '5000' });
    const sent = transfersTo(phone);
    expect(sent).toHaveLength(5);
    expect(sent.reduce((sum, t) => sum + Number(t.amount), 0)).toBe(5000);
    expect(Number(before) - Number(await pending())).toBe(4925);
    expect((await eventTypes(ctx, intent.id)).filter((t) => t === 'payment.refunded')).toHaveLength(5);
    await expectLedgerClean(ctx);
  });

  it('a provider without an answer keeps the refund PENDING; a FAILED transfer gives the merchant its money back (refund.failed)', async () => {
    const phone = mtn();
    const intent = await paidDirectly(phone);
    const before = await pending();

    sandbox.setFaults({ answer500: true });
    const asked = (await refund(intent.id, {}, { 'idempotency-key': 'rf-1' })).json() as Refund;
    expect(asked.status).toBe('PENDING');
    const replay = await refund(intent.id, {}, { 'idempotency-key': 'rf-1' });
    expect(replay.statusCode).toBe(202);
    expect((replay.json() as Refund).id).toBe(asked.id);
    // 500s say nothing about the money: never read as FAILED.
    await later();
    await later(10 * SECOND);
    expect(await read(intent.id)).toMatchObject({ status: 'SUCCEEDED', amountRefunded: '0' });
    const row = await ctx.deps.db.selectFrom('mobile_money_refunds').selectAll().where('id', '=', asked.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('PENDING');
    sandbox.setFaults({ answer500: false });

    // The provider refuses the transfer.
    await later(60 * SECOND);
    const [transfer] = transfersTo(phone);
    expect(transfer).toBeDefined();
    sandbox.override(transfer?.referenceId ?? '', { status: 'FAILED', reason: 'PAYEE_NOT_FOUND' });
    await later(60 * SECOND);
    const failed = await ctx.deps.db.selectFrom('mobile_money_refunds').selectAll().where('id', '=', asked.id).executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: 'FAILED', failure_reason: 'PAYEE_NOT_FOUND' });
    expect(await read(intent.id)).toMatchObject({ status: 'SUCCEEDED', amountRefunded: '0' });
    expect(await pending()).toBe(before);
    expect(await statement(asked.id)).toEqual([
      ['fee', '-75'],
      ['fee', '75'],
      ['refund', '-5000'],
      ['refund_reversal', '5000'],
    ]);
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.processing', 'payment.completed', 'refund.failed']);
    const event = await ctx.deps.db
      .selectFrom('events')
      .select('payload')
      .where('intent_id', '=', intent.id)
      .where('type', '=', 'refund.failed')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.payload).data.refund).toMatchObject({ id: asked.id, status: 'FAILED', failureCode: 'payee_not_found' });
    // It can be asked again.
    expect((await refund(intent.id)).statusCode).toBe(202);
    await later();
    expect(await read(intent.id)).toMatchObject({ status: 'REFUNDED' });
    await expectLedgerClean(ctx);
  }, 30_000);

  it('a provider that can neither refund nor transfer: 409 refund_unsupported, nothing held', async () => {
    const intent = await paidDirectly(mtn());
    // As if Orange Money (collection only) had taken it: its connector decides (a refund goes back through it).
    await ctx.deps.db.updateTable('payment_attempts').set({ provider: 'orange_money', connector: 'orange_money' }).where('intent_id', '=', intent.id).execute();
    const before = await pending();
    expect((await refund(intent.id)).json()).toMatchObject({ status: 409, code: 'refund_unsupported' });
    expect(await pending()).toBe(before);
    expect(await ctx.deps.db.selectFrom('mobile_money_refunds').select('id').where('intent_id', '=', intent.id).execute()).toEqual([]);
    // MTN has it: as it was, for the reconciliation below.
    await ctx.deps.db.updateTable('payment_attempts').set({ provider: 'mtn_momo', connector: 'mtn_momo' }).where('intent_id', '=', intent.id).execute();
  });

  it("a card payment taken by an aggregator: 409 refund_unsupported saying why (CinetPay's has no refund), nothing held", async () => {
    const intent = await paidDirectly(mtn());
    // As if CinetPay had taken it by card on its page.
    await ctx.deps.db.updateTable('payment_attempts').set({ provider: 'card', connector: 'cinetpay' }).where('intent_id', '=', intent.id).execute();
    const before = await pending();
    expect((await refund(intent.id)).json()).toMatchObject({
      status: 409,
      code: 'refund_unsupported',
      detail: expect.stringContaining('CinetPay cannot refund this payment'),
    });
    expect(await pending()).toBe(before);
    expect(await ctx.deps.db.selectFrom('mobile_money_refunds').select('id').where('intent_id', '=', intent.id).execute()).toEqual([]);
    // A refund made outside Caisse can then be recorded (decision 0072).
    await ctx.deps.db.updateTable('payment_attempts').set({ provider: 'mtn_momo', connector: 'mtn_momo' }).where('intent_id', '=', intent.id).execute();
  });

  it('an MTN account with a collection key only: 409 refund_unsupported saying why, nothing held', async () => {
    const intent = await paidDirectly(mtn());
    const before = await pending();
    await withCollectionOnlyMomo(ctx, sandbox.url, async () => {
      expect((await refund(intent.id)).json()).toMatchObject({
        status: 409,
        code: 'refund_unsupported',
        detail: expect.stringContaining('this MTN MoMo account has no disbursement key'),
      });
      // Said before anyone tries: the settings show MTN without refunds or payouts in this mode.
      const settings = (await call(ctx.app, 'GET', '/payment-methods/settings', sk(m))).json() as { providers: { provider: string; capabilities: object }[] };
      expect(settings.providers.find((p) => p.provider === 'mtn_momo')?.capabilities).toEqual({ collect: true, disburse: false, refund: false });
    });
    expect(await pending()).toBe(before);
    expect(await ctx.deps.db.selectFrom('mobile_money_refunds').select('id').where('intent_id', '=', intent.id).execute()).toEqual([]);
    // With its disbursement key back, the same payment is refunded.
    expect((await refund(intent.id)).statusCode).toBe(202);
    await later();
    expect((await read(intent.id)).status).toBe('REFUNDED');
  }, 30_000);

  it('a success the provider reports after the 15 minutes this side waited is returned to the payer too (late_payment)', async () => {
    const phone = mtn('102');
    const intent = await createIntent(ctx, m, { expiresIn: 3600 });
    const started = await call(
      ctx.app,
      'POST',
      '/charge',
      { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
      { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: phone } },
    );
    expect(started.statusCode, started.body).toBe(202);
    await later();
    // The provider never answers: after 15 minutes the attempt fails and the intent may be paid again.
    await later(16 * MINUTE);
    expect(await read(intent.id)).toMatchObject({ status: 'PENDING', attempts: [{ status: 'FAILED', failureCode: 'approval_timeout' }] });
    const before = await pending();
    // Then it says the payer approved after all, and calls back (twice: the second changes nothing).
    const [collection] = sandbox.requests().filter((r) => r.kind === 'collection' && r.partyId === phone.slice(1));
    sandbox.override(collection?.referenceId ?? '', { status: 'SUCCESSFUL' });
    expect(sandbox.callBack(collection?.referenceId ?? '')).toBe(true);
    await later();
    expect(sandbox.callBack(collection?.referenceId ?? '')).toBe(true);
    await later();
    const [back] = transfersTo(phone);
    expect(back).toMatchObject({ amount: '5000' });
    sandbox.override(back?.referenceId ?? '', { status: 'SUCCESSFUL' });
    await later();
    await later();
    expect((await read(intent.id)).attempts[0]).toMatchObject({ status: 'SUCCEEDED', late: true, failureCode: null });
    const refunds = await ctx.deps.db.selectFrom('mobile_money_refunds').selectAll().where('intent_id', '=', intent.id).execute();
    expect(refunds).toMatchObject([{ reason: 'late_payment', status: 'SUCCEEDED', amount_minor: 5000n }]);
    expect(transfersTo(phone)).toHaveLength(1);
    // The intent is untouched and the merchant's balance never saw the money.
    expect(await read(intent.id)).toMatchObject({ status: 'PENDING', amountRefunded: '0' });
    expect(await pending()).toBe(before);
    await expectLedgerClean(ctx);
  });

  it('a success the intent can no longer take is returned to the payer once (late_payment), never from the merchant', async () => {
    const phone = mtn('102');
    const intent = await createIntent(ctx, m);
    expect(
      (
        await call(
          ctx.app,
          'POST',
          '/charge',
          { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
          { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: phone } },
        )
      ).statusCode,
    ).toBe(202);
    await later();
    // The intent ends another way while the provider still holds the request (here: set by hand).
    await ctx.deps.db.updateTable('intents').set({ status: 'CANCELED' }).where('id', '=', intent.id).execute();
    const before = await pending();
    const [collection] = sandbox.requests().filter((r) => r.kind === 'collection' && r.partyId === phone.slice(1));
    sandbox.override(collection?.referenceId ?? '', { status: 'SUCCESSFUL' });
    await later();
    await later();
    // The number never answers by itself (102): the transfer back is approved by hand too.
    const [back] = transfersTo(phone);
    expect(back).toMatchObject({ amount: '5000' });
    sandbox.override(back?.referenceId ?? '', { status: 'SUCCESSFUL' });
    await later();
    await later();

    const attempt = (await read(intent.id)).attempts[0];
    expect(attempt).toMatchObject({ status: 'SUCCEEDED', late: true });
    const refunds = await ctx.deps.db.selectFrom('mobile_money_refunds').selectAll().where('intent_id', '=', intent.id).execute();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ reason: 'late_payment', late: true, status: 'SUCCEEDED', amount_minor: 5000n, fee_returned_minor: 0n });
    expect(transfersTo(phone)).toHaveLength(1);
    // In and out of the clearing account of the attempt's provider account (the refund's is the payment's).
    const clearing = await ctx.deps.db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_transfers as t', 't.id', 'p.transfer_id')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['t.kind', 'a.name', 'a.connector', 'p.amount'])
      .where('a.kind', '=', 'provider_clearing')
      .where('t.reference', 'in', [refunds[0]?.attempt_id ?? '', refunds[0]?.id ?? ''])
      .orderBy('p.id')
      .execute();
    expect(clearing).toEqual([
      { kind: 'late_payment', name: 'pac_sandbox_mtn_momo', connector: 'mtn_momo', amount: -5000n },
      { kind: 'refund_paid', name: 'pac_sandbox_mtn_momo', connector: 'mtn_momo', amount: 5000n },
    ]);
    // Not the merchant's money at any point; shown in the statement, amount 0.
    expect(await pending()).toBe(before);
    expect(await statement(refunds[0]?.id ?? '')).toEqual([['late_payment', '0']]);
    expect(await read(intent.id)).toMatchObject({ status: 'CANCELED', amountRefunded: '0' });
    // The dashboard's payment detail lists the return.
    const owner = dashboardBrowserOf(await dashboardCall(ctx.app, 'POST', '/dashboard/api/login', undefined, m.dashboard));
    const detail = (await dashboardCall(ctx.app, 'GET', `/dashboard/api/test/payments/${intent.id}`, owner)).json() as { refunds: Refund[]; payment: Intent };
    expect(detail.refunds).toEqual([expect.objectContaining({ id: refunds[0]?.id, reason: 'late_payment', status: 'SUCCEEDED', amount: '5000' })]);
    expect(detail.payment.attempts).toEqual([expect.objectContaining({ late: true })]);
    // No refund of a payment the merchant never received.
    expect((await refund(intent.id)).json()).toMatchObject({ status: 409, code: 'intent_state_invalid' });
    await expectLedgerClean(ctx);
  });

  it('reconciliation checks attempts and refunds against the provider: they agree, and a refund the provider did not pay is a mismatch', async () => {
    const now = ctx.clock.now();
    const period = { provider: 'mtn_momo', mode: 'test' as const, from: new Date(now.getTime() - DAY), to: new Date(now.getTime() + MINUTE) };
    const agreed = await ctx.services.reconciliation.reconcile(period);
    expect(agreed.mismatches).toEqual([]);
    expect(agreed.checked.attempts).toBeGreaterThanOrEqual(4);
    expect(agreed.checked.refunds).toBeGreaterThanOrEqual(4);
    expect(agreed.listing).toMatchObject({ source: 'provider', ok: true });

    const paid = await ctx.deps.db
      .selectFrom('mobile_money_refunds')
      .selectAll()
      .where('status', '=', 'SUCCEEDED')
      .where('merchant_id', '=', m.merchantId)
      .executeTakeFirstOrThrow();
    sandbox.override(paid.reference, { status: 'FAILED', reason: 'PAYEE_NOT_FOUND' });
    const disagreed = await ctx.services.reconciliation.reconcile(period);
    expect(disagreed.mismatches).toEqual([expect.objectContaining({ kind: 'status', object: 'refund', id: paid.id, reference: paid.reference })]);
  });
});
