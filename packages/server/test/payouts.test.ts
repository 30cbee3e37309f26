/**
 * Money out (docs/spec/money-out.md) over HTTP: settlement from pending to available, the balance
 * statement and its CSV, payouts through the mtn_momo connector against the MoMo sandbox (a
 * real HTTP server; the app listens for its callbacks), payout.paid verified with Stripe's
 * library, failures, provider outages, negative balances and schedules. Time is a ManualClock.
 */
import { parse } from 'csv-parse/sync';
import Stripe from 'stripe';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import { createDispatcher } from '../src/modules/webhooks/index.ts';
import { DAY, MINUTE, SECOND } from '../src/platform/clock.ts';
import { appWithSandbox, withCollectionOnlyMomo } from './connectors.support.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser } from './flow.support.ts';
import { call, createMerchant, onPostgres, sk, type TestContext, type TestMerchant } from './harness.ts';
import { startReceiver } from './webhooks.receiver.ts';

let ctx: TestContext;
let sandbox: MomoSandbox;

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithSandbox({
    start: new Date('2026-11-23T10:00:00.000Z'),
    env: { CAISSE_FEE_PERCENT: '1.5', CAISSE_WEBHOOK_ALLOW_LOOPBACK: 'true' },
  }));
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

const PAYEE = '+237670000001';
const FAILS = '+237650000103';

type Balance = {
  available: { currency: string; amount: string }[];
  pending: { currency: string; amount: string }[];
  balances: { currency: string; available: string; pending: string }[];
};
const balance = async (m: TestMerchant) => (await call(ctx.app, 'GET', '/balance', sk(m))).json() as Balance;
const xaf = (b: Balance) => b.balances.find((x) => x.currency === 'XAF') ?? { available: '0', pending: '0' };

async function pay(m: TestMerchant, amount: string) {
  const user = await newUser(ctx, m, { balance: '1000000' });
  const intent = await createIntent(ctx, m, { amount });
  const res = await charge(ctx, user, intent.id, await authorize(ctx, m, user, intent.id));
  expect(res.statusCode, res.body).toBe(200);
  return { intent, user };
}

