/**
 * What `cinetpay` does that the shared suite (connectors.conformance.ts) cannot say for all
 * (issue 56, docs/decisions/0081-cinetpay.md): CinetPay's refusals as its sandbox answers them,
 * card payments and the details they need, the notification's GET ping and form POST, payouts and
 * refunds through the transfer API, and the account check.
 */
import { Writable } from 'node:stream';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { CINETPAY_CONNECTOR, type Connector, newReference, type PaymentRequest, startSandbox } from '../src/modules/connectors/index.ts';
import { type CinetPaySettings, createCinetPayConnector } from '../src/modules/connectors/cinetpay/cinetpay.connector.ts';
import { ManualClock, SECOND } from '../src/platform/clock.ts';
import { createLogger } from '../src/platform/logger.ts';
import { CINETPAY, CONTRACT_CALLBACK_KEY } from './connectors.conformance.ts';
import { startReceiver } from './connectors.support.ts';
import { createTestContext } from './harness.ts';

const RETURN = 'http://127.0.0.1:9/return';
const CUSTOMER = {
  name: 'Awa',
  surname: 'Kone',
  email: 'awa@example.com',
  phoneNumber: '+2250700000001',
  address: 'Rue des Jardins 12',
  city: 'Abidjan',
  country: 'CI',
  state: 'CI',
  zipCode: '00225',
};

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((close) => close()));
});

