/**
 * Paying an intent with a redirect provider (Orange Money in Cameroon, Wave in Senegal) in test
 * mode: POST /charge answers the sandbox's payment page, the payer approves or declines there
 * (one HTTP POST, as the page's form does), and the provider's callback, confirmed by a status
 * read, decides the attempt once. Real HTTP between the app and the sandbox; the shared
 * ManualClock moves time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/admin.ts';
import {
  connectorsServing,
  createModeConnectors,
  MTN_MOMO_CONNECTOR,
  newReference,
  ORANGE_MONEY_CONNECTOR,
  type Sandbox,
  WAVE_CONNECTOR,
} from '../src/modules/connectors/index.ts';
import { createWaveConnector } from '../src/modules/connectors/wave/wave.connector.ts';
import { waveSignatureHeader } from '../src/modules/connectors/wave/wave.signature.ts';
import { pageLostAfterMs } from '../src/modules/lifecycle/index.ts';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { createLogger } from '../src/platform/logger.ts';
import { createServices } from '../src/services.ts';
import { appWithAllSandboxes, testConnectorDeps, withTestConnector } from './connectors.support.ts';
import { createOrangeMoneyConnector } from '../src/modules/connectors/orange-money/orange-money.connector.ts';
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
  // These tests are about each operator's own connector: its route alone, or the aggregators'
  // sandbox accounts would take what it refuses (another currency, an outage).
  for (const country of ['CM', 'SN', 'CI'] as const)
    for (const method of ['mtn_momo', 'orange_money', 'wave'])
      if (connectorsServing(method, country).includes(method))
        await runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country, kind: 'payment', method, connectors: [method] });
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

type Attempt = { id: string; status: string; failureCode: string | null };
type Answer = { status: string; attempts: Attempt[]; nextAction: { type: string; url?: string } | null };

let numbers = 0;
const orangeNumber = (suffix = '000') => `+2376900${String(++numbers).padStart(2, '0')}${suffix}`;
const waveNumber = (suffix = '000') => `+2217700${String(++numbers).padStart(2, '0')}${suffix}`;

async function charge(m: TestMerchant, intent: { id: string; sessionToken: string }, provider: string, phoneNumber: string) {
  return call(
    ctx.app,
    'POST',
    '/charge',
    { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
    { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider, phoneNumber } },
  );
}

/** What the payer does on the sandbox's page: the form's POST. */
async function onPage(url: string, action: 'approve' | 'decline' | 'cancel', phoneNumber?: string) {
  const form = new URLSearchParams({ action, lang: 'fr', ...(phoneNumber ? { phoneNumber } : {}) });
  return fetch(url, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
}

/** Moves time past the sandbox's 1 s and lets it deliver its callbacks to the app. */
async function later(ms = 2 * SECOND) {
  ctx.clock.advance(ms);
  await sandbox.tick();
  // The callbacks' status reads run behind their answers.
  await ctx.services.callbacks.drain();
}

const read = async (m: TestMerchant, id: string) => (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as { status: string };
const completed = async (m: TestMerchant, id: string) =>
  ((await call(ctx.app, 'GET', '/events?limit=100', sk(m))).json() as { data: { type: string; data: { paymentIntent?: { id: string } } }[] }).data.filter(
    (e) => e.type === 'payment.completed' && e.data.paymentIntent?.id === id,
  ).length;
const storedAttempt = (intentId: string) =>
  ctx.deps.db
    .selectFrom('payment_attempts')
    .select(['provider_reference', 'redirect_url', 'return_url', 'status', 'phone_number'])
    .where('intent_id', '=', intentId)
    .executeTakeFirstOrThrow();

/** What the sandbox's notifications (Orange's notif_url, Wave's webhook) got back from our callback routes. */
function notificationsOf(provider: string, providerReference: string) {
  const all =
    provider === 'wave'
      ? sandbox
          .of(WAVE_CONNECTOR)
          .sessions()
          .map((p) => ({ id: p.id, notifications: p.notifications }))
      : sandbox
          .of(ORANGE_MONEY_CONNECTOR)
          .payments()
          .map((p) => ({ id: p.payToken, notifications: p.notifications }));
  return all.find((p) => p.id === providerReference)?.notifications ?? [];
}

describe('orange_money as Orange does it (issue 55)', () => {
  it('a cancel on the page sends no notification, as Orange in production: the poll ends the attempt and the intent can be paid again', async () => {
    const intent = await createIntent(ctx, cm, { currency: 'XAF' });
    const res = await charge(cm, intent, 'orange_money', orangeNumber());
    expect(res.statusCode, res.body).toBe(202);
    const url = (res.json() as Answer).nextAction?.url ?? '';
    const cancelled = await onPage(url, 'cancel');
    expect(cancelled.status).toBe(303);
    await later();
    const stored = await storedAttempt(intent.id);
    expect(notificationsOf('orange_money', stored.provider_reference as string)).toEqual([
      expect.objectContaining({ error: expect.stringContaining('not sent') }),
    ]);
    // Nothing came: the attempt waits for its poll.
    expect(stored.status).toBe('PENDING');
    expect((await read(cm, intent.id)).status).toBe('PROCESSING');
    ctx.clock.advance(10 * SECOND);
    await ctx.services.attempts.pollDue();
    expect((await storedAttempt(intent.id)).status).toBe('FAILED');
    expect((await read(cm, intent.id)).status).toBe('PENDING');
    await expectLedgerClean(ctx);
  });

  it('a silent cancel whose status cannot be read either: the attempt ends at its timeout (15 min on the clock), the intent payable again', async () => {
    const intent = await createIntent(ctx, cm, { currency: 'XAF' });
    const url = ((await charge(cm, intent, 'orange_money', orangeNumber())).json() as Answer).nextAction?.url ?? '';
    expect((await onPage(url, 'cancel')).status).toBe(303);
    await later();
    // Orange does not answer its status route (the same account, reached nowhere).
    const unreachable = createOrangeMoneyConnector(
      {
        ...ORANGE_MONEY_CONNECTOR.sandbox.settings({ baseUrl: 'http://127.0.0.1:9/orange-money', secrets: {} }),
        timeoutMs: 500,
      },
      testConnectorDeps(ctx),
    );
    await withTestConnector(ctx, unreachable, async () => {
      ctx.clock.advance(10 * SECOND);
      await ctx.services.attempts.pollDue();
      expect((await storedAttempt(intent.id)).status).toBe('PENDING');
      ctx.clock.advance(15 * MINUTE);
      await ctx.services.attempts.pollDue();
    });
    const [attempt] = await ctx.services.attempts.listForIntent(intent.id);
    expect(attempt).toMatchObject({ status: 'FAILED', failureCode: 'approval_timeout' });
    expect((await read(cm, intent.id)).status).toBe('PENDING');
    await expectLedgerClean(ctx);
  });

  it("a charge in a currency the account's environment cannot take: 400 currency_unsupported, nothing asked of Orange", async () => {
    // An account on Orange's Cameroon environment (XAF only) serving a Senegal merchant (XOF).
    const cmAccount = createOrangeMoneyConnector(
      {
        ...ORANGE_MONEY_CONNECTOR.sandbox.settings({ baseUrl: sandbox.urls.orange_money as string, secrets: sandbox.secrets.orange_money ?? {} }),
        environment: 'cm',
      },
      testConnectorDeps(ctx),
    );
    const intent = await createIntent(ctx, sn, { currency: 'XOF' });
    const payments = sandbox.of(ORANGE_MONEY_CONNECTOR).payments().length;
    await withTestConnector(ctx, cmAccount, async () => {
      expect((await charge(sn, intent, 'orange_money', '+221770000001')).json()).toMatchObject({
        status: 400,
        code: 'currency_unsupported',
        detail: expect.stringContaining('takes XAF'),
      });
    });
    expect(sandbox.of(ORANGE_MONEY_CONNECTOR).payments()).toHaveLength(payments);
    expect((await read(sn, intent.id)).status).toBe('PENDING');
  });
});

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
    // The provider's notification reached our callback route and was taken (204), before any poll.
    expect(notificationsOf(provider, stored.provider_reference as string)[0]?.httpStatus).toBe(204);
    // The poller asks too, and the second callback comes: nothing happens twice.
    ctx.clock.advance(10 * SECOND);
    await ctx.services.attempts.pollDue();
    await later();
    expect(await completed(m, intent.id)).toBe(1);
    expect((await storedAttempt(intent.id)).status).toBe('SUCCEEDED');
    await expectLedgerClean(ctx);
  });

  it('the page names the merchant by its short name where the provider takes one (Orange), not where it shows its own (Wave)', async () => {
    const m = merchant();
    await ctx.services.merchants.setShortName(m.merchantId, 'Boutique Akwa 2');
    try {
      const intent = await createIntent(ctx, m, { currency });
      const url = ((await charge(m, intent, provider, number())).json() as Answer).nextAction?.url ?? '';
      const page = new URL(url);
      page.searchParams.set('lang', 'en');
      const html = await (await fetch(page)).text();
      if (provider === 'orange_money') {
        expect(html).toContain('Merchant: <strong data-merchant>Boutique Akwa 2</strong>');
        expect(sandbox.of(ORANGE_MONEY_CONNECTOR).payments().at(-1)).toMatchObject({ reference: 'Boutique Akwa 2' });
      } else expect(html).not.toContain('Boutique Akwa 2');
    } finally {
      await ctx.services.merchants.setShortName(m.merchantId, null);
    }
  });

  it('the page shows the number the payer typed in checkout (issue 58), and says what a test unit is', async () => {
    const m = merchant();
    const intent = await createIntent(ctx, m, { currency });
    const phone = number();
    const url = ((await charge(m, intent, provider, phone)).json() as Answer).nextAction?.url ?? '';
    const page = new URL(url);
    page.searchParams.set('lang', 'en');
    const html = await (await fetch(page)).text();
    expect(html).toContain(`name="phoneNumber" inputmode="tel" value="${phone}"`);
    // Orange's test environment counts in OUV: the page says it stands for the franc.
    const amount = /Amount: <strong>[^<]* ([A-Z]{3})<\/strong>/.exec(html)?.[1];
    if (amount === 'XAF' || amount === 'XOF') expect(html).not.toContain('data-test-unit');
    else expect(html).toMatch(new RegExp(`data-test-unit>${amount}: the provider.{1,6}s test environment.{1,6}s unit, standing for XAF or XOF`));
    // The form sends the prefilled field back: the payment is approved without typing it again.
    const approved = await onPage(url, 'approve', phone);
    expect(approved.status).toBe(303);
    await later();
    await expect.poll(async () => (await read(m, intent.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
  });

  // Wave keeps a declined session open: its own tests below.
  it.runIf(provider === 'orange_money')('declining fails the attempt and the intent is PENDING again, ready for another try', async () => {
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

  it("with the merchant's returnUrl, a decline comes back to checkout (send again, pay another way), not to the shop; so does the approval", async () => {
    const m = merchant();
    const returnUrl = 'https://shop.example/orders/42';
    const intent = await createIntent(ctx, m, { currency, returnUrl });
    const checkout = `/checkout/${encodeURIComponent(intent.sessionToken)}`;
    const phone = number();
    const first = (await charge(m, intent, provider, phone)).json() as Answer;
    const declined = await onPage(first.nextAction?.url ?? '', 'decline');
    expect(declined.status).toBe(303);
    expect(declined.headers.get('location')).toContain(checkout);
    expect(declined.headers.get('location')).not.toContain('shop.example');
    // Wave keeps a declined session open (the payer may still pay it): its own tests below.
    if (provider === 'wave') return;
    await later();
    await expect.poll(async () => (await read(m, intent.id)).status, { interval: 20, timeout: 5000 }).toBe('PENDING');
    // Back on checkout the intent reads PENDING with the failed attempt (checkout's "send again"
    // and "pay another way"), and still carries where the shop is, for after the payment.
    const back = (await call(ctx.app, 'GET', `/gateway/sessions/${intent.sessionToken}`, pk(m))).json();
    expect(back).toMatchObject({ status: 'PENDING', returnUrl, attempts: [expect.objectContaining({ status: 'FAILED', failureCode: 'approval_rejected' })] });
    const second = await charge(m, intent, provider, phone);
    expect(second.statusCode, second.body).toBe(202);
    const approved = await onPage((second.json() as Answer).nextAction?.url ?? '', 'approve', phone);
    expect(approved.headers.get('location')).toContain(checkout);
    await later();
    await expect.poll(async () => (await read(m, intent.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    expect((await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m))).json()).toMatchObject({ returnUrl });
  });
});

describe('after a restart', () => {
  it("Orange's status is asked with the pay_token and amount stored with the attempt, not the connector's memory", async () => {
    const intent = await createIntent(ctx, cm);
    const started = (await charge(cm, intent, 'orange_money', orangeNumber())).json() as Answer;
    // The notification is lost, and so is the process that sent the request.
    sandbox.of(ORANGE_MONEY_CONNECTOR).setFaults({ dropCallbacks: true });
    try {
      await onPage(started.nextAction?.url ?? '', 'approve', orangeNumber());
      await later();
      expect((await read(cm, intent.id)).status).toBe('PROCESSING');
      const connectors = createModeConnectors(ctx.deps.config, {
        clock: ctx.clock,
        logger: createLogger({ level: 'silent' }),
        callbackKey: ctx.deps.config.masterKey,
      });
      const restarted = createServices(ctx.deps, { connectors });
      ctx.clock.advance(10 * SECOND);
      expect(await restarted.attempts.pollDue()).toBeGreaterThanOrEqual(1);
      expect((await read(cm, intent.id)).status).toBe('SUCCEEDED');
      await connectors.close();
    } finally {
      sandbox.of(ORANGE_MONEY_CONNECTOR).setFaults({ dropCallbacks: false });
    }
  });
});

describe('an Orange page lost in a crash', () => {
  it('fails the attempt with provider_page_lost at once; a late SUCCESS notification moves no money; the payer retries', async () => {
    const intent = await createIntent(ctx, cm);
    const started = (await charge(cm, intent, 'orange_money', orangeNumber())).json() as Answer;
    const url = started.nextAction?.url ?? '';
    const payToken = (await storedAttempt(intent.id)).provider_reference as string;
    // The crash point: the process died after Orange accepted the webpayment and before its
    // answer was stored, so the attempt holds neither the page nor the pay_token.
    await ctx.deps.db.updateTable('payment_attempts').set({ provider_reference: null, redirect_url: null }).where('intent_id', '=', intent.id).execute();
    // The restarted process: its connectors remember nothing.
    const connectors = createModeConnectors(ctx.deps.config, {
      clock: ctx.clock,
      logger: createLogger({ level: 'silent' }),
      callbackKey: ctx.deps.config.masterKey,
    });
    try {
      const restarted = createServices(ctx.deps, { connectors });
      const orange = connectors.forMode('test').get('orange_money');
      if (!orange) throw new Error('no orange_money connector in test mode');
      ctx.clock.advance(pageLostAfterMs(orange) + SECOND);
      await restarted.attempts.pollDue();
      const [failed] = await ctx.services.attempts.listForIntent(intent.id);
      expect(failed).toMatchObject({ status: 'FAILED', failureCode: 'provider_page_lost' });
      expect((await read(cm, intent.id)).status).toBe('PENDING');
      const events = (await call(ctx.app, 'GET', '/events?limit=100', sk(cm))).json() as { data: { type: string; data: { paymentIntent?: { id: string } } }[] };
      expect(events.data.filter((e) => e.type === 'payment.failed' && e.data.paymentIntent?.id === intent.id)).toHaveLength(1);

      // Orange's page was real all the same: paid there, its notification reaches a process that
      // still knows the pay_token, whose status read says SUCCESS. The attempt was decided once.
      await onPage(url, 'approve', orangeNumber());
      await later();
      expect(notificationsOf('orange_money', payToken).length).toBeGreaterThanOrEqual(1);
      ctx.clock.advance(10 * SECOND);
      await restarted.attempts.pollDue();
      expect((await ctx.services.attempts.listForIntent(intent.id))[0]).toMatchObject({ status: 'FAILED', failureCode: 'provider_page_lost', late: false });
      expect((await read(cm, intent.id)).status).toBe('PENDING');
      expect(await completed(cm, intent.id)).toBe(0);
      await expectLedgerClean(ctx);

      // The payer tries again at once.
      const again = await charge(cm, intent, 'orange_money', orangeNumber());
      expect(again.statusCode, again.body).toBe(202);
      const retried = again.json() as Answer;
      expect(retried.attempts).toHaveLength(2);
      expect(retried.nextAction?.type).toBe('redirect');
      // Declined there, so that no attempt stays PENDING for the tests after this one.
      await onPage(retried.nextAction?.url ?? '', 'decline');
      await later();
      await expect.poll(async () => (await read(cm, intent.id)).status, { interval: 20, timeout: 5000 }).toBe('PENDING');
    } finally {
      await connectors.close();
    }
  });
});

describe('callbacks of redirect providers', () => {
  it('a Wave webhook with a bad signature, or none, is refused, and changes nothing', async () => {
    const body = JSON.stringify({
      id: 'EV_1',
      type: 'checkout.session.completed',
      data: { id: 'cos_1', client_reference: '6c1c0c8e-8f7a-4b4f-9f43-0f4b8c1b2a10' },
    });
    const res = await call(ctx.app, 'POST', '/callbacks/wave', { headers: { 'wave-signature': 't=1,v1=00', 'content-type': 'application/json' } }, body);
    expect(res.json()).toMatchObject({ status: 400, code: 'callback_invalid' });
    // No Wave-Signature, a provider that signs nothing, a body that is not JSON: refused, never a 500.
    for (const [url, headers, payload] of [
      ['/callbacks/wave', { 'content-type': 'application/json' }, body],
      ['/callbacks/orange_money', { 'content-type': 'application/json', 'wave-signature': 't=1,v1=00' }, body],
      ['/callbacks/paypal', { 'content-type': 'application/json' }, '{}'],
      ['/callbacks/wave', { 'content-type': 'application/json', 'wave-signature': 't=1,v1=00' }, '{not json'],
    ] as const) {
      const refused = await call(ctx.app, 'POST', url, { headers }, payload);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'callback_invalid' });
    }
    const text = await call(ctx.app, 'POST', '/callbacks/wave', { headers: { 'content-type': 'text/plain' } }, 'hello');
    expect(text.statusCode).toBe(415);
  });

  it('forged callbacks for a real pending payment, MTN, Orange and Wave, are refused and change nothing', async () => {
    const events = async (m: TestMerchant) => (await call(ctx.app, 'GET', '/events?limit=100', sk(m))).json().data.length as number;
    // Orange: the payment's own notif_url with another notif_token, and with none.
    const orange = await createIntent(ctx, cm, { currency: 'XAF' });
    expect((await charge(cm, orange, 'orange_money', orangeNumber())).statusCode).toBe(202);
    const payToken = (await storedAttempt(orange.id)).provider_reference as string;
    const notifUrl = new URL(
      sandbox
        .of(ORANGE_MONEY_CONNECTOR)
        .payments()
        .find((p) => p.payToken === payToken)?.notifUrl ?? '',
    );
    // Wave: the session's completion signed with the secret this code once held, then with none.
    const wave = await createIntent(ctx, sn, { currency: 'XOF' });
    expect((await charge(sn, wave, 'wave', waveNumber())).statusCode).toBe(202);
    const sessionId = (await storedAttempt(wave.id)).provider_reference;
    const session = sandbox
      .of(WAVE_CONNECTOR)
      .sessions()
      .find((p) => p.id === sessionId);
    expect(session).toBeDefined();
    // MTN MoMo: the request's own callback URL with another token, and its token on another reference.
    const mtnPhone = `+2376772${String(++numbers).padStart(2, '0')}000`;
    const momo = await createIntent(ctx, cm, { currency: 'XAF' });
    expect((await charge(cm, momo, 'mtn_momo', mtnPhone)).statusCode).toBe(202);
    await ctx.services.attempts.drain(); // the prompt is sent after the answer
    const momoCallback = new URL(
      sandbox
        .of(MTN_MOMO_CONNECTOR)
        .requests()
        .find((r) => r.partyId === mtnPhone.slice(1))?.callbackUrl ?? '',
    ).pathname;
    const before = { cm: await events(cm), sn: await events(sn) };

    const paid = JSON.stringify({ status: 'SUCCESSFUL', amount: '5000', currency: 'XAF', financialTransactionId: '1' });
    const flipped = `${momoCallback.slice(0, -1)}${momoCallback.endsWith('A') ? 'B' : 'A'}`;
    const otherReference = momoCallback.replace(/collection\/[^/]+\//, `collection/${newReference()}/`);
    for (const [path, status, code] of [
      [flipped, 400, 'callback_invalid'],
      [otherReference, 404, 'not_found'],
    ] as const) {
      const res = await call(ctx.app, 'PUT', path, { headers: { 'content-type': 'application/json' } }, paid);
      expect(res.statusCode, `${path} ${res.body}`).toBe(status);
      expect(res.json()).toMatchObject({ code });
    }

    const json = { 'content-type': 'application/json' };
    for (const body of [
      { status: 'SUCCESS', notif_token: 'forged', txnid: 'MP1' },
      { status: 'SUCCESS', txnid: 'MP1' },
    ]) {
      const res = await call(ctx.app, 'POST', notifUrl.pathname, { headers: json }, JSON.stringify(body));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'callback_invalid' });
    }
    const waveCompleted = JSON.stringify({
      id: 'AE_forged',
      type: 'checkout.session.completed',
      data: { id: session?.id, client_reference: (await ctx.services.attempts.listForIntent(wave.id))[0]?.id, payment_status: 'succeeded' },
    });
    const now = ctx.clock.now().getTime();
    for (const signature of [waveSignatureHeader('wave_sandbox_webhook_secret', now, waveCompleted), undefined]) {
      const res = await call(
        ctx.app,
        'POST',
        '/callbacks/wave',
        { headers: { ...json, ...(signature ? { 'wave-signature': signature } : {}) } },
        waveCompleted,
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'callback_invalid' });
    }

    for (const [m, intent] of [
      [cm, momo],
      [cm, orange],
      [sn, wave],
    ] as const) {
      expect((await read(m, intent.id)).status).toBe('PROCESSING');
      expect((await storedAttempt(intent.id)).status).toBe('PENDING');
    }
    expect({ cm: await events(cm), sn: await events(sn) }).toEqual(before);
    await expectLedgerClean(ctx);
    // The genuine MTN callback still goes through; the others are declined on their pages, so no
    // attempt stays PENDING for the tests after this one.
    await later();
    await expect.poll(async () => (await read(cm, momo.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    expect(await completed(cm, momo.id)).toBe(1);
    await onPage((await storedAttempt(orange.id)).redirect_url as string, 'decline');
    await later();
    await expect.poll(async () => (await read(cm, orange.id)).status, { interval: 20, timeout: 5000 }).toBe('PENDING');
    // A declined Wave session stays open (as at Wave): this one is paid instead.
    await onPage((await storedAttempt(wave.id)).redirect_url as string, 'approve');
    await later();
    await expect.poll(async () => (await read(sn, wave.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
  });
});

const waveSession = (id: string | null) =>
  sandbox
    .of(WAVE_CONNECTOR)
    .sessions()
    .find((x) => x.id === id);

describe('wave as Wave does (issue 55)', () => {
  it('a decline leaves the session open; the payer who chooses again has it expired first, and the first attempt fails', async () => {
    const intent = await createIntent(ctx, sn, { currency: 'XOF' });
    const started = (await charge(sn, intent, 'wave', waveNumber())).json() as Answer;
    const url = started.nextAction?.url ?? '';
    const declined = await onPage(url, 'decline');
    expect(declined.status).toBe(303);
    await later();
    const first = await storedAttempt(intent.id);
    // Open at Wave, with the decline as its last error; its webhook was taken (204) and decided nothing.
    expect(waveSession(first.provider_reference)).toMatchObject({
      checkout_status: 'open',
      payment_status: 'cancelled',
      last_payment_error: { code: 'APPROVAL_REJECTED' },
    });
    expect(waveSession(first.provider_reference)?.notifications.at(-1)?.httpStatus).toBe(204);
    expect(first.status).toBe('PENDING');
    expect((await read(sn, intent.id)).status).toBe('PROCESSING');

    // The same charge again (a retry of the one that made the attempt): the page stays open.
    const replayed = await charge(sn, intent, 'wave', first.phone_number);
    expect(replayed.json()).toMatchObject({ status: 409, code: 'attempt_in_progress' });
    expect(waveSession(first.provider_reference)).toMatchObject({ checkout_status: 'open' });

    // Back on the merchant's checkout, the payer chooses Orange Money: the Wave session is expired
    // first, its attempt decided by what Wave says then (the decline), and the new one starts.
    const again = await charge(sn, intent, 'orange_money', '+221770000001');
    expect(again.statusCode, again.body).toBe(202);
    const retried = again.json() as Answer;
    expect(retried.attempts).toHaveLength(2);
    expect(retried.attempts[0]).toMatchObject({ status: 'FAILED', failureCode: 'approval_rejected' });
    expect(waveSession(first.provider_reference)).toMatchObject({ checkout_status: 'expired' });
    // The old page can no longer be paid.
    expect((await onPage(url, 'approve')).status).toBe(409);
    await onPage(retried.nextAction?.url ?? '', 'decline', '+221770000001');
    await later();
    await expect.poll(async () => (await read(sn, intent.id)).status, { interval: 20, timeout: 5000 }).toBe('PENDING');
    await expectLedgerClean(ctx);
  });

  it('a payment that beat the payer back to checkout is the intent’s: paid once, the new charge refused', async () => {
    const intent = await createIntent(ctx, sn, { currency: 'XOF' });
    const started = (await charge(sn, intent, 'wave', waveNumber())).json() as Answer;
    // Paid on Wave's page, but its webhook lost: Caisse does not know yet.
    sandbox.of(WAVE_CONNECTOR).setFaults({ dropCallbacks: true });
    try {
      await onPage(started.nextAction?.url ?? '', 'approve');
      await later();
    } finally {
      sandbox.of(WAVE_CONNECTOR).setFaults({ dropCallbacks: false });
    }
    expect((await read(sn, intent.id)).status).toBe('PROCESSING');
    const again = await charge(sn, intent, 'wave', waveNumber());
    expect(again.json()).toMatchObject({ status: 409, code: 'intent_state_invalid' });
    expect((await read(sn, intent.id)).status).toBe('SUCCEEDED');
    expect(await completed(sn, intent.id)).toBe(1);
    await expectLedgerClean(ctx);
  });

  it('an authenticated event Caisse does not act on is answered 2xx, so that Wave stops sending it', async () => {
    const wave = sandbox.of(WAVE_CONNECTOR);
    expect((await wave.sendEvent('merchant.payment_received', { id: 'T_1', amount: '100', currency: 'XOF' })).httpStatus).toBe(204);
    // A session the merchant made outside Caisse on the same Wave account.
    expect((await wave.sendEvent('checkout.session.completed', { id: 'cos-own', client_reference: 'order-77' })).httpStatus).toBe(204);
    // A reference of ours in shape that Caisse never made (another system on the same Wave account).
    expect((await wave.sendEvent('checkout.session.completed', { id: 'cos-other', client_reference: newReference() })).httpStatus).toBe(204);
  });

  it('a key limited to some Wave APIs: refused before any call, saying why (payouts 400, refunds 409)', async () => {
    const m = await createMerchant(ctx, 'Rufisque shop');
    await ctx.services.merchants.setCountry(m.merchantId, 'SN');
    await ctx.services.merchants.setSettlementDelay(m.merchantId, 0);
    const paid = await paidWithWave(m);
    await ctx.services.balances.settleDue();
    const keyed = (scopes: string) =>
      createWaveConnector(
        { ...WAVE_CONNECTOR.sandbox.settings({ baseUrl: sandbox.urls.wave!, secrets: sandbox.secrets.wave ?? {} }), scopes },
        testConnectorDeps(ctx),
      );
    const payouts = sandbox.of(WAVE_CONNECTOR).stats().payouts;
    await withTestConnector(ctx, keyed('checkout'), async () => {
      // The dashboard is told before anyone tries.
      const settings = (await call(ctx.app, 'GET', '/payment-methods/settings', sk(m))).json() as {
        providers: { provider: string; capabilities: Record<string, boolean> }[];
      };
      expect(settings.providers.find((p) => p.provider === 'wave')?.capabilities).toEqual({ collect: true, disburse: false, refund: true });
      const body = { amount: '1000', currency: 'XOF', destination: { provider: 'wave', phoneNumber: '+221770009101' } };
      expect((await call(ctx.app, 'POST', '/payouts', sk(m), body)).json()).toMatchObject({
        status: 400,
        code: 'destination_unsupported',
        detail: expect.stringContaining('payout API'),
      });
      // A part of a payment goes back by a transfer, which this key cannot send; the whole can.
      expect((await call(ctx.app, 'POST', `/gateway/${paid.intent.id}/refunds`, sk(m), { amount: '1000' })).json()).toMatchObject({
        status: 409,
        code: 'refund_unsupported',
      });
    });
    await withTestConnector(ctx, keyed('payout'), async () => {
      expect((await call(ctx.app, 'POST', `/gateway/${paid.intent.id}/refunds`, sk(m), {})).json()).toMatchObject({
        status: 409,
        code: 'refund_unsupported',
        detail: expect.stringContaining('checkout API'),
      });
    });
    expect(sandbox.of(WAVE_CONNECTOR).stats().payouts).toBe(payouts);
    expect(waveSession(paid.stored.provider_reference)?.refunded).toBe(false);
  });
});

/** A paid Wave intent of the SN merchant, and its attempt as stored. */
async function paidWithWave(m: TestMerchant) {
  const intent = await createIntent(ctx, m, { currency: 'XOF' });
  const phone = waveNumber();
  const started = (await charge(m, intent, 'wave', phone)).json() as Answer;
  await onPage(started.nextAction?.url ?? '', 'approve');
  await later();
  await expect.poll(async () => (await read(m, intent.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
  return { intent, stored: await storedAttempt(intent.id) };
}

describe('money out with Wave', () => {
  it('a payout to a Wave number is sent once (idempotency-key) and PAID; Orange Money cannot receive payouts', async () => {
    const m = await createMerchant(ctx, 'Thies shop');
    await ctx.services.merchants.setCountry(m.merchantId, 'SN');
    await ctx.services.merchants.setSettlementDelay(m.merchantId, 0);
    await paidWithWave(m);
    await ctx.services.balances.settleDue();
    const payee = '+221770009001';
    const body = { amount: '4925', currency: 'XOF', destination: { provider: 'wave', phoneNumber: payee } };
    const res = await call(ctx.app, 'POST', '/payouts', { ...sk(m), headers: { 'idempotency-key': 'wave-po-1' } }, body);
    expect(res.statusCode, res.body).toBe(202);
    const created = res.json() as { id: string };
    await ctx.services.payouts.drain();
    ctx.clock.advance(2 * SECOND);
    await sandbox.tick();
    await ctx.services.payouts.pollDue();
    await expect
      .poll(async () => ((await call(ctx.app, 'GET', `/payouts/${created.id}`, sk(m))).json() as { status: string }).status, { interval: 20, timeout: 5000 })
      .toBe('PAID');
    expect(sandbox.of(WAVE_CONNECTOR).stats().payouts).toBe(1);

    const orange = await call(ctx.app, 'POST', '/payouts', sk(m), { ...body, destination: { provider: 'orange_money', phoneNumber: '+221770009002' } });
    expect(orange.json()).toMatchObject({ status: 400, code: 'destination_unsupported', param: 'destination.provider' });
    expect((await call(ctx.app, 'POST', '/payouts', sk(m), { ...body, destination: { provider: 'paypal', phoneNumber: payee } })).json()).toMatchObject({
      code: 'provider_unsupported',
    });
    await expectLedgerClean(ctx);
  });

  it("Wave's refund operation gives a paid session back once; an unpaid one is refused", async () => {
    const wave = createWaveConnector(
      { baseUrl: sandbox.urls.wave!, apiKey: 'wave_sn_test', webhookSecret: sandbox.secrets.wave!.webhookSecret! },
      { clock: ctx.clock, logger: { debug() {}, info() {}, warn() {} }, callbackKey: Buffer.alloc(32, 1) },
    );
    const { stored } = await paidWithWave(sn);
    const request = {
      reference: newReference(),
      amount: 5000n,
      currency: 'XOF' as const,
      phoneNumber: '+221770000000',
      externalId: 're_1',
      providerReference: stored.provider_reference as string,
    };
    expect(await wave.refund?.(request)).toMatchObject({ status: 'PENDING', providerReference: stored.provider_reference });
    expect(
      sandbox
        .of(WAVE_CONNECTOR)
        .sessions()
        .find((s) => s.id === stored.provider_reference)?.refunded,
    ).toBe(true);
    expect(await wave.refund?.({ ...request, reference: newReference() })).toEqual({ status: 'FAILED', reason: 'checkout-refund-failed' });

    const unpaid = await createIntent(ctx, sn, { currency: 'XOF' });
    await charge(sn, unpaid, 'wave', waveNumber());
    const open = await storedAttempt(unpaid.id);
    expect(await wave.refund?.({ ...request, reference: newReference(), providerReference: open.provider_reference as string })).toEqual({
      status: 'FAILED',
      reason: 'checkout-refund-failed',
    });
    expect(await wave.refund?.({ ...request, providerReference: '../v1/payout' })).toMatchObject({ status: 'FAILED', reason: 'INVALID_PROVIDER_REFERENCE' });
    await wave.close();
  });

  it('refunding a Wave payment: the whole through its refund operation, a part by a transfer to the payer; Orange Money cannot', async () => {
    const refunded = async (m: TestMerchant, id: string) => {
      await ctx.services.refunds.drain();
      ctx.clock.advance(2 * SECOND);
      await sandbox.tick();
      await ctx.services.refunds.pollDue();
      return read(m, id);
    };
    const whole = await paidWithWave(sn);
    const all = await call(ctx.app, 'POST', `/gateway/${whole.intent.id}/refunds`, sk(sn), {});
    expect(all.json()).toMatchObject({ status: 'PENDING', amount: '5000' });
    // Wave's 200 is the refund: SUCCEEDED on its answer, without a status read.
    await ctx.services.refunds.drain();
    expect(await read(sn, whole.intent.id)).toMatchObject({ status: 'REFUNDED' });
    expect(
      sandbox
        .of(WAVE_CONNECTOR)
        .sessions()
        .find((x) => x.id === whole.stored.provider_reference)?.refunded,
    ).toBe(true);

    const part = await paidWithWave(sn);
    const payoutsBefore = sandbox.of(WAVE_CONNECTOR).stats().payouts;
    expect((await call(ctx.app, 'POST', `/gateway/${part.intent.id}/refunds`, sk(sn), { amount: '1000' })).json()).toMatchObject({
      status: 'PENDING',
      amount: '1000',
    });
    expect(await refunded(sn, part.intent.id)).toMatchObject({ status: 'PARTIALLY_REFUNDED' });
    expect(
      sandbox
        .of(WAVE_CONNECTOR)
        .sessions()
        .find((x) => x.id === part.stored.provider_reference)?.refunded,
    ).toBe(false);
    expect(sandbox.of(WAVE_CONNECTOR).stats().payouts).toBe(payoutsBefore + 1);

    const orange = await createIntent(ctx, cm);
    const started = (await charge(cm, orange, 'orange_money', orangeNumber())).json() as Answer;
    await onPage(started.nextAction?.url ?? '', 'approve', orangeNumber());
    await later();
    await expect.poll(async () => (await read(cm, orange.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    expect((await call(ctx.app, 'POST', `/gateway/${orange.id}/refunds`, sk(cm), {})).json()).toMatchObject({ status: 409, code: 'refund_unsupported' });
    await expectLedgerClean(ctx);
  });

  it('the Wave sandbox refuses payouts the real API refuses', async () => {
    const post = (body: Record<string, unknown>, headers: Record<string, string> = { 'idempotency-key': newReference() }) =>
      fetch(`${sandbox.urls.wave}/v1/payout`, {
        method: 'POST',
        headers: { authorization: 'Bearer wave_sn_test', 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const good = { currency: 'XOF', receive_amount: '1000', mobile: '+221770009100', client_reference: newReference(), payment_reason: 'Payout' };
    expect((await post(good, {})).status).toBe(400); // no idempotency-key
    expect((await post({ ...good, receive_amount: '0' })).status).toBe(400);
    expect((await post({ ...good, currency: 'XAF' })).status).toBe(400);
    expect((await post({ ...good, mobile: '770009100' })).status).toBe(400);
    expect((await post({ ...good, payment_reason: 'x'.repeat(41) })).status).toBe(400);
    const key = { 'idempotency-key': newReference() };
    const first = await post(good, key);
    expect(first.status).toBe(200);
    const paid = (await first.json()) as { id: string };
    expect(((await (await post(good, key)).json()) as { id: string }).id).toBe(paid.id);
    expect((await post({ ...good, receive_amount: '2000' }, key)).status).toBe(409);
    const read = await fetch(`${sandbox.urls.wave}/v1/payout/${paid.id}`, { headers: { authorization: 'Bearer wave_sn_test' } });
    expect(await read.json()).toMatchObject({ id: paid.id, receive_amount: '1000', client_reference: good.client_reference });
    expect((await fetch(`${sandbox.urls.wave}/v1/payout/pt-none`, { headers: { authorization: 'Bearer wave_sn_test' } })).status).toBe(404);
    expect((await fetch(`${sandbox.urls.wave}/v1/payout/${paid.id}`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
  });
});

describe('provider health', () => {
  const waveMethod = async (m: TestMerchant, sessionToken: string) =>
    (
      (await call(ctx.app, 'GET', `/payment-methods?sessionToken=${encodeURIComponent(sessionToken)}`, pk(m))).json() as {
        data: { provider?: string; available?: boolean }[];
      }
    ).data.find((d) => d.provider === 'wave');

  it('a provider that keeps answering 500 is refused with 503 and greyed, then a probe after the cool-down brings it back', async () => {
    const m = await createMerchant(ctx, 'Saint-Louis shop');
    await ctx.services.merchants.setCountry(m.merchantId, 'SN');
    const payer = waveNumber();
    // Earlier tests' Wave successes fall out of the 5-minute window.
    ctx.clock.advance(5 * MINUTE);
    sandbox.of(WAVE_CONNECTOR).setFaults({ answer500: true });
    try {
      // Every charge's request answers 500 (and so do the status reads of Wave's webhooks for
      // sessions that expired meanwhile): after 5 bad outcomes, mostly bad, charges are refused.
      let refused: Awaited<ReturnType<typeof charge>> | undefined;
      let intent = await createIntent(ctx, m, { currency: 'XOF' });
      for (let i = 0; i < 10 && refused === undefined; i++) {
        const res = await charge(m, intent, 'wave', waveNumber());
        if (res.statusCode === 503) refused = res;
        else {
          expect(res.statusCode).toBe(202);
          intent = await createIntent(ctx, m, { currency: 'XOF' });
        }
      }
      expect(refused?.json()).toMatchObject({ status: 503, code: 'provider_unavailable', param: 'paymentMethod.provider' });
      expect(await waveMethod(m, intent.sessionToken)).toMatchObject({ available: false });
      const settings = (await call(ctx.app, 'GET', '/payment-methods/settings', sk(m))).json() as { providers: { provider: string; available: boolean }[] };
      expect(settings.providers.map((p) => [p.provider, p.available])).toEqual([
        ['mtn_momo', true],
        ['orange_money', true],
        ['wave', false],
        // The methods only aggregators reach: another account's outage greys none of them.
        ['moov_money', true],
        ['free_money', true],
        ['t_money', true],
        ['celtiis_cash', true],
      ]);
      const metrics = (await call(ctx.app, 'GET', '/metrics')).body;
      expect(
        Number(/caisse_provider_calls_total\{mode="test",provider="wave",account="pac_sandbox_wave",outcome="server_error"\} (\d+)/.exec(metrics)?.[1]),
      ).toBeGreaterThanOrEqual(5);
      expect(metrics).toMatch(/caisse_provider_available\{mode="test",provider="wave",account="pac_sandbox_wave"\} 0/);
      // Other providers are not affected.
      expect((await charge(cm, await createIntent(ctx, cm), 'orange_money', orangeNumber())).statusCode).toBe(202);
      // A payer who tries again meanwhile sends no prompt and keeps the tries of their number.
      for (let i = 0; i < 4; i++) expect((await charge(m, intent, 'wave', payer)).json()).toMatchObject({ status: 503, code: 'provider_unavailable' });
    } finally {
      sandbox.of(WAVE_CONNECTOR).setFaults({ answer500: false });
    }
    ctx.clock.advance(30 * SECOND);
    const intent = await createIntent(ctx, m, { currency: 'XOF' });
    expect(await waveMethod(m, intent.sessionToken)).toMatchObject({ available: true });
    const probe = await charge(m, intent, 'wave', payer);
    expect(probe.statusCode, probe.body).toBe(202);
    expect((probe.json() as Answer).nextAction?.type).toBe('redirect');
    expect(await waveMethod(m, intent.sessionToken)).toMatchObject({ available: true });
    expect((await call(ctx.app, 'GET', '/metrics')).body).toMatch(/caisse_provider_available\{mode="test",provider="wave",account="pac_sandbox_wave"\} 1/);
  });
});

describe('provider health per account', () => {
  it("another account's outage of the same connector greys nothing; this mode's account's greys only its own method", async () => {
    const m = await createMerchant(ctx, 'Thiès shop');
    await ctx.services.merchants.setCountry(m.merchantId, 'SN');
    const health = ctx.services.connectors.forMode('test').health;
    if (health === undefined) throw new Error('test mode is watched');
    const methods = async () => {
      const intent = await createIntent(ctx, m, { currency: 'XOF' });
      const res = await call(ctx.app, 'GET', `/payment-methods?sessionToken=${encodeURIComponent(intent.sessionToken)}`, pk(m));
      expect(res.statusCode, res.body).toBe(200);
      return Object.fromEntries(
        (res.json() as { data: { provider?: string; available?: boolean }[] }).data.filter((d) => d.provider).map((d) => [d.provider, d.available]),
      );
    };
    // Earlier tests' outcomes fall out of the window.
    ctx.clock.advance(5 * MINUTE);
    expect(await methods()).toMatchObject({ wave: true, orange_money: true });
    // Another account of Wave (not the one test mode calls with) fails every call.
    for (let i = 0; i < 10; i++) health.record('pac_other_wave', 'wave', 'timeout');
    expect(health.available('pac_other_wave', 'wave')).toBe(false);
    expect(await methods()).toMatchObject({ wave: true, orange_money: true });
    // This mode's own Wave account fails: Wave is greyed, Orange Money is not.
    for (let i = 0; i < 10; i++) health.record('pac_sandbox_wave', 'wave', 'server_error');
    expect(await methods()).toMatchObject({ wave: false, orange_money: true });
    const metrics = (await call(ctx.app, 'GET', '/metrics')).body;
    expect(metrics).toMatch(/caisse_provider_available\{mode="test",provider="wave",account="pac_other_wave"\} 0/);
    expect(metrics).toMatch(/caisse_provider_available\{mode="test",provider="wave",account="pac_sandbox_wave"\} 0/);
    // Back after the cool-down, for the next tests.
    ctx.clock.advance(5 * MINUTE);
    for (let i = 0; i < 5; i++) health.record('pac_sandbox_wave', 'wave', 'success');
    expect(await methods()).toMatchObject({ wave: true });
  });
});

describe('numbers as people write them: read in the merchant country, stored in E.164', () => {
  const storedNumber = async (intentId: string) =>
    (await ctx.deps.db.selectFrom('payment_attempts').select('phone_number').where('intent_id', '=', intentId).executeTakeFirstOrThrow()).phone_number;

  it.each([
    { merchant: () => cm, provider: 'mtn_momo', currency: 'XAF', typed: '670000001', stored: '+237670000001' },
    { merchant: () => cm, provider: 'orange_money', currency: 'XAF', typed: '6.90-12.34.56', stored: '+237690123456' },
    { merchant: () => sn, provider: 'wave', currency: 'XOF', typed: '77 123 45 67', stored: '+221771234567' },
    { merchant: () => sn, provider: 'wave', currency: 'XOF', typed: '00221 76-123-45-67', stored: '+221761234567' },
  ])('$typed for a $provider payment is taken as $stored', async ({ merchant, provider, currency, typed, stored }) => {
    const intent = await createIntent(ctx, merchant(), { currency });
    const res = await charge(merchant(), intent, provider, typed);
    expect(res.statusCode, res.body).toBe(202);
    expect(await storedNumber(intent.id)).toBe(stored);
  });

  it('a payout destination as a Senegalese merchant writes it is stored in E.164', async () => {
    const put = await call(ctx.app, 'PUT', '/payout-schedule', sk(sn), { interval: 'daily', destination: { provider: 'wave', phoneNumber: '77.123.45.67' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ destination: { provider: 'wave', phoneNumber: '+221771234567' } });
    await call(ctx.app, 'PUT', '/payout-schedule', sk(sn), { interval: 'manual' });
  });

  it('a number with its own country code keeps it; what is not a mobile number of the country is phone_invalid, saying what was expected', async () => {
    const intent = await createIntent(ctx, sn, { currency: 'XOF' });
    // Read as Cameroon's (+237), which Wave does not serve, not as a Senegalese number.
    expect((await charge(sn, intent, 'wave', '+237 6 70 00 00 02')).json()).toMatchObject({
      status: 400,
      code: 'phone_invalid',
      detail: expect.stringMatching(/^Wave does not serve \+237/),
    });
    const sent = sandbox.of(WAVE_CONNECTOR).sessions().length;
    const refused = (await charge(sn, intent, 'wave', '670000001')).json();
    expect(refused).toMatchObject({ status: 400, code: 'phone_invalid', param: 'paymentMethod.phoneNumber', country: 'SN', example: '+221 70 123 45 67' });
    expect(refused.detail).toContain('paymentMethod.phoneNumber is not a valid Senegal mobile number');
    const cmIntent = await createIntent(ctx, cm);
    for (const typed of ['6700000', '2 22 12 34 56', '06 70 00 00 01', '670 000 001 x', '']) {
      const body = (await charge(cm, cmIntent, 'mtn_momo', typed)).json();
      expect(body, typed).toMatchObject({ status: 400, code: 'phone_invalid', param: 'paymentMethod.phoneNumber' });
      if (typed !== '') expect(body.detail, typed).toContain('6 71 23 45 67');
    }
    expect(sandbox.of(WAVE_CONNECTOR).sessions()).toHaveLength(sent);
  });
});

describe('a refund made outside Caisse', () => {
  async function paidWithOrange(m: TestMerchant) {
    const intent = await createIntent(ctx, m);
    const started = (await charge(m, intent, 'orange_money', orangeNumber())).json() as Answer;
    await onPage(started.nextAction?.url ?? '', 'approve', orangeNumber());
    await later();
    await expect.poll(async () => (await read(m, intent.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    return intent;
  }
  const record = (m: TestMerchant, id: string, body: Record<string, unknown>, key?: string) =>
    call(ctx.app, 'POST', `/gateway/${id}/refunds/recorded`, { ...sk(m), headers: key ? { 'idempotency-key': key } : {} }, body);
  const balance = async (m: TestMerchant) => (await call(ctx.app, 'GET', '/balance', sk(m))).json() as unknown;
  type Refunded = { type: string; data: { paymentIntent: { id: string; status: string; amountRefunded: string }; refund?: Record<string, unknown> } };
  const refundedEvents = async (m: TestMerchant, id: string) =>
    ((await call(ctx.app, 'GET', '/events?limit=100', sk(m))).json() as { data: Refunded[] }).data.filter(
      (e) => e.type === 'payment.refunded' && e.data.paymentIntent.id === id,
    );

  it('is recorded for an Orange payment within what is left: the intent and payment.refunded say so, no money moves', async () => {
    const intent = await paidWithOrange(cm);
    const before = await balance(cm);
    const entries = await ctx.deps.db
      .selectFrom('ledger_transfers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();

    expect((await record(cm, intent.id, { amount: '5001', method: 'cash' })).json()).toMatchObject({
      status: 422,
      code: 'refund_exceeds_amount',
      amountRefundable: '5000',
    });
    expect((await record(cm, intent.id, { amount: '0', method: 'cash' })).json()).toMatchObject({ code: 'amount_invalid' });
    expect((await record(cm, intent.id, { amount: '2000', method: 'cheque' })).statusCode).toBe(400);
    expect((await record(cm, intent.id, { amount: '2000' })).statusCode).toBe(400);

    const first = await record(cm, intent.id, { amount: '2000', method: 'cash', reference: ' reçu 17 ', reason: 'customer returned the goods' }, 'rec-1');
    expect(first.statusCode, first.body).toBe(201);
    const refund = first.json() as { id: string };
    expect(refund).toMatchObject({
      object: 'refund',
      amount: '2000',
      status: 'SUCCEEDED',
      recorded: true,
      recordedOutside: { method: 'cash', reference: 'reçu 17' },
      reason: 'customer returned the goods',
    });
    // The same key replays the answer: recorded once.
    const again = await record(cm, intent.id, { amount: '2000', method: 'cash', reference: ' reçu 17 ', reason: 'customer returned the goods' }, 'rec-1');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(refund);
    expect(await read(cm, intent.id)).toMatchObject({ status: 'PARTIALLY_REFUNDED', amountRefunded: '2000' });

    // The rest, without an amount; then nothing is left.
    expect((await record(cm, intent.id, { method: 'bank_transfer' })).json()).toMatchObject({
      amount: '3000',
      recordedOutside: { method: 'bank_transfer', reference: null },
    });
    expect(await read(cm, intent.id)).toMatchObject({ status: 'REFUNDED', amountRefunded: '5000' });
    expect((await record(cm, intent.id, { method: 'cash' })).json()).toMatchObject({ status: 409, code: 'intent_state_invalid' });

    const events = await refundedEvents(cm, intent.id);
    expect(events).toHaveLength(2);
    expect(events.map((e) => e.data.refund)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: refund.id, recorded: true, amount: '2000' }),
        expect.objectContaining({ recorded: true, amount: '3000' }),
      ]),
    );

    // No money moved: the same balance, no new ledger transfer, the ledger balanced.
    expect(await balance(cm)).toEqual(before);
    expect(
      await ctx.deps.db
        .selectFrom('ledger_transfers')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual(entries);
    await expectLedgerClean(ctx);
  });

  it('is refused where Caisse can refund, and while a refund through the provider is pending', async () => {
    const { intent } = await paidWithWave(sn);
    expect((await record(sn, intent.id, { amount: '1000', method: 'cash' })).json()).toMatchObject({ status: 409, code: 'refund_supported' });
    expect((await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(sn), { amount: '1000' })).json()).toMatchObject({ status: 'PENDING' });
    expect((await record(sn, intent.id, { amount: '1000', method: 'cash' })).json()).toMatchObject({ status: 409, code: 'refund_in_progress' });
    await ctx.services.refunds.drain();

    const wallet = await createIntent(ctx, cm);
    expect((await record(cm, wallet.id, { method: 'cash' })).json()).toMatchObject({ status: 409, code: 'intent_state_invalid' });
    expect((await record(cm, 'pi_unknown', { method: 'cash' })).json()).toMatchObject({ status: 404, code: 'not_found' });
  });
});