const payout = (m: TestMerchant, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(
    ctx.app,
    'POST',
    '/payouts',
    { ...sk(m), headers },
    { amount: '1000', currency: 'XAF', destination: { provider: 'mtn_momo', phoneNumber: PAYEE }, ...body },
  );
const readPayout = async (m: TestMerchant, id: string) =>
  (await call(ctx.app, 'GET', `/payouts/${id}`, sk(m))).json() as { status: string; failureReason: string | null };

/** Lets the submit made after the answer finish, then the provider decide and call back. */
async function providerDecides(ms = 2 * SECOND) {
  await ctx.services.payouts.drain();
  ctx.clock.advance(ms);
  await sandbox.tick();
  // Callbacks are answered once recorded; their status reads run behind the answer.
  await ctx.services.callbacks.drain();
}

async function merchantWithDelay(name: string, days: number) {
  const m = await createMerchant(ctx, name);
  await ctx.services.merchants.setSettlementDelay(m.merchantId, days);
  return m;
}

describe('settlement and the balance', () => {
  it('a charge is pending for the delay, then the worker makes it available; refunds of unsettled charges come out of pending', async () => {
    const m = await merchantWithDelay('Settle shop', 1);
    await pay(m, '5000');
    expect(xaf(await balance(m))).toEqual({ currency: 'XAF', available: '0', pending: '4925', reserved: '0', nextReleaseOn: null });
    // Not yet due: nothing moves.
    await ctx.services.balances.settleDue();
    expect(xaf(await balance(m))).toMatchObject({ available: '0', pending: '4925' });

    const { intent } = await pay(m, '2000');
    const refund = await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), { amount: '1000' });
    expect(refund.statusCode, refund.body).toBe(201);
    // 2000 − 30 fee = 1970 pending, less the refund of 1000 with 15 of fee back: 985.
    expect(xaf(await balance(m))).toMatchObject({ available: '0', pending: '5910' });

    ctx.clock.advance(DAY);
    await ctx.services.balances.settleDue();
    expect(xaf(await balance(m))).toMatchObject({ available: '5910', pending: '0' });
    // A refund of a settled charge comes out of available.
    await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), {});
    expect(xaf(await balance(m))).toMatchObject({ available: '4925', pending: '0' });
    expect(await ctx.services.balances.differences({ merchantId: m.merchantId, mode: 'test' })).toEqual([]);
    await expectLedgerClean(ctx);
    // `ledger verify` checks every statement against the books: a total off by one is reported.
    expect(await ctx.services.balances.verifyStatements()).toEqual([]);
    const tamper = (by: number) => sql`update balance_totals set total_minor = total_minor + ${by} where merchant_id = ${m.merchantId}`.execute(ctx.deps.db);
    await tamper(1);
    expect(await ctx.services.balances.verifyStatements()).toEqual([
      { type: 'statement', id: `${m.merchantId} test XAF`, detail: "the balance statement's total is 4926 but the ledger holds 4925" },
    ]);
    await tamper(-1);
  });

  it('the statement lists charges, fees, refunds with running balances; filters; cursor; bad input', async () => {
    const m = await merchantWithDelay('Statement shop', 0);
    await pay(m, '5000');
    const { intent } = await pay(m, '1000');
    await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), {});
    const list = (await call(ctx.app, 'GET', '/balance/transactions?limit=100', sk(m))).json() as {
      data: { type: string; amount: string; balanceAfter: string; status: string; source: string }[];
      hasMore: boolean;
    };
    expect(list.data.map((t) => [t.type, t.amount, t.balanceAfter])).toEqual([
      ['fee', '15', '4925'],
      ['refund', '-1000', '4910'],
      ['fee', '-15', '5910'],
      ['charge', '1000', '5925'],
      ['fee', '-75', '4925'],
      ['charge', '5000', '5000'],
    ]);
    const page1 = (await call(ctx.app, 'GET', '/balance/transactions?limit=2', sk(m))).json() as { data: { id: string }[]; hasMore: boolean };
    expect(page1.hasMore).toBe(true);
    const page2 = (await call(ctx.app, 'GET', `/balance/transactions?limit=2&startingAfter=${page1.data[1]?.id}`, sk(m))).json() as {
      data: { type: string }[];
    };
    expect(page2.data.map((t) => t.type)).toEqual(['fee', 'charge']);
    const fees = (await call(ctx.app, 'GET', '/balance/transactions?type=fee', sk(m))).json() as { data: unknown[] };
    expect(fees.data).toHaveLength(3);
    const tomorrow = new Date(ctx.clock.now().getTime() + DAY).toISOString().slice(0, 10);
    expect(((await call(ctx.app, 'GET', `/balance/transactions?from=${tomorrow}`, sk(m))).json() as { data: unknown[] }).data).toHaveLength(0);

    for (const q of ['from=yesterday', 'to=2026-02-30', "from=' OR '1'='1", 'type=bonus', 'currency=ZZZ', 'limit=0', 'startingAfter=btx_nope']) {
      const res = await call(ctx.app, 'GET', `/balance/transactions?${q}`, sk(m));
      expect(res.statusCode, q).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, q).toBeLessThan(500);
      expect(res.headers['content-type'], q).toContain('application/problem+json');
    }
    // Another merchant's statement is not this one's.
    const other = await createMerchant(ctx, 'Other shop');
    expect(((await call(ctx.app, 'GET', '/balance/transactions', sk(other))).json() as { data: unknown[] }).data).toEqual([]);
  });
});