async function world() {
  const clock = new ManualClock('2026-11-28T08:00:00.000Z');
  const receiver = await startReceiver();
  const sandbox = await startSandbox({ clock, tickMs: 0, options: { cinetpay: CINETPAY } });
  const logger = createLogger({ level: 'silent', stream: new Writable({ write: (_c, _e, cb) => cb() }) });
  const deps = { clock, logger, callbackKey: CONTRACT_CALLBACK_KEY };
  const connectors: Connector[] = [];
  const connector = (change: Partial<CinetPaySettings> = {}) => {
    const c = createCinetPayConnector(
      { baseUrl: sandbox.urls.cinetpay!, ...CINETPAY, callbackUrl: `${receiver.url}/callbacks/cinetpay`, merchantName: 'Boutique Awa', ...change },
      deps,
    );
    connectors.push(c);
    return c;
  };
  opened.push(async () => {
    await Promise.all(connectors.map((c) => c.close()));
    await sandbox.close();
    await receiver.close();
  });
  const cinetpay = sandbox.of(CINETPAY_CONNECTOR);
  /** A payment API call made by hand, as a merchant's own code would. */
  const api = async (path: string, body: Record<string, unknown>) => {
    const res = await request(`${sandbox.urls.cinetpay}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.statusCode, body: (await res.body.json()) as { code: string; message: string; description?: string } };
  };
  return { clock, receiver, sandbox, cinetpay, connector, api };
}

/** The customer's details as CinetPay's initialisation names them. */
const CUSTOMER_FIELDS = Object.fromEntries(Object.entries(CUSTOMER).map(([k, v]) => [`customer_${k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`, v]));

function payment(change: Partial<PaymentRequest> = {}): PaymentRequest {
  return { reference: newReference(), amount: 5000n, currency: 'XOF', phoneNumber: '+2250100000001', externalId: 'att_cinetpay', returnUrl: RETURN, ...change };
}

const init = (change: Record<string, unknown> = {}) => ({
  apikey: CINETPAY.apiKey,
  site_id: CINETPAY.siteId,
  transaction_id: newReference(),
  amount: 5000,
  currency: 'XOF',
  description: 'Boutique Awa',
  notify_url: 'http://127.0.0.1:9/notify',
  return_url: RETURN,
  channels: 'MOBILE_MONEY',
  ...change,
});

describe('cinetpay: the sandbox refuses what CinetPay refuses, with its codes', () => {
  it('multiples of 5, characters, reused transaction_id, apikey, site_id, currency, bounds, card details', async () => {
    const w = await world();
    expect(await w.api('/v2/payment', init({ amount: 5001 }))).toMatchObject({
      status: 400,
      body: { code: '608', description: expect.stringContaining('multiple of 5') },
    });
    expect(await w.api('/v2/payment', init({ description: 'Boutique #1 & co' }))).toMatchObject({ status: 400, body: { code: '608' } });
    expect(await w.api('/v2/payment', init({ transaction_id: 'order_12' }))).toMatchObject({ status: 400, body: { code: '608' } });
    expect(await w.api('/v2/payment', init({ apikey: 'cinetpay_other' }))).toMatchObject({ body: { code: '609', message: 'AUTH_NOT_FOUND' } });
    expect(await w.api('/v2/payment', init({ site_id: '1' }))).toMatchObject({ body: { code: '613', message: 'ERROR_SITE_ID_NOTVALID' } });
    expect(await w.api('/v2/payment', init({ currency: 'EUR' }))).toMatchObject({ body: { code: '612' } });
    expect(await w.api('/v2/payment', init({ amount: 50 }))).toMatchObject({ body: { code: '641' } });
    expect(await w.api('/v2/payment', init({ amount: 2_000_000 }))).toMatchObject({ body: { code: '642' } });
    expect(await w.api('/v2/payment', init({ channels: 'CREDIT_CARD' }))).toMatchObject({
      body: { code: '624', description: expect.stringContaining('customer_address') },
    });
    expect(await w.api('/v2/payment', init({ notify_url: undefined }))).toMatchObject({ body: { code: '608', message: 'MINIMUM_REQUIRED_FIELDS' } });
    expect(w.cinetpay.stats().payments).toBe(0);
    const once = init();
    expect(await w.api('/v2/payment', once)).toMatchObject({ status: 200, body: { code: '201', message: 'CREATED' } });
    expect(await w.api('/v2/payment', once)).toMatchObject({ status: 400, body: { code: '620' } });
    expect(w.cinetpay.stats().payments).toBe(1);
    // The check of a transaction it never saw.
    expect(await w.api('/v2/payment/check', { apikey: CINETPAY.apiKey, site_id: CINETPAY.siteId, transaction_id: newReference() })).toMatchObject({
      body: { message: 'TRANSACTION_NOT_FOUND' },
    });
  });

  it('the connector refuses an amount CinetPay cannot take before any call', async () => {
    const w = await world();
    const c = w.connector();
    expect(await c.collect(payment({ amount: 5001n }))).toEqual({ status: 'FAILED', reason: 'AMOUNT_NOT_A_MULTIPLE_OF_5' });
    expect(await c.collect(payment({ amount: 95n }))).toEqual({ status: 'FAILED', reason: 'AMOUNT_OUT_OF_BOUNDS' });
    expect(await c.collect(payment({ currency: 'EUR', amount: 1000n }))).toEqual({ status: 'FAILED', reason: 'INVALID_CURRENCY' });
    expect(await c.disburse(payment({ amount: 5003n }))).toEqual({ status: 'FAILED', reason: 'AMOUNT_NOT_A_MULTIPLE_OF_5' });
    expect(w.cinetpay.stats()).toMatchObject({ payments: 0, transfers: 0, tokensIssued: 0 });
  });

  it("the description is the merchant's short name, made acceptable", async () => {
    const w = await world();
    const c = w.connector();
    const req = payment({ payerName: 'Awa & Fils #2' });
    const submitted = await c.collect(req);
    expect(submitted).toMatchObject({ status: 'PENDING' });
    const page = await request((submitted as { redirectUrl: string }).redirectUrl);
    expect(await page.body.text()).toContain('data-merchant>Awa Fils 2<');
  });
});

describe('cinetpay: cards on its page', () => {
  it('a card payment needs the customer details (refused before any call); with them the page takes a card', async () => {
    const w = await world();
    const c = w.connector();
    expect(await c.collect(payment({ method: 'card' }))).toEqual({ status: 'FAILED', reason: 'CUSTOMER_DETAILS_REQUIRED' });
    expect(await c.collect(payment({ method: 'card', customer: { ...CUSTOMER, city: ' ' } }))).toEqual({
      status: 'FAILED',
      reason: 'CUSTOMER_DETAILS_REQUIRED',
    });
    expect(w.cinetpay.stats().payments).toBe(0);
    const req = payment({ method: 'card', customer: CUSTOMER, language: 'en' });
    const submitted = await c.collect(req);
    expect(submitted).toMatchObject({ status: 'PENDING', redirectUrl: expect.any(String) });
    expect(w.cinetpay.payments()[0]).toMatchObject({ channels: 'CREDIT_CARD' });
    const url = (submitted as { redirectUrl: string }).redirectUrl;
    const page = await (await request(url)).body.text();
    expect(page).toContain('name="cardNumber"');
    expect(page).not.toContain('name="operator"');
    const post = (fields: Record<string, string>) =>
      request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    expect((await post({ channel: 'card', cardNumber: '12', lang: 'en' })).statusCode).toBe(400);
    const paid = await post({ channel: 'card', cardNumber: '4000 0000 0000 0001', cardHolder: 'Awa Kone', lang: 'en' });
    expect(paid.statusCode).toBe(303);
    w.clock.advance(SECOND);
    expect(await c.status('collection', req.reference)).toMatchObject({ status: 'SUCCESSFUL', amount: 5000n, currency: 'XOF' });
    // A card ending in 104 is refused as a number ending in 104 is.
    const other = payment({ method: 'card', customer: CUSTOMER });
    const second = (await c.collect(other)) as { redirectUrl: string };
    await request(second.redirectUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ channel: 'card', cardNumber: '4000000000000104' }).toString(),
    });
    w.clock.advance(SECOND);
    expect(await c.status('collection', other.reference)).toMatchObject({ status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' });
  });

  it('the page offers the operators in French and English, the number locked to the one checkout was given', async () => {
    const w = await world();
    const submitted = (await w.connector().collect(payment())) as { redirectUrl: string };
    const fr = await (await request(submitted.redirectUrl)).body.text();
    expect(fr).toContain('Opérateur');
    expect(fr).toContain('Moov Money');
    expect(fr).toMatch(/name="phoneNumber"[^>]*value="\+2250100000001"[^>]*readonly/);
    expect(await (await request(`${submitted.redirectUrl}?lang=en`)).body.text()).toContain('Operator');
  });
});

describe('cinetpay: dollars, by card only (decision 0098)', () => {
  const card = (change: Partial<PaymentRequest> = {}) => payment({ method: 'card', customer: CUSTOMER, currency: 'USD', amount: 2500n, ...change });

  it('the sandbox takes whole dollars in multiples of 5, from 5; a USD page lists no operator of our countries', async () => {
    const w = await world();
    const usd = (change: Record<string, unknown>) => init({ currency: 'USD', channels: 'CREDIT_CARD', ...CUSTOMER_FIELDS, ...change });
    expect(await w.api('/v2/payment', usd({ amount: 7 }))).toMatchObject({ status: 400, body: { code: '608' } });
    expect(await w.api('/v2/payment', usd({ amount: 0 }))).toMatchObject({ status: 400, body: { code: '641' } });
    expect(await w.api('/v2/payment', usd({ amount: 2505 }))).toMatchObject({ status: 400, body: { code: '642' } });
    expect(await w.api('/v2/payment', usd({ amount: 25 }))).toMatchObject({ status: 200, body: { code: '201' } });
    // Mobile money in dollars: the page opens, but no operator of Caisse's countries takes them.
    const mobile = await w.api('/v2/payment', init({ currency: 'USD', amount: 25 }));
    const url = (mobile.body as unknown as { data: { payment_url: string } }).data.payment_url;
    expect(await (await request(url)).body.text()).not.toContain('name="operator"');
    const approve = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'approve', operator: 'OM', phoneNumber: '+2250700000001', lang: 'en' }).toString(),
    });
    expect(approve.statusCode).toBe(400);
    expect(await approve.body.text()).toContain('No operator takes this currency');
  });

  it('an account without cardCurrencies naming USD (the default) refuses dollars before any call, even by card', async () => {
    const w = await world();
    for (const c of [w.connector(), w.connector({ cardCurrencies: 'XAF' })]) {
      expect(c.currencies).toEqual(['XAF', 'XOF']);
      expect(await c.collect(card())).toEqual({ status: 'FAILED', reason: 'INVALID_CURRENCY' });
      // Francs by card as ever.
      expect(await c.collect(card({ currency: 'XOF', amount: 5000n }))).toMatchObject({ status: 'PENDING' });
    }
    expect(w.cinetpay.payments().map((p) => p.currency)).toEqual(['XOF', 'XOF']);
  });

  it('the connector sends cents as whole dollars, refuses what CinetPay cannot take before any call, and reads dollars back', async () => {
    const w = await world();
    // The account's service takes USD: CinetPay enabled it (decision 0098).
    const c = w.connector({ cardCurrencies: 'XOF,USD' });
    expect(c.currencies).toEqual(['XAF', 'XOF', 'USD']);
    expect(await c.collect(card({ amount: 1250n }))).toEqual({ status: 'FAILED', reason: 'AMOUNT_NOT_A_MULTIPLE_OF_5' });
    expect(await c.collect(card({ amount: 700n }))).toEqual({ status: 'FAILED', reason: 'AMOUNT_NOT_A_MULTIPLE_OF_5' });
    expect(await c.collect(card({ amount: 300_000n }))).toEqual({ status: 'FAILED', reason: 'AMOUNT_OUT_OF_BOUNDS' });
    expect(await c.collect(payment({ currency: 'USD', amount: 2500n }))).toEqual({ status: 'FAILED', reason: 'INVALID_CURRENCY' });
    expect(await c.disburse(payment({ currency: 'USD', amount: 2500n }))).toEqual({ status: 'FAILED', reason: 'INVALID_CURRENCY' });
    expect(w.cinetpay.stats()).toMatchObject({ payments: 0, transfers: 0 });
    const req = card();
    const submitted = (await c.collect(req)) as { redirectUrl: string };
    expect(w.cinetpay.payments()[0]).toMatchObject({ amount: '25', currency: 'USD', channels: 'CREDIT_CARD' });
    const paid = await request(submitted.redirectUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ channel: 'card', cardNumber: '4000 0000 0000 0001' }).toString(),
    });
    expect(paid.statusCode).toBe(303);
    w.clock.advance(SECOND);
    expect(await c.status('collection', req.reference)).toMatchObject({ status: 'SUCCESSFUL', amount: 2500n, currency: 'USD' });
  });
});

describe('cinetpay: the notification', () => {
  it('a genuine one verifies to the check; an amount that is not the one asked is refused', async () => {
    const w = await world();
    const c = w.connector();
    const req = payment();
    const submitted = (await c.collect(req)) as { redirectUrl: string };
    await request(submitted.redirectUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'approve', operator: 'FLOOZ' }).toString(),
    });
    w.clock.advance(SECOND);
    await w.sandbox.tick();
    const [got] = w.receiver.received;
    expect(got).toMatchObject({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-token': expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(Object.fromEntries(new URLSearchParams(got!.body))).toMatchObject({
      cpm_trans_id: req.reference,
      cpm_amount: '5000',
      payment_method: 'FLOOZ',
      cpm_error_message: 'SUCCES',
    });
    const genuine = { url: got!.url, body: got!.body, headers: got!.headers };
    expect(await c.verifyCallback(genuine)).toMatchObject({ ok: true, claimed: 'SUCCESSFUL', result: { status: 'SUCCESSFUL', amount: 5000n } });
    // Parsed by a route already: the same fields, the same answer.
    expect(await c.verifyCallback({ ...genuine, body: Object.fromEntries(new URLSearchParams(got!.body)) })).toMatchObject({ ok: true });
    expect(await c.verifyCallback({ ...genuine, known: { amount: 4000n, currency: 'XOF' } })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('amount'),
    });
    expect(await c.verifyCallback({ ...genuine, known: { amount: 5000n, currency: 'XAF' } })).toMatchObject({ ok: false });
  });

  it("a declined payment's notification claims FAILED; the check says why", async () => {
    const w = await world();
    const c = w.connector();
    const req = payment({ phoneNumber: '+2250100000105' });
    const submitted = (await c.collect(req)) as { redirectUrl: string };
    await request(submitted.redirectUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=approve' });
    await w.sandbox.tick();
    const [got] = w.receiver.received;
    expect(Object.fromEntries(new URLSearchParams(got!.body))).toMatchObject({ cpm_error_message: 'TRANSACTION_CANCEL' });
    expect(await c.verifyCallback({ url: got!.url, body: got!.body, headers: got!.headers })).toMatchObject({
      ok: true,
      claimed: 'FAILED',
      result: { status: 'FAILED', reason: 'APPROVAL_REJECTED' },
    });
  });

  it("our route answers CinetPay's GET ping with 200 and takes its form POST", async () => {
    const ctx = await createTestContext();
    opened.push(() => ctx.close());
    const url = `/callbacks/cinetpay/collection/${newReference()}/not-our-token`;
    const ping = await ctx.app.inject({ method: 'GET', url });
    expect(ping.statusCode).toBe(200);
    const post = await ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-token': 'f'.repeat(64) },
      payload: 'cpm_site_id=445566&cpm_trans_id=x',
    });
    // Read (not 415): no request has this reference.
    expect(post.statusCode).toBe(404);
    expect(post.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('cinetpay: payouts and refunds through the transfer API', () => {
  it('a payout: a token, the contact, the transfer; read back by client_transaction_id; sent again, still one', async () => {
    const w = await world();
    const c = w.connector();
    const req = payment({ phoneNumber: '+221760000001', externalId: 'po_cinetpay', amount: 25_000n });
    expect(await c.disburse(req)).toMatchObject({ status: 'PENDING', duplicate: false });
    expect(w.cinetpay.stats()).toMatchObject({ transfers: 1, contacts: 1, tokensIssued: 1 });
    expect(await c.status('disbursement', req.reference)).toMatchObject({ status: 'PENDING' });
    w.clock.advance(SECOND);
    expect(await c.status('disbursement', req.reference, { currency: 'XOF' })).toMatchObject({ status: 'SUCCESSFUL', amount: 25_000n, currency: 'XOF' });
    // After a restart: CinetPay knows the client_transaction_id (805), the same transfer.
    expect(await w.connector().disburse(req)).toMatchObject({ status: 'PENDING', duplicate: true });
    expect(w.cinetpay.stats().transfers).toBe(1);
    // A stale token is renewed once, nothing lost.
    w.cinetpay.expireTokens();
    expect(await c.status('disbursement', req.reference)).toMatchObject({ status: 'SUCCESSFUL' });
    expect(w.cinetpay.stats().tokensIssued).toBeGreaterThanOrEqual(2);
    // A number ending in 103: refused by the operator, with why.
    const refusedReq = payment({ phoneNumber: '+2250500000103' });
    await c.disburse(refusedReq);
    w.clock.advance(SECOND);
    expect(await c.status('disbursement', refusedReq.reference)).toMatchObject({ status: 'FAILED', reason: 'PAYER_NOT_FOUND' });
    // A Cameroonian number is paid in XAF only.
    expect(await c.disburse(payment({ phoneNumber: '+237670000001', currency: 'XOF' }))).toEqual({ status: 'FAILED', reason: 'INVALID_CURRENCY' });
    expect(await c.status('disbursement', newReference())).toEqual({ status: 'NOT_FOUND' });
  });

  it('a mobile-money payment is refunded by a transfer to the payer; the transfer notification verifies', async () => {
    const w = await world();
    const c = w.connector();
    const paid = payment({ phoneNumber: '+2250100000001' });
    const submitted = (await c.collect(paid)) as { redirectUrl: string };
    await request(submitted.redirectUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=approve&operator=FLOOZ',
    });
    w.clock.advance(SECOND);
    expect(await c.status('collection', paid.reference)).toMatchObject({ status: 'SUCCESSFUL' });
    // The connector has no refund operation: the refund path is disburse to the payer's number.
    expect(c.refund).toBeUndefined();
    const refund = payment({ phoneNumber: paid.phoneNumber, amount: 2000n, externalId: 're_cinetpay' });
    expect(await c.disburse(refund)).toMatchObject({ status: 'PENDING' });
    w.clock.advance(SECOND);
    await w.sandbox.tick();
    const note = w.receiver.received.find((r) => r.url.includes('/disbursement/'));
    expect(note).toBeDefined();
    expect(await c.verifyCallback({ url: note!.url, body: note!.body, headers: note!.headers })).toMatchObject({
      ok: true,
      kind: 'disbursement',
      reference: refund.reference,
      result: { status: 'SUCCESSFUL', amount: 2000n },
    });
  });

  it('without a transfer password the account neither pays out nor refunds, saying why, before any call', async () => {
    const w = await world();
    const c = w.connector({ transferPassword: undefined });
    expect(c.lacks).toEqual({ disburse: expect.stringContaining('no transfer password'), refund: expect.stringContaining('no transfer password') });
    expect(await c.disburse(payment())).toEqual({ status: 'FAILED', reason: 'DISBURSEMENT_NOT_CONFIGURED' });
    expect(w.cinetpay.stats().tokensIssued).toBe(0);
    expect(w.connector().lacks).toBeUndefined();
  });
});

describe('cinetpay: the sandbox answering as production does', () => {
  it("refuses test mode's own apikey and takes a merchant's", async () => {
    const clock = new ManualClock('2026-11-28T08:00:00.000Z');
    const sandbox = await startSandbox({ clock, tickMs: 0, options: { cinetpay: { production: true } } });
    const logger = createLogger({ level: 'silent', stream: new Writable({ write: (_c, _e, cb) => cb() }) });
    const deps = { clock, logger, callbackKey: CONTRACT_CALLBACK_KEY };
    const base = {
      baseUrl: sandbox.urls.cinetpay!,
      siteId: '105905',
      secretKey: 'cinetpay0live0secret',
      transferPassword: 'pw',
      callbackUrl: 'http://127.0.0.1:9/callbacks/cinetpay',
    };
    const testKey = createCinetPayConnector({ ...base, apiKey: 'cinetpay_sandbox_key' }, deps);
    const liveKey = createCinetPayConnector({ ...base, apiKey: '12912847765bc0db748fdd44.40081707' }, deps);
    opened.push(async () => {
      await testKey.close();
      await liveKey.close();
      await sandbox.close();
    });
    expect(await testKey.collect(payment())).toEqual({ status: 'FAILED', reason: 'CREDENTIALS_REFUSED' });
    expect(await testKey.check!()).toMatchObject({ ok: false, detail: expect.stringContaining('609') });
    expect(await liveKey.collect(payment())).toMatchObject({ status: 'PENDING' });
    expect(await liveKey.check!()).toMatchObject({ ok: true });
  });
});

describe('cinetpay: the account check', () => {
  it('a status check of a transaction that does not exist: accepted credentials pass, refused ones fail in its words', async () => {
    const w = await world();
    expect(await w.connector().check!()).toEqual({ ok: true, detail: expect.stringContaining('TRANSACTION_NOT_FOUND') });
    expect(await w.connector().check!()).toMatchObject({ detail: expect.stringContaining('transfer API: login accepted') });
    expect(await w.connector({ apiKey: 'cinetpay_wrong0key' }).check!()).toEqual({ ok: false, detail: expect.stringContaining('609 AUTH_NOT_FOUND') });
    expect(await w.connector({ siteId: '1' }).check!()).toEqual({ ok: false, detail: expect.stringContaining('613') });
    expect(await w.connector({ transferPassword: 'wrong' }).check!()).toMatchObject({ ok: false, detail: expect.stringContaining('credentials refused') });
    expect(w.cinetpay.stats()).toMatchObject({ payments: 0, transfers: 0 });
  });
});
