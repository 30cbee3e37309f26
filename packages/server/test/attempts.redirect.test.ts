/**
 * Paying an intent with a redirect provider (Orange Money in Cameroon, Wave in Senegal) in test
 * mode: POST /charge answers the sandbox's payment page, the payer approves or declines there
 * (one HTTP POST, as the page's form does), and the provider's callback, confirmed by a status
 * read, decides the attempt once. Real HTTP between the app and the sandbox; the shared
 * ManualClock moves time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/modules/connectors/index.ts';
import { SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes } from './connectors.support.ts';
import { createIntent, expectLedgerClean } from './flow.support.ts';
import { call, createMerchant, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let sandbox: Sandbox;
let cm: TestMerchant;
let sn: TestMerchant;

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithAllSandboxes());
  cm = await createMerchant(ctx, 'Douala shop');
  sn = await createMerchant(ctx, 'Dakar shop');
  await ctx.services.merchants.setCountry(sn.merchantId, 'SN');
});
afterAll(async () => {
  await ctx?.close();
  await sandbox?.close();
});

type Attempt = { id: string; status: string; failureCode: string | null };
type Answer = { status: string; attempts: Attempt[]; nextAction: { type: string; url?: string } | null };

let numbers = 0;
const orangeNumber = (suffix = '000') => `+2376900${String(++numbers).padStart(2, '0')}${suffix}`;
const waveNumber = (suffix = '000') => `+2217700${String(++numbers).padStart(2, '0')}${suffix}`;

async function charge(m: TestMerchant, intent: { id: string; sessionToken: string }, provider: string, phoneNumber: string) {
  return call(ctx.app, 'POST', '/charge', { ...pk(m), headers: { 'x-session-token': intent.sessionToken } }, { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider, phoneNumber } });
}

/** What the payer does on the sandbox's page: the form's POST. */
async function onPage(url: string, action: 'approve' | 'decline', phoneNumber?: string) {
  const form = new URLSearchParams({ action, lang: 'fr', ...(phoneNumber ? { phoneNumber } : {}) });
  return fetch(url, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
}

/** Moves time past the sandbox's 1 s and lets it deliver its callbacks to the app. */
async function later(ms = 2 * SECOND) {
  ctx.clock.advance(ms);
  await sandbox.tick();
}

const read = async (m: TestMerchant, id: string) => (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as { status: string };
const completed = async (m: TestMerchant, id: string) =>
  ((await call(ctx.app, 'GET', '/events?limit=100', sk(m))).json() as { data: { type: string; data: { paymentIntent?: { id: string } } }[] }).data.filter(
    (e) => e.type === 'payment.completed' && e.data.paymentIntent?.id === id,
  ).length;
const storedAttempt = (intentId: string) => ctx.deps.db.selectFrom('payment_attempts').select(['provider_reference', 'redirect_url', 'return_url', 'status']).where('intent_id', '=', intentId).executeTakeFirstOrThrow();

describe.each([
  { provider: 'orange_money', country: 'CM', currency: 'XAF', merchant: () => cm, number: orangeNumber, page: '/orange-money/pay/' },
  { provider: 'wave', country: 'SN', currency: 'XOF', merchant: () => sn, number: waveNumber, page: '/wave/pay/' },
])('$provider ($country, $currency) through its sandbox page', ({ provider, currency, merchant, number, page }) => {
  it('202 with a redirect to the page; approving pays once (callback and poll agree)', async () => {
    const m = merchant();
    const intent = await createIntent(ctx, m, { currency });
    const phone = number('109'); // the sandbox sends its callback twice
    const res = await charge(m, intent, provider, phone);
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json() as Answer;
    expect(started.status).toBe('PROCESSING');
    expect(started.nextAction?.type).toBe('redirect');
    const url = started.nextAction?.url ?? '';
    expect(url.startsWith(sandbox.url + page)).toBe(true);

    // The provider's own reference and the page are stored with the attempt, before any outcome.
    const stored = await storedAttempt(intent.id);
    expect(stored.provider_reference).toBeTruthy();
    expect(url).toContain(stored.provider_reference as string);
    expect(stored).toMatchObject({ redirect_url: url, status: 'PENDING' });
    expect(stored.return_url).toContain(`/checkout/${encodeURIComponent(intent.sessionToken)}`);

    const approved = await onPage(url, 'approve', phone);
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toBe(stored.return_url);
    await later();
    await expect.poll(async () => (await read(m, intent.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    // The poller asks too, and the second callback comes: nothing happens twice.
    ctx.clock.advance(10 * SECOND);
    await ctx.services.attempts.pollDue();
    await later();
    expect(await completed(m, intent.id)).toBe(1);
    expect((await storedAttempt(intent.id)).status).toBe('SUCCEEDED');
    await expectLedgerClean(ctx);
  });

  it('declining fails the attempt and the intent is PENDING again, ready for another try', async () => {
    const m = merchant();
    const intent = await createIntent(ctx, m, { currency });
    const phone = number();
    const started = (await charge(m, intent, provider, phone)).json() as Answer;
    expect((await onPage(started.nextAction?.url ?? '', 'decline')).status).toBe(303);
    await later();
    await expect.poll(async () => (await read(m, intent.id)).status, { interval: 20, timeout: 5000 }).toBe('PENDING');
    const [attempt] = await ctx.services.attempts.listForIntent(intent.id);
    expect(attempt).toMatchObject({ status: 'FAILED', failureCode: 'approval_rejected' });

    const again = await charge(m, intent, provider, phone);
    expect(again.statusCode, again.body).toBe(202);
    expect((again.json() as Answer).attempts).toHaveLength(2);
  });
});

describe('callbacks of redirect providers', () => {
  it('a Wave webhook with a bad signature is refused, and changes nothing', async () => {
    const body = JSON.stringify({ id: 'EV_1', type: 'checkout.session.completed', data: { id: 'cos_1', client_reference: '6c1c0c8e-8f7a-4b4f-9f43-0f4b8c1b2a10' } });
    const res = await call(ctx.app, 'POST', '/callbacks/wave', { headers: { 'wave-signature': 't=1,v1=00', 'content-type': 'application/json' } }, body);
    expect(res.json()).toMatchObject({ status: 400, code: 'callback_invalid' });
  });
});