describe('payouts', () => {
  it('5 000 XAF at 1.5 %: 4 925 pending, available, paid out to the sandbox; payout.paid verifies with Stripe; the CSV adds up', async () => {
    const m = await merchantWithDelay('Payout shop', 0);
    const receiver = await startReceiver();
    const endpoint = (
      await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: receiver.url, enabledEvents: ['payout.paid', 'payout.failed'] })
    ).json() as { secret: string };
    const day = ctx.clock.now().toISOString().slice(0, 10);

    await pay(m, '5000');
    expect(xaf(await balance(m))).toMatchObject({ available: '0', pending: '4925' });
    // Nothing to pay out yet.
    expect((await payout(m, { amount: '4925' })).json()).toMatchObject({ status: 409, code: 'balance_insufficient' });
    await ctx.services.balances.settleDue();
    expect(xaf(await balance(m))).toMatchObject({ available: '4925', pending: '0' });

    const res = await payout(m, { amount: '4925' }, { 'idempotency-key': 'po-1' });
    expect(res.statusCode, res.body).toBe(202);
    const created = res.json() as { id: string; status: string };
    expect(created).toMatchObject({
      object: 'payout',
      status: 'PENDING',
      amount: '4925',
      currency: 'XAF',
      destination: { provider: 'mtn_momo', phoneNumber: PAYEE },
      connector: 'mtn_momo',
      providerAccount: 'pac_sandbox_mtn_momo',
      method: 'manual',
    });
    expect(created.id).toMatch(/^po_/);
    expect(xaf(await balance(m))).toMatchObject({ available: '0', pending: '0' });
    // A retry with the key replays; it does not pay twice.
    const again = await payout(m, { amount: '4925' }, { 'idempotency-key': 'po-1' });
    expect(again.json()).toMatchObject({ id: created.id });

    await providerDecides();
    await expect.poll(async () => (await readPayout(m, created.id)).status, { interval: 20, timeout: 5000 }).toBe('PAID');
    const sent = sandbox.requests().filter((r) => r.externalId === created.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: 'disbursement', amount: '4925', currency: 'XAF', partyId: '237670000001', status: 'SUCCESSFUL' });
    // Into the clearing account of the payout's provider account, which names its connector.
    const into = await ctx.deps.db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_transfers as t', 't.id', 'p.transfer_id')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['a.name', 'a.connector', 'p.amount'])
      .where('t.reference', '=', created.id)
      .where('a.kind', '=', 'provider_clearing')
      .execute();
    expect(into).toEqual([{ name: 'pac_sandbox_mtn_momo', connector: 'mtn_momo', amount: 4925n }]);

    await createDispatcher(ctx.deps, { timeoutMs: 2000 }).runOnce();
    const got = receiver.received.find((r) => r.body.includes(created.id));
    expect(got).toBeDefined();
    const stripe = new Stripe('sk_test_unused');
    const event = stripe.webhooks.constructEvent(
      got?.body ?? '',
      String(got?.headers['pay-signature']),
      endpoint.secret,
      300,
      undefined,
      ctx.clock.now().getTime(),
    ) as unknown as {
      type: string;
      data: { payout: { id: string; status: string } };
    };
    expect(event).toMatchObject({ type: 'payout.paid', data: { payout: { id: created.id, status: 'PAID' } } });
    await receiver.close();

    const csv = await call(ctx.app, 'GET', `/balance/transactions.csv?from=${day}&to=${day}`, sk(m));
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename=".+\.csv"$/);
    expect(csv.body).toMatch(/^id,created_at,type,source,description,currency,amount,balance_after,status,available_on,connector,provider_account\r\n/);
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.type, r.amount, r.balance_after])).toEqual([
      ['charge', '5000', '5000'],
      ['fee', '-75', '4925'],
      ['payout', '-4925', '0'],
    ]);
    // The payout's row says how Caisse reached the provider: its connector and provider account.
    expect(rows.find((r) => r.type === 'payout')).toMatchObject({ source: created.id, connector: 'mtn_momo', provider_account: 'pac_sandbox_mtn_momo' });
    for (const r of rows) expect(new Date(r.created_at as string).toISOString()).toBe(r.created_at);
    let running = 0n;
    for (const r of rows) {
      running += BigInt(r.amount as string);
      expect(BigInt(r.balance_after as string)).toBe(running);
    }
    expect(await ctx.services.balances.differences({ merchantId: m.merchantId, mode: 'test' })).toEqual([]);
    await expectLedgerClean(ctx);
    // The provider agrees: the payout is PAID on both sides (the sandbox's other requests are this file's own).
    const from = new Date(`${day}T00:00:00Z`);
    const report = await ctx.services.reconciliation.reconcile({ provider: 'mtn_momo', mode: 'test', from, to: new Date(from.getTime() + DAY) });
    expect(report.mismatches.filter((x) => x.id === created.id)).toEqual([]);
    expect(report.checked.payouts).toBeGreaterThanOrEqual(1);
    sandbox.override(sent[0]?.referenceId as string, { status: 'FAILED', reason: 'PAYEE_NOT_FOUND' });
    const disagreed = await ctx.services.reconciliation.reconcile({ provider: 'mtn_momo', mode: 'test', from, to: new Date(from.getTime() + DAY) });
    expect(disagreed.mismatches).toContainEqual(expect.objectContaining({ kind: 'status', object: 'payout', id: created.id }));
  });

  it('the statement CSV quotes a description holding a line break and defuses the formula after it', async () => {
    const m = await merchantWithDelay('Forged row shop', 0);
    await pay(m, '5000');
    await ctx.services.balances.settleDue();
    const res = await payout(m, { amount: '1000', description: '\n=1+1' });
    expect(res.statusCode, res.body).toBe(202);
    const csv = await call(ctx.app, 'GET', '/balance/transactions.csv?type=payout', sk(m));
    expect(csv.statusCode, csv.body).toBe(200);
    // One header and one row: the line break stays inside a quoted field.
    expect(csv.body).toContain(`,payout,${res.json().id},"\n'=1+1",XAF,-1000,`);
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.type, r.description])).toEqual([['payout', "\n'=1+1"]]);
  });

  it('a refused payout comes back to available, with payout_reversal and payout.failed', async () => {
    const m = await merchantWithDelay('Refused payout', 0);
    await pay(m, '3000');
    await ctx.services.balances.settleDue();
    const created = (await payout(m, { amount: '2000', destination: { provider: 'mtn_momo', phoneNumber: FAILS } })).json() as { id: string };
    expect(xaf(await balance(m))).toMatchObject({ available: '955' });
    await providerDecides();
    await expect.poll(async () => (await readPayout(m, created.id)).status, { interval: 20, timeout: 5000 }).toBe('FAILED');
    expect((await readPayout(m, created.id)).failureReason).toBeTruthy();
    expect(xaf(await balance(m))).toMatchObject({ available: '2955' });
    const types = ((await call(ctx.app, 'GET', '/balance/transactions?limit=2', sk(m))).json() as { data: { type: string; amount: string }[] }).data;
    expect(types[0]).toMatchObject({ type: 'payout_reversal', amount: '2000' });
    const events = (await call(ctx.app, 'GET', '/events?type=payout.failed', sk(m))).json() as { data: { data: { payout: { id: string } } }[] };
    expect(events.data.map((e) => e.data.payout.id)).toContain(created.id);
    // A late duplicate callback or poll changes nothing.
    ctx.clock.advance(MINUTE);
    await ctx.services.payouts.pollDue();
    expect(xaf(await balance(m))).toMatchObject({ available: '2955' });
    await expectLedgerClean(ctx);
  });

  it("a destination number as people write it is read in the merchant's country and stored in E.164", async () => {
    const m = await merchantWithDelay('National numbers', 0);
    await pay(m, '3000');
    await ctx.services.balances.settleDue();
    const created = await payout(m, { destination: { provider: 'mtn_momo', phoneNumber: '6 70 00 00 01' } });
    expect(created.statusCode, created.body).toBe(202);
    expect(created.json()).toMatchObject({ destination: { provider: 'mtn_momo', phoneNumber: PAYEE } });
    const stored = await ctx.deps.db
      .selectFrom('payouts')
      .select('phone_number')
      .where('id', '=', (created.json() as { id: string }).id)
      .executeTakeFirstOrThrow();
    expect(stored.phone_number).toBe(PAYEE);
    const schedule = await call(ctx.app, 'PUT', '/payout-schedule', sk(m), {
      interval: 'daily',
      destination: { provider: 'mtn_momo', phoneNumber: '670-000-001' },
    });
    expect(schedule.json()).toMatchObject({ destination: { provider: 'mtn_momo', phoneNumber: PAYEE } });
    expect(
      (await call(ctx.app, 'PUT', '/payout-schedule', sk(m), { interval: 'daily', destination: { provider: 'mtn_momo', phoneNumber: '77 123 45 67' } })).json(),
    ).toMatchObject({
      status: 400,
      code: 'phone_invalid',
      param: 'destination.phoneNumber',
      country: 'CM',
    });
    await call(ctx.app, 'PUT', '/payout-schedule', sk(m), { interval: 'manual' });
    await providerDecides();
  });

  it('bad input: 400 for amounts and destinations, 409 above available or in a currency without balance, 404 for others', async () => {
    const m = await merchantWithDelay('Strict payouts', 0);
    await pay(m, '1000');
    await ctx.services.balances.settleDue();
    for (const amount of ['0', '-5', '12.5', 'abc', '', '1e3']) {
      expect((await payout(m, { amount })).json(), amount).toMatchObject({ status: 400, code: 'amount_invalid' });
    }
    expect((await payout(m, { amount: 100 })).statusCode).toBe(400);
    expect((await payout(m, { currency: 'ZZZ' })).json()).toMatchObject({ code: 'currency_unsupported' });
    expect((await payout(m, { destination: { provider: 'paypal', phoneNumber: PAYEE } })).json()).toMatchObject({ status: 400, code: 'provider_unsupported' });
    expect((await payout(m, { destination: { provider: 'mtn_momo', phoneNumber: '67000000' } })).json()).toMatchObject({ status: 400, code: 'phone_invalid' });
    expect((await payout(m, { destination: { provider: 'mtn_momo' } })).statusCode).toBe(400);
    expect((await payout(m, { surprise: true })).statusCode).toBe(400);
    // MTN's message rules, from its description: 1 to 160 characters, none of & ' < >.
    for (const description of ['x'.repeat(161), 'é'.repeat(200), '', 'Tom & Jerry', "Jerry's", '<b>', 'a>b']) {
      expect((await payout(m, { description })).json(), description).toMatchObject({ status: 400, code: 'description_invalid', param: 'description' });
    }
    expect(await balance(m)).toMatchObject({ balances: [{ currency: 'XAF', available: '985' }] });
    expect((await payout(m, { amount: '986' })).json()).toMatchObject({ status: 409, code: 'balance_insufficient' });
    // What MTN cannot send is refused before the money leaves available: another currency, an
    // amount outside its bounds, a number it does not serve.
    expect((await payout(m, { amount: '1.00', currency: 'EUR' })).json()).toMatchObject({ status: 400, code: 'currency_unsupported' });
    expect((await payout(m, { amount: '99' })).json()).toMatchObject({ status: 400, code: 'amount_out_of_bounds', param: 'amount' });
    expect((await payout(m, { destination: { provider: 'mtn_momo', phoneNumber: '+2376701' } })).json()).toMatchObject({
      status: 400,
      code: 'phone_invalid',
      param: 'destination.phoneNumber',
    });
    expect((await payout(m, { destination: { provider: 'mtn_momo', phoneNumber: '+237690000059' } })).json()).toMatchObject({ code: 'phone_invalid' });
    // An MTN account with a collection key only sends nothing, and says why.
    await withCollectionOnlyMomo(ctx, sandbox.url, async () => {
      expect((await payout(m, {})).json()).toMatchObject({
        status: 400,
        code: 'destination_unsupported',
        param: 'destination.provider',
        detail: expect.stringContaining('no disbursement key'),
      });
    });
    expect(await balance(m)).toMatchObject({ balances: [{ currency: 'XAF', available: '985' }] });
    const ok = (await payout(m, { amount: '985', description: 'é'.repeat(160) })).json() as { id: string; status: string };
    expect(ok.status).toBe('PENDING');
    const other = await createMerchant(ctx, 'Nosy');
    expect((await call(ctx.app, 'GET', `/payouts/${ok.id}`, sk(other))).statusCode).toBe(404);
    expect((await call(ctx.app, 'GET', `/payouts/${ok.id}`, { apiKey: m.live.apiKey, secretKey: m.live.secretKey })).statusCode).toBe(404);
    expect((await call(ctx.app, 'GET', '/payouts', { apiKey: m.apiKey })).json()).toMatchObject({ code: 'secret_key_required' });
    const listed = (await call(ctx.app, 'GET', '/payouts', sk(m))).json() as { data: { id: string }[] };
    expect(listed.data.map((p) => p.id)).toEqual([ok.id]);
    await providerDecides();
  });

  it('provider down: the payout stays PENDING, is retried by polling with the same reference, and is paid once', async () => {
    const m = await merchantWithDelay('Outage shop', 0);
    await pay(m, '2000');
    await ctx.services.balances.settleDue();
    sandbox.setFaults({ answer500: true });
    const created = (await payout(m, { amount: '1970' })).json() as { id: string };
    await ctx.services.payouts.drain();
    for (let i = 0; i < 3; i++) {
      ctx.clock.advance(MINUTE);
      await ctx.services.payouts.pollDue();
    }
    expect((await readPayout(m, created.id)).status).toBe('PENDING');
    expect(sandbox.requests().filter((r) => r.externalId === created.id)).toHaveLength(0);
    sandbox.setFaults({ answer500: false });
    ctx.clock.advance(MINUTE);
    await ctx.services.payouts.pollDue(); // NOT_FOUND: sent again, same reference
    await providerDecides();
    ctx.clock.advance(MINUTE);
    await ctx.services.payouts.pollDue();
    await expect.poll(async () => (await readPayout(m, created.id)).status, { interval: 20, timeout: 5000 }).toBe('PAID');
    expect(sandbox.requests().filter((r) => r.externalId === created.id)).toHaveLength(1);
    expect(xaf(await balance(m))).toMatchObject({ available: '0' });
    await expectLedgerClean(ctx);
  });

  it('a refund after a payout takes available below zero: payouts are refused and the schedule skips the merchant until it is positive', async () => {
    const m = await merchantWithDelay('Negative shop', 0);
    const { intent } = await pay(m, '1000');
    await ctx.services.balances.settleDue();
    const created = (await payout(m, { amount: '985' })).json() as { id: string };
    await providerDecides();
    await expect.poll(async () => (await readPayout(m, created.id)).status, { interval: 20, timeout: 5000 }).toBe('PAID');
    expect((await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), {})).statusCode).toBe(201);
    expect(xaf(await balance(m))).toMatchObject({ available: '-985' });
    expect((await payout(m, { amount: '100' })).json()).toMatchObject({ status: 409, code: 'balance_insufficient' });

    const schedule = await call(ctx.app, 'PUT', '/payout-schedule', sk(m), { interval: 'daily', destination: { provider: 'mtn_momo', phoneNumber: PAYEE } });
    expect(schedule.statusCode, schedule.body).toBe(200);
    ctx.clock.advance(DAY);
    await ctx.services.payouts.runDueSchedules();
    expect(((await call(ctx.app, 'GET', '/payouts', sk(m))).json() as { data: unknown[] }).data).toHaveLength(1);
    // Positive again (a new payment): the next run pays out all that is available.
    await pay(m, '3000');
    await ctx.services.balances.settleDue();
    ctx.clock.advance(DAY);
    await ctx.services.payouts.runDueSchedules();
    const list = (await call(ctx.app, 'GET', '/payouts', sk(m))).json() as { data: { amount: string; method: string }[] };
    expect(list.data[0]).toMatchObject({ amount: '1970', method: 'scheduled' });
    await providerDecides();
    await call(ctx.app, 'PUT', '/payout-schedule', sk(m), { interval: 'manual' });
    await expectLedgerClean(ctx);
  });

  it('the schedule makes no payout for a merchant an operator froze, and resumes once unfrozen', async () => {
    const m = await merchantWithDelay('Frozen schedule shop', 0);
    await pay(m, '2000');
    await ctx.services.balances.settleDue();
    expect(
      (await call(ctx.app, 'PUT', '/payout-schedule', sk(m), { interval: 'daily', destination: { provider: 'mtn_momo', phoneNumber: PAYEE } })).statusCode,
    ).toBe(200);
    await ctx.services.merchants.setFrozen(m.merchantId, { reason: 'review' }, async () => {});
    ctx.clock.advance(DAY);
    await ctx.services.payouts.runDueSchedules();
    expect(((await call(ctx.app, 'GET', '/payouts', sk(m))).json() as { data: unknown[] }).data).toHaveLength(0);
    await ctx.services.merchants.setFrozen(m.merchantId, null, async () => {});
    ctx.clock.advance(DAY);
    await ctx.services.payouts.runDueSchedules();
    expect(((await call(ctx.app, 'GET', '/payouts', sk(m))).json() as { data: { method: string }[] }).data).toMatchObject([{ method: 'scheduled' }]);
    await providerDecides();
    await call(ctx.app, 'PUT', '/payout-schedule', sk(m), { interval: 'manual' });
    await expectLedgerClean(ctx);
  });

  it('a scheduled payout is at most what the provider sends at once; the rest goes at the next run, and a remainder under its minimum waits', async () => {
    const m = await merchantWithDelay('Large schedule shop', 0);
    await ctx.services.merchants.setFees(m.merchantId, 0, {});
    await pay(m, '600000');
    await pay(m, '50');
    await ctx.services.balances.settleDue();
    const put = await call(ctx.app, 'PUT', '/payout-schedule', sk(m), { interval: 'daily', destination: { provider: 'mtn_momo', phoneNumber: PAYEE } });
    expect(put.statusCode, put.body).toBe(200);
    const amounts = async () => ((await call(ctx.app, 'GET', '/payouts', sk(m))).json() as { data: { amount: string }[] }).data.map((p) => p.amount);
    ctx.clock.advance(DAY);
    await ctx.services.payouts.runDueSchedules();
    expect(await amounts()).toEqual(['500000']);
    await providerDecides();
    ctx.clock.advance(DAY);
    await ctx.services.payouts.runDueSchedules();
    expect(await amounts()).toEqual(['100050', '500000']);
    await providerDecides();
    await pay(m, '99');
    await ctx.services.balances.settleDue();
    ctx.clock.advance(DAY);
    await ctx.services.payouts.runDueSchedules();
    expect(await amounts()).toHaveLength(2);
    expect(xaf(await balance(m))).toMatchObject({ available: '99' });
    await call(ctx.app, 'PUT', '/payout-schedule', sk(m), { interval: 'manual' });
    await expectLedgerClean(ctx);
  });

  it('schedules: weekly on its day with a minimum; bad schedules are 400', async () => {
    const m = await merchantWithDelay('Weekly shop', 0);
    const put = (body: Record<string, unknown>) => call(ctx.app, 'PUT', '/payout-schedule', sk(m), body);
    expect((await call(ctx.app, 'GET', '/payout-schedule', sk(m))).json()).toMatchObject({ object: 'payout_schedule', interval: 'manual', nextRunAt: null });
    expect((await put({ interval: 'daily' })).json()).toMatchObject({ status: 400, code: 'validation_error', param: 'destination' });
    expect((await put({ interval: 'hourly', destination: { provider: 'mtn_momo', phoneNumber: PAYEE } })).statusCode).toBe(400);
    expect((await put({ interval: 'daily', weeklyAnchor: 'friday', destination: { provider: 'mtn_momo', phoneNumber: PAYEE } })).statusCode).toBe(400);
    expect((await put({ interval: 'daily', minimumAmount: { XAF: '-1' }, destination: { provider: 'mtn_momo', phoneNumber: PAYEE } })).json()).toMatchObject({
      code: 'amount_invalid',
    });
    const saved = (
      await put({ interval: 'weekly', weeklyAnchor: 'friday', minimumAmount: { XAF: '5000' }, destination: { provider: 'mtn_momo', phoneNumber: PAYEE } })
    ).json() as { nextRunAt: string };
    expect(new Date(saved.nextRunAt).getUTCDay()).toBe(5);
    expect(saved).toMatchObject({ interval: 'weekly', weeklyAnchor: 'friday', minimumAmount: { XAF: '5000' } });

    await pay(m, '3000');
    await ctx.services.balances.settleDue();
    ctx.clock.set(new Date(saved.nextRunAt));
    await ctx.services.payouts.runDueSchedules();
    // 2 955 is below the minimum: no payout; the next run is a week later.
    expect(((await call(ctx.app, 'GET', '/payouts', sk(m))).json() as { data: unknown[] }).data).toHaveLength(0);
    const next = (await call(ctx.app, 'GET', '/payout-schedule', sk(m))).json() as { nextRunAt: string };
    expect(new Date(next.nextRunAt).getTime() - new Date(saved.nextRunAt).getTime()).toBe(7 * DAY);
    await pay(m, '3000');
    await ctx.services.balances.settleDue();
    ctx.clock.set(new Date(next.nextRunAt));
    await ctx.services.payouts.runDueSchedules();
    expect(((await call(ctx.app, 'GET', '/payouts', sk(m))).json() as { data: { amount: string }[] }).data).toMatchObject([{ amount: '5910' }]);
    await providerDecides();
    await put({ interval: 'manual' });
  });
});

