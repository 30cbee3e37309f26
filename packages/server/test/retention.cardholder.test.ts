/**
 * Retention of card holders' details (decision 0097): a card attempt decided more than
 * CAISSE_RETENTION_CARDHOLDER_DAYS ago loses `customer`, batch by batch and once; a pending one,
 * or one decided inside the period, keeps it. The attempt, its intent and the money stay as they
 * were, and every read of an erased attempt (API, dashboard, CSV) still answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { purgeExpired } from '../src/modules/retention/index.ts';
import type { Sandbox } from '../src/modules/connectors/index.ts';
import { DAY, HOUR, SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes } from './connectors.support.ts';
import { createIntent, expectLedgerClean } from './flow.support.ts';
import { call, createMerchant, dashboardBrowserOf, dashboardCall, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import { HOLDER } from './fixtures/cardholder.ts';

let ctx: TestContext;
let sandbox: Sandbox;
let ci: TestMerchant;

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithAllSandboxes());
  ci = await createMerchant(ctx, 'Abidjan retention');
  await ctx.services.merchants.setCountry(ci.merchantId, 'CI');
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

type Intent = {
  status: string;
  paymentMethod: { type: string; provider: string; phoneNumber: string } | null;
  attempts: { id: string; status: string; phoneNumber: string }[];
};

const read = async (id: string) => {
  const res = await call(ctx.app, 'GET', `/gateway/${id}`, sk(ci));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Intent;
};

/** A card charge on a new intent: its id and the card page's URL. */
async function startCard(): Promise<{ id: string; url: string }> {
  const intent = await createIntent(ctx, ci, { currency: 'XOF', amount: '5000' });
  const res = await call(
    ctx.app,
    'POST',
    '/charge',
    { ...pk(ci), headers: { 'x-session-token': intent.sessionToken } },
    { intentionId: intent.id, paymentMethod: { type: 'card', cardholder: HOLDER } },
  );
  expect(res.statusCode, res.body).toBe(202);
  return { id: intent.id, url: (res.json() as { nextAction: { url: string } }).nextAction.url };
}