describe.runIf(onPostgres)('payouts under concurrency (PostgreSQL)', () => {
  it('20 concurrent payouts whose sum exceeds available never overdraw it', async () => {
    const m = await merchantWithDelay('Race shop', 0);
    await pay(m, '10000'); // 9 850 available
    await ctx.services.balances.settleDue();
    const answers = await Promise.all(Array.from({ length: 20 }, () => payout(m, { amount: '1000' })));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 202)).toHaveLength(9);
    expect(codes.filter((c) => c === 409)).toHaveLength(11);
    expect(xaf(await balance(m))).toMatchObject({ available: '850' });
    await providerDecides();
    await expectLedgerClean(ctx);
  });

  it('charges, refunds, settlement and payouts of one merchant at once: no deadlock, no 5xx, the books and the statement agree', async () => {
    const m = await merchantWithDelay('Busy shop', 0);
    const paid = await Promise.all(Array.from({ length: 10 }, () => pay(m, '2000')));
    const users = await Promise.all(Array.from({ length: 10 }, () => newUser(ctx, m, { balance: '100000' })));
    const intents = await Promise.all(users.map(() => createIntent(ctx, m, { amount: '3000' })));
    const tokens = await Promise.all(users.map((u, i) => authorize(ctx, m, u, intents[i]?.id as string)));
    const answers = await Promise.all([
      ...users.map((u, i) => charge(ctx, u, intents[i]?.id as string, tokens[i])),
      ...paid.map(({ intent }) => call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), { amount: '700' })),
      ...Array.from({ length: 5 }, () => payout(m, { amount: '500' })),
      ctx.services.balances.settleDue().then(() => ({ statusCode: 200 })),
      ctx.services.balances.settleDue().then(() => ({ statusCode: 200 })),
    ]);
    expect(
      answers.filter((a) => a.statusCode >= 500).length,
      ctx.logs
        .filter((l) => l.includes('"level":50'))
        .join('\n')
        .slice(0, 3000),
    ).toBe(0);
    await ctx.services.balances.settleDue();
    await providerDecides();
    expect(await ctx.services.balances.verifyStatements()).toEqual([]);
    await expectLedgerClean(ctx);
  });
});