/** The card typed on the sandbox page (its last digits decide), until the intent shows `status`. */
async function decide(card: { id: string; url: string }, cardNumber: string, status: string) {
  const form = new URLSearchParams({ channel: 'card', cardNumber, cardHolder: 'Awa Kone', lang: 'fr' });
  const page = await fetch(card.url, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
  expect(page.status).toBe(303);
  ctx.clock.advance(2 * SECOND);
  await sandbox.tick();
  await expect.poll(async () => (await read(card.id)).status, { interval: 20, timeout: 5000 }).toBe(status);
}

/** The attempts of these intents as stored, the holder's details apart. */
async function attemptsOf(intentIds: string[]) {
  return ctx.deps.db.selectFrom('payment_attempts').selectAll().where('intent_id', 'in', intentIds).orderBy('id').execute();
}

const holderOf = async (intentId: string) =>
  (await ctx.deps.db.selectFrom('payment_attempts').select('customer').where('intent_id', '=', intentId).executeTakeFirstOrThrow()).customer;

/** Every row of the money tables. */
async function money() {
  const db = ctx.deps.db;
  return {
    intents: await db.selectFrom('intents').selectAll().orderBy('id').execute(),
    transfers: await db.selectFrom('ledger_transfers').selectAll().orderBy('id').execute(),
    postings: await db.selectFrom('ledger_postings').selectAll().orderBy('id').execute(),
    requests: await db.selectFrom('provider_requests').selectAll().orderBy('id').execute(),
  };
}

const purge = (batchSize?: number) => purgeExpired(ctx.deps, ctx.services, { batchSize });
const stored = { ...HOLDER, phoneNumber: '+2250701020304', state: 'CI' };

describe("card holders' details", () => {
  it('are kept for 120 days after the decision, then erased in batches, once; a pending attempt and a recent one keep them; reads still answer', async () => {
    // Day 0: one card payment succeeds, one is refused.
    const day0 = ctx.clock.now();
    const paid = await startCard();
    await decide(paid, '4000 0000 0000 0001', 'SUCCEEDED');
    const refused = await startCard();
    await decide(refused, '4000000000000104', 'PENDING');
    for (const id of [paid.id, refused.id]) expect(await holderOf(id)).toEqual(stored);

    // Just inside the period: nothing goes. A payment decided now is young.
    ctx.clock.advance(120 * DAY - HOUR);
    expect((await purge()).cardholders).toBe(0);
    for (const id of [paid.id, refused.id]) expect(await holderOf(id)).toEqual(stored);
    const recent = await startCard();
    await decide(recent, '4000 0000 0000 0001', 'SUCCEEDED');
    const all = [paid.id, refused.id];

    // Past the period: the two decided ones are erased, a batch of one at a time.
    ctx.clock.advance(2 * HOUR);
    const attemptsBefore = await attemptsOf([...all, recent.id]);
    const moneyBefore = await money();
    const viewsBefore = await Promise.all([paid.id, refused.id].map(read));
    expect((await purge(1)).cardholders).toBe(2);
    expect(await holderOf(paid.id)).toBeNull();
    expect(await holderOf(refused.id)).toBeNull();
    expect(await holderOf(recent.id)).toEqual(stored);
    // Nothing else of the attempts moved (their masked number included), nor the money; a second round erases nothing.
    expect(await attemptsOf([...all, recent.id])).toEqual(
      attemptsBefore.map((a) => ([paid.id, refused.id].includes(a.intent_id) ? { ...a, customer: null } : a)),
    );
    expect((await purge()).cardholders).toBe(0);
    expect(await money()).toEqual(moneyBefore);
    await expectLedgerClean(ctx);

    // The API reads the erased attempts as before: the method and the masked phone come from the attempt.
    expect(await Promise.all([paid.id, refused.id].map(read))).toEqual(viewsBefore);
    expect(viewsBefore[0]).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { type: 'card', provider: 'card' }, attempts: [{ status: 'SUCCEEDED' }] });
    expect(viewsBefore[0]?.paymentMethod?.phoneNumber).not.toContain('0701020304');
    // So do the dashboard's payment page and its CSV export.
    const browser = dashboardBrowserOf(await call(ctx.app, 'POST', '/dashboard/api/login', {}, { email: ci.dashboard.email, password: ci.dashboard.password }));
    const detail = await dashboardCall(ctx.app, 'GET', `/dashboard/api/test/payments/${paid.id}`, browser);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.body).toContain(paid.id);
    const csv = await dashboardCall(ctx.app, 'GET', '/dashboard/api/test/payments.csv', browser);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain(paid.id);
    expect(csv.body).toContain(refused.id);
    // Reconciliation of day 0 reads them by reference and amount, and still agrees.
    const report = await ctx.services.reconciliation.reconcile({ provider: 'cinetpay', mode: 'test', from: day0, to: new Date(day0.getTime() + DAY) });
    expect(report).toMatchObject({ checked: { attempts: 2 }, agreed: 2, mismatches: [] });

    // One left on the provider's page stays pending: nothing asks the sandbox after it (a request
    // there moves its pages on). It is never erased, however old, while it is pending.
    const waiting = await startCard();
    ctx.clock.advance(3 * 365 * DAY);
    expect((await purge()).cardholders).toBe(1);
    expect(await holderOf(recent.id)).toBeNull();
    expect(await holderOf(waiting.id)).toEqual(stored);
    expect((await attemptsOf([waiting.id]))[0]).toMatchObject({ status: 'PENDING', completed_at: null });
  });

  it('take their period from CAISSE_RETENTION_CARDHOLDER_DAYS (120 by default)', async () => {
    const base = { CAISSE_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'), CAISSE_DATA_DIR: '/tmp/caisse-retention-test' };
    expect(loadConfig(base).retention.cardholderDays).toBe(120);
    expect(loadConfig({ ...base, CAISSE_RETENTION_CARDHOLDER_DAYS: '30' }).retention.cardholderDays).toBe(30);
    expect(() => loadConfig({ ...base, CAISSE_RETENTION_CARDHOLDER_DAYS: '0' })).toThrow(/CAISSE_RETENTION_CARDHOLDER_DAYS/);
  });
});
