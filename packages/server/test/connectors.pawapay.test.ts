import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { Writable } from 'node:stream';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type IncomingCallback, newReference, PAWAPAY_CONNECTOR, providersServing, startSandbox } from '../src/modules/connectors/index.ts';
import type { Checker } from '../src/modules/connectors/connectors.http.ts';
import { customerMessageOf, createPawapayConnector, type PawapayConnector } from '../src/modules/connectors/pawapay/pawapay.connector.ts';
import { PREAUTH_EXPIRED_CODE, PREAUTH_WRONG_CODE } from '../src/modules/connectors/pawapay/index.ts';
import { pawapayLiveProblems } from '../src/modules/connectors/pawapay/pawapay.live.ts';
import * as schema from '../src/modules/connectors/pawapay/pawapay.schema.ts';
import { checkContentDigest, signCallback } from '../src/modules/connectors/pawapay/pawapay.signature.ts';
import { readProviderSettings } from '../src/modules/connectors/connectors.settings.ts';
import { ManualClock, MINUTE, SECOND } from '../src/platform/clock.ts';
import { createLogger } from '../src/platform/logger.ts';
import { CONTRACT_CALLBACK_KEY } from './connectors.conformance.ts';
import { startReceiver } from './connectors.support.ts';

/**
 * What pawaPay does that the shared suite (connectors.conformance.ts) cannot say for all: refunds
 * read back, whole and partial; REJECTED told apart from DUPLICATE_IGNORED; signatures; the
 * pre-authorisation code; the toolkit endpoints; and the sandbox's answers checked against our
 * schemas of pawaPay's published document.
 */

const TOKEN = 'pawapay0test0token';
const CM_MTN = '+237670000';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((close) => close()));
});

async function world(opts: { signCallbacks?: boolean; limits?: { min: number; max: number } } = {}) {
  const clock = new ManualClock('2026-11-29T08:00:00.000Z');
  const receiver = await startReceiver();
  const callbackUrl = `${receiver.url}/callbacks/pawapay`;
  const sandbox = await startSandbox({
    clock,
    tickMs: 0,
    options: {
      pawapay: {
        apiToken: TOKEN,
        callbackUrls: { deposit: callbackUrl, payout: callbackUrl, refund: callbackUrl },
        ...(opts.signCallbacks === false ? { signCallbacks: false } : {}),
        ...(opts.limits ? { limits: opts.limits } : {}),
      },
    },
  });
  const logger = createLogger({ level: 'silent', stream: new Writable({ write: (_c, _e, cb) => cb() }) });
  const deps = { clock, logger, callbackKey: CONTRACT_CALLBACK_KEY };
  const connectors: PawapayConnector[] = [];
  const connector = (change: { apiToken?: string; callbackSignatures?: string; publicKeys?: string } = {}) => {
    const c = createPawapayConnector(
      {
        baseUrl: sandbox.urls.pawapay!,
        apiToken: change.apiToken ?? TOKEN,
        callbackSignatures: change.callbackSignatures ?? 'required',
        publicKeys: change.publicKeys,
        timeoutMs: 2000,
      },
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
  const base = sandbox.urls.pawapay!;
  /** The sandbox asked directly, as pawaPay would be. */
  async function call(method: 'GET' | 'POST', path: string, body?: unknown, token = TOKEN) {
    const res = await request(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
  }
  return { clock, receiver, sandbox, connector, c: connector(), call, callbackUrl };
}

function payment(digits = '001', change: Record<string, unknown> = {}) {
  return {
    reference: newReference(),
    amount: 5000n,
    currency: 'XAF' as const,
    phoneNumber: `${CM_MTN}${digits}`,
    externalId: 'att_pawapay',
    method: 'mtn_momo',
    country: 'CM',
    ...change,
  };
}

function callbackOf(r: { url: string; headers: Record<string, string | string[] | undefined>; body: string }): IncomingCallback {
  return { url: r.url, headers: r.headers, body: r.body };
}

function matches<T>(checker: Checker<T>, value: unknown): void {
  const errors = checker.Check(value) ? [] : checker.Errors(value).map((e) => `${e.instancePath} ${e.message}`);
  expect(errors).toEqual([]);
}

describe('pawapay: initiation answers', () => {
  it('a reused depositId is DUPLICATE_IGNORED: still the one deposit, in flight', async () => {
    const w = await world();
    const req = payment();
    expect(await w.c.collect(req)).toMatchObject({ status: 'PENDING', duplicate: false, providerReference: req.reference });
    expect(await w.c.collect(req)).toMatchObject({ status: 'PENDING', duplicate: true });
    expect(w.sandbox.of(PAWAPAY_CONNECTOR).stats().deposits).toBe(1);
  });

  it('REJECTED is a definite FAILED with pawaPay’s reason, and nothing is held', async () => {
    const w = await world();
    // Default limits: 100 to 2 000 000.
    expect(await w.c.collect(payment('001', { amount: 3_000_000n }))).toMatchObject({ status: 'FAILED', reason: 'INVALID_AMOUNT' });
    expect(w.sandbox.of(PAWAPAY_CONNECTOR).stats().deposits).toBe(0);
    // Refusals the connector prevents, asked of the sandbox directly.
    const deposit = (change: Record<string, unknown>) => ({
      depositId: newReference(),
      amount: '5000',
      currency: 'XAF',
      payer: { type: 'MMO', accountDetails: { phoneNumber: '237670000001', provider: 'MTN_MOMO_CMR' } },
      ...change,
    });
    const rejected = async (change: Record<string, unknown>) => (await w.call('POST', '/v2/deposits', deposit(change))).body;
    expect(await rejected({ currency: 'XOF' })).toMatchObject({ status: 'REJECTED', failureReason: { failureCode: 'INVALID_CURRENCY' } });
    expect(await rejected({ amount: '50' })).toMatchObject({ status: 'REJECTED', failureReason: { failureCode: 'AMOUNT_OUT_OF_BOUNDS' } });
    expect(await rejected({ amount: '5000.50' })).toMatchObject({ status: 'REJECTED', failureReason: { failureCode: 'INVALID_AMOUNT' } });
    expect(await rejected({ payer: { type: 'MMO', accountDetails: { phoneNumber: '237670000001', provider: 'MTN_MOMO_XYZ' } } })).toMatchObject({
      status: 'REJECTED',
      failureReason: { failureCode: 'INVALID_PROVIDER' },
    });
    expect(await rejected({ payer: { type: 'MMO', accountDetails: { phoneNumber: '221770000001', provider: 'MTN_MOMO_CMR' } } })).toMatchObject({
      status: 'REJECTED',
      failureReason: { failureCode: 'INVALID_PHONE_NUMBER' },
    });
    for (const message of ['abc', 'a'.repeat(23), 'Boutique & Cie']) {
      expect(await w.call('POST', '/v2/deposits', deposit({ customerMessage: message }))).toMatchObject({
        status: 400,
        body: { failureReason: { failureCode: 'INVALID_PARAMETER' } },
      });
    }
    expect(await w.call('POST', '/v2/deposits', deposit({ customerMessage: 'Boutique Awa 2' }))).toMatchObject({ status: 200, body: { status: 'ACCEPTED' } });
    expect(await w.call('POST', '/v2/deposits', deposit({ extra: 1 }))).toMatchObject({
      status: 400,
      body: { failureReason: { failureCode: 'UNSUPPORTED_PARAMETER' } },
    });
    expect(await w.call('POST', '/v2/deposits', '{')).toMatchObject({ status: 400, body: { failureReason: { failureCode: 'INVALID_INPUT' } } });
    expect(await w.call('POST', '/v2/deposits', { amount: '5000' })).toMatchObject({
      status: 400,
      body: { failureReason: { failureCode: 'MISSING_PARAMETER' } },
    });
    expect(await w.call('POST', '/v2/deposits', deposit({}), 'wrong')).toMatchObject({
      status: 403,
      body: { failureReason: { failureCode: 'AUTHENTICATION_ERROR' } },
    });
  });

  it('the connector refuses before sending what pawaPay would reject: an operator it has not, another currency', async () => {
    const w = await world();
    expect(await w.c.collect(payment('001', { method: 'airtel_money' }))).toMatchObject({ status: 'FAILED', reason: 'INVALID_PROVIDER' });
    expect(await w.c.collect(payment('001', { currency: 'XOF' }))).toMatchObject({ status: 'FAILED', reason: 'INVALID_CURRENCY' });
    expect(await w.c.collect(payment('001', { method: undefined }))).toMatchObject({ status: 'FAILED', reason: 'INVALID_PROVIDER' });
    expect(w.sandbox.of(PAWAPAY_CONNECTOR).stats().deposits).toBe(0);
  });

  it('the payer-facing name goes as customerMessage when pawaPay takes it; the sandbox keeps it', async () => {
    const w = await world();
    const req = payment('001', { payerName: 'Épicerie Awa & Fils' });
    await w.c.collect(req);
    expect(w.sandbox.of(PAWAPAY_CONNECTOR).payments('deposit')[0]).toMatchObject({ customerMessage: 'Epicerie Awa Fils', clientReferenceId: 'att_pawapay' });
    expect(customerMessageOf('Ab')).toBeUndefined();
    expect(customerMessageOf('A very long shop name indeed')).toBe('A very long shop name');
    expect(customerMessageOf(undefined)).toBeUndefined();
  });
});

describe('pawapay: redirect operators (Wave)', () => {
  it('the operator’s page comes with the status read while the deposit is in flight, never after', async () => {
    const w = await world();
    const req = {
      ...payment('101'),
      currency: 'XOF' as const,
      phoneNumber: '+221770000101',
      method: 'wave',
      country: 'SN',
      returnUrl: 'https://shop.example/back',
    };
    expect(await w.c.collect(req)).toMatchObject({ status: 'PENDING' });
    expect(w.sandbox.of(PAWAPAY_CONNECTOR).payments('deposit')[0]?.provider.code).toBe('WAVE_SEN');
    const open = await w.c.status('collection', req.reference);
    expect(open).toMatchObject({ status: 'PENDING', redirectUrl: `${w.sandbox.urls.pawapay}/authorize/${req.reference}`, providerReference: req.reference });
    const page = await request((open as { redirectUrl: string }).redirectUrl);
    expect(page.statusCode).toBe(200);
    expect(await page.body.text()).toContain('WAVE_SEN');
    w.clock.advance(10 * SECOND);
    const done = await w.c.status('collection', req.reference);
    expect(done).toMatchObject({ status: 'SUCCESSFUL' });
    expect(done).not.toHaveProperty('redirectUrl');
  });
});

describe('pawapay: payouts and refunds', () => {
  it('pays out, and a payee pawaPay cannot find fails with our reason', async () => {
    const w = await world();
    const paid = payment('001', { externalId: 'po_1' });
    expect(await w.c.disburse(paid)).toMatchObject({ status: 'PENDING', duplicate: false });
    const lost = payment('103', { externalId: 'po_2' });
    await w.c.disburse(lost);
    w.clock.advance(SECOND);
    expect(await w.c.status('disbursement', paid.reference)).toMatchObject({ status: 'SUCCESSFUL', amount: 5000n, currency: 'XAF' });
    expect(await w.c.status('disbursement', lost.reference)).toMatchObject({ status: 'FAILED', reason: 'PAYER_NOT_FOUND' });
    expect(await w.c.status('disbursement', newReference())).toEqual({ status: 'NOT_FOUND' });
  });

  async function paidDeposit(w: Awaited<ReturnType<typeof world>>, amount = 5000n) {
    const req = payment('001', { amount });
    await w.c.collect(req);
    w.clock.advance(SECOND);
    expect(await w.c.status('collection', req.reference)).toMatchObject({ status: 'SUCCESSFUL' });
    return req;
  }

  const refundOf = (depositId: string, amount: bigint) => ({
    ...payment(),
    reference: newReference(),
    amount,
    externalId: 'refund_1',
    providerReference: depositId,
  });

  it('a whole refund: ACCEPTED, PENDING while pawaPay processes it, then SUCCESSFUL read back by its id', async () => {
    const w = await world();
    const paid = await paidDeposit(w);
    const r = refundOf(paid.reference, 5000n);
    expect(await w.c.refund(r)).toMatchObject({ status: 'PENDING', duplicate: false });
    expect(await w.c.status('disbursement', r.reference)).toMatchObject({ status: 'PENDING', amount: 5000n });
    w.clock.advance(SECOND);
    expect(await w.c.status('disbursement', r.reference)).toMatchObject({ status: 'SUCCESSFUL', amount: 5000n, currency: 'XAF' });
    // Sent again: the same refund.
    expect(await w.c.refund(r)).toMatchObject({ status: 'PENDING', duplicate: true });
    // Nothing is left to give back.
    expect(await w.c.refund(refundOf(paid.reference, 1n))).toMatchObject({ status: 'FAILED', reason: 'DEPOSIT_ALREADY_REFUNDED' });
    // Its callback names the refund, and verifies to the refund's status.
    await w.sandbox.tick();
    const refundCallback = w.receiver.received.find((x) => x.body.includes('"refundId"'));
    expect(await w.c.verifyCallback(callbackOf(refundCallback!))).toMatchObject({
      ok: true,
      kind: 'disbursement',
      reference: r.reference,
      claimed: 'SUCCESSFUL',
      result: { status: 'SUCCESSFUL', amount: 5000n },
    });
  });

  it('partial refunds: one at a time, never more than the deposit', async () => {
    const w = await world();
    const paid = await paidDeposit(w, 10_000n);
    const first = refundOf(paid.reference, 3000n);
    expect(await w.c.refund(first)).toMatchObject({ status: 'PENDING' });
    // Another while the first is in flight: pawaPay takes one at a time.
    expect(await w.c.refund(refundOf(paid.reference, 1000n))).toMatchObject({ status: 'FAILED', reason: 'REFUND_IN_PROGRESS' });
    w.clock.advance(SECOND);
    expect(await w.c.status('disbursement', first.reference)).toMatchObject({ status: 'SUCCESSFUL', amount: 3000n });
    expect(await w.c.refund(refundOf(paid.reference, 8000n))).toMatchObject({ status: 'FAILED', reason: 'AMOUNT_TOO_LARGE' });
    const second = refundOf(paid.reference, 7000n);
    expect(await w.c.refund(second)).toMatchObject({ status: 'PENDING' });
    w.clock.advance(SECOND);
    expect(await w.c.status('disbursement', second.reference)).toMatchObject({ status: 'SUCCESSFUL', amount: 7000n });
  });

  it('a deposit not paid cannot be refunded; a refund of a deposit pawaPay never saw neither', async () => {
    const w = await world();
    const pending = payment('102');
    await w.c.collect(pending);
    expect(await w.c.refund(refundOf(pending.reference, 5000n))).toMatchObject({ status: 'FAILED', reason: 'DEPOSIT_NOT_COMPLETED' });
    expect(await w.c.refund(refundOf(newReference(), 5000n))).toMatchObject({ status: 'FAILED', reason: 'DEPOSIT_NOT_FOUND' });
    expect(await w.c.refund({ ...refundOf(pending.reference, 5000n), providerReference: 'not-a-uuid' })).toMatchObject({
      status: 'FAILED',
      reason: 'INVALID_PROVIDER_REFERENCE',
    });
  });
});

describe('pawapay: callbacks', () => {
  async function genuine(w: Awaited<ReturnType<typeof world>>, digits = '001') {
    const req = payment(digits);
    await w.c.collect(req);
    w.clock.advance(SECOND);
    await w.sandbox.tick();
    const got = w.receiver.received.find((r) => r.body.includes(req.reference));
    expect(got).toBeDefined();
    return { req, callback: callbackOf(got!) };
  }

  it("an account's pinned public keys: only they verify a callback, and pawaPay's key list is not read", async () => {
    const w = await world();
    const { req, callback } = await genuine(w);
    const { keyId, privateKey } = w.sandbox.of(PAWAPAY_CONNECTOR).signingKey();
    const der = (key: Parameters<typeof createPublicKey>[0]) => createPublicKey(key).export({ format: 'der', type: 'spki' }).toString('base64');
    const other = der(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    // The key pawaPay publishes, pinned: the callback verifies.
    expect(await w.connector({ publicKeys: `${keyId}:${der(privateKey)}` }).verifyCallback(callback)).toMatchObject({ ok: true, reference: req.reference });
    // Another key pinned under the same id: refused, though pawaPay publishes the signing one.
    expect(await w.connector({ publicKeys: `${keyId}:${other}` }).verifyCallback(callback)).toEqual({ ok: false, reason: 'the signature does not match' });
    // Only other ids pinned: the signing key is never fetched.
    expect(await w.connector({ publicKeys: `HTTP_EC_P256_other:${other}` }).verifyCallback(callback)).toEqual({
      ok: false,
      reason: 'the signature names a key pawaPay does not publish',
    });
  });

  it('signed: good, tampered, missing, an unknown key, a replay', async () => {
    const w = await world();
    const { req, callback } = await genuine(w);
    expect(checkContentDigest(String(callback.headers?.['content-digest']), String(callback.body))).toBe(true);
    expect(await w.c.verifyCallback(callback)).toMatchObject({ ok: true, kind: 'collection', reference: req.reference, claimed: 'SUCCESSFUL' });
    const { host, ...rest } = callback.headers ?? {};
    const unsigned = Object.fromEntries(Object.entries(rest).filter(([k]) => !['signature', 'signature-input', 'content-digest'].includes(k)));
    expect(await w.c.verifyCallback({ ...callback, headers: { host, ...unsigned } })).toEqual({ ok: false, reason: expect.stringContaining('not signed') });
    expect(await w.c.verifyCallback({ ...callback, body: String(callback.body).replace('"COMPLETED"', '"FAILED"') })).toEqual({
      ok: false,
      reason: 'the Content-Digest does not match the body',
    });
    const url = new URL(callback.url, 'http://x.invalid');
    const { keyId } = w.sandbox.of(PAWAPAY_CONNECTOR).signingKey();
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const forged = signCallback(
      { key: other, keyId, nowMs: w.clock.now().getTime() },
      { method: 'POST', authority: String(host), path: url.pathname, body: String(callback.body), contentType: 'application/json' },
    );
    expect(await w.c.verifyCallback({ ...callback, headers: { host, ...forged } })).toEqual({ ok: false, reason: 'the signature does not match' });
    const unknownKey = signCallback(
      { key: other, keyId: 'HTTP_EC_P256_unknown', nowMs: w.clock.now().getTime() },
      { method: 'POST', authority: String(host), path: url.pathname, body: String(callback.body), contentType: 'application/json' },
    );
    expect(await w.c.verifyCallback({ ...callback, headers: { host, ...unknownKey } })).toMatchObject({ ok: false, reason: expect.stringContaining('key') });
    // Sent to another path than the one signed.
    expect(await w.c.verifyCallback({ ...callback, url: '/callbacks/elsewhere' })).toMatchObject({ ok: false });
    // RFC 9421's raw r‖s encoding is taken as well as pawaPay's DER.
    const { privateKey } = w.sandbox.of(PAWAPAY_CONNECTOR).signingKey();
    const raw = signCallback(
      { key: privateKey, keyId, nowMs: w.clock.now().getTime(), encoding: 'ieee-p1363' },
      { method: 'POST', authority: String(host), path: url.pathname, body: String(callback.body), contentType: 'application/json' },
    );
    expect(Buffer.from(/:(.*):/.exec(raw.signature as string)?.[1] ?? '', 'base64')).toHaveLength(64);
    expect(await w.c.verifyCallback({ ...callback, headers: { host, ...raw } })).toMatchObject({ ok: true });
    w.clock.advance(10 * MINUTE);
    expect(await w.c.verifyCallback(callback)).toEqual({ ok: false, reason: 'the signature is too old or in the future' });
  });

  it('whatever the body says, the result is the status read’s', async () => {
    const w = await world();
    // 102: pawaPay never finishes it; a signed body claiming COMPLETED changes nothing.
    const req = payment('102');
    await w.c.collect(req);
    const body = JSON.stringify({ depositId: req.reference, status: 'COMPLETED', amount: '5000', currency: 'XAF' });
    const { keyId, privateKey } = w.sandbox.of(PAWAPAY_CONNECTOR).signingKey();
    const headers = signCallback(
      { key: privateKey, keyId, nowMs: w.clock.now().getTime() },
      { method: 'POST', authority: 'shop.example', path: '/callbacks/pawapay', body, contentType: 'application/json' },
    );
    expect(await w.c.verifyCallback({ url: '/callbacks/pawapay', headers: { host: 'shop.example', ...headers }, body })).toMatchObject({
      ok: true,
      reference: req.reference,
      claimed: 'SUCCESSFUL',
      result: { status: 'PENDING' },
    });
  });

  it('an account that does not sign: unsigned callbacks are taken as hints, confirmed by a status read; one pawaPay does not know is refused', async () => {
    const w = await world({ signCallbacks: false });
    const c = w.connector({ callbackSignatures: 'off' });
    const { req, callback } = await genuine(w);
    expect(callback.headers?.signature).toBeUndefined();
    expect(await c.verifyCallback(callback)).toMatchObject({ ok: true, reference: req.reference, result: { status: 'SUCCESSFUL' } });
    // Parsed JSON is enough without a signature.
    expect(await c.verifyCallback({ ...callback, body: JSON.parse(String(callback.body)) as unknown })).toMatchObject({ ok: true });
    const stranger = String(callback.body).replace(req.reference, newReference());
    expect(await c.verifyCallback({ ...callback, body: stranger })).toEqual({ ok: false, reason: expect.stringContaining('does not know') });
    // The account that requires signatures refuses the same unsigned callback.
    expect(await w.c.verifyCallback(callback)).toMatchObject({ ok: false, reason: expect.stringContaining('not signed') });
    expect(await c.verifyCallback({ ...callback, body: '{"status":"COMPLETED"}' })).toMatchObject({ ok: false });
  });
});

describe('pawapay: pre-authorisation codes (Orange in Burkina Faso)', () => {
  const bf = (code: string | undefined, digits = '001') => ({
    reference: newReference(),
    amount: 5000n,
    currency: 'XOF' as const,
    phoneNumber: `+22670000${digits}`,
    externalId: 'att_bf',
    method: 'orange_money',
    country: 'BF',
    ...(code !== undefined ? { preAuthorisationCode: code } : {}),
  });

  it('a good code pays; a missing, malformed, wrong or expired one is refused with its own reason', async () => {
    const w = await world();
    const good = bf('482913');
    expect(await w.c.collect(good)).toMatchObject({ status: 'PENDING' });
    expect(await w.c.collect(bf(undefined))).toMatchObject({ status: 'FAILED', reason: 'PRE_AUTHORISATION_CODE_REQUIRED' });
    expect(await w.c.collect(bf('12ab'))).toMatchObject({ status: 'FAILED', reason: 'INVALID_PARAMETER' });
    const wrong = bf(PREAUTH_WRONG_CODE);
    const expired = bf(PREAUTH_EXPIRED_CODE);
    expect(await w.c.collect(wrong)).toMatchObject({ status: 'PENDING' });
    expect(await w.c.collect(expired)).toMatchObject({ status: 'PENDING' });
    w.clock.advance(SECOND);
    expect(await w.c.status('collection', good.reference)).toMatchObject({ status: 'SUCCESSFUL', currency: 'XOF' });
    expect(await w.c.status('collection', wrong.reference)).toMatchObject({ status: 'FAILED', reason: 'INVALID_PREAUTHORISATION_CODE' });
    expect(await w.c.status('collection', expired.reference)).toMatchObject({ status: 'FAILED', reason: 'PREAUTHORISATION_CODE_EXPIRED' });
    // pawaPay itself: a missing code is a 400 MISSING_PARAMETER; a code for an operator that prompts is refused too.
    const body = (provider: string, code?: string) => ({
      depositId: newReference(),
      amount: '5000',
      currency: 'XOF',
      payer: { type: 'MMO', accountDetails: { phoneNumber: '22670000001', provider } },
      ...(code ? { preAuthorisationCode: code } : {}),
    });
    expect(await w.call('POST', '/v2/deposits', body('ORANGE_BFA'))).toMatchObject({
      status: 400,
      body: { failureReason: { failureCode: 'MISSING_PARAMETER' } },
    });
    expect(await w.call('POST', '/v2/deposits', body('MOOV_BFA', '123456'))).toMatchObject({
      status: 400,
      body: { failureReason: { failureCode: 'UNSUPPORTED_PARAMETER' } },
    });
  });

  it("each operator's authorisation comes from the active configuration", async () => {
    const w = await world();
    expect(await w.c.authorisation('orange_money', 'BF')).toBe('pre_authorisation_code');
    expect(await w.c.authorisation('wave', 'SN')).toBe('redirect');
    expect(await w.c.authorisation('mtn_momo', 'CM')).toBe('phone_prompt');
    expect(await w.c.authorisation('mtn_momo', 'ML')).toBeUndefined();
  });

  it('what the active configuration leaves out per operator: unknown until read, then said, kept a minute; the sandbox refuses it too', async () => {
    const w = await world();
    const pp = w.sandbox.of(PAWAPAY_CONNECTOR);
    pp.setDisabledOperations({ PAYOUT: ['MTN_MOMO_CMR'], REFUND: ['MOOV_BEN'] });
    const conf = await w.call('GET', '/v2/active-conf?country=CMR');
    const mtn = (conf.body.countries as { providers: { provider: string; currencies: { operationTypes: object }[] }[] }[])[0]?.providers.find(
      (p) => p.provider === 'MTN_MOMO_CMR',
    );
    expect(Object.keys(mtn?.currencies[0]?.operationTypes ?? {})).toEqual(['DEPOSIT', 'REFUND']);
    // Never read: no refusal of ours (pawaPay answers for itself).
    expect(w.c.lacksFor('disburse', { method: 'mtn_momo', country: 'CM' })).toBeUndefined();
    await w.c.refreshLacks();
    expect(w.c.lacksFor('disburse', { method: 'mtn_momo', country: 'CM' })).toContain('does not enable payouts to MTN_MOMO_CMR (XAF)');
    expect(w.c.lacksFor('collect', { method: 'mtn_momo', country: 'CM' })).toBeUndefined();
    expect(w.c.lacksFor('refund', { method: 'moov_money', phoneNumber: '+2290145112233' })).toContain('refunds to MOOV_BEN (XOF)');
    expect(w.c.lacksFor('refund', { method: 'mtn_momo', phoneNumber: '+237670000001' })).toBeUndefined();
    // pawaPay refuses it as well: nothing is created.
    expect(await w.c.disburse(payment('001'))).toMatchObject({ status: 'FAILED', reason: 'PAYOUTS_NOT_ALLOWED' });
    expect(pp.stats().payouts).toBe(0);
    // Kept a minute, then read again.
    pp.setDisabledOperations({});
    await w.c.refreshLacks();
    expect(w.c.lacksFor('disburse', { method: 'mtn_momo', country: 'CM' })).toBeDefined();
    w.clock.advance(61 * SECOND);
    await w.c.refreshLacks();
    expect(w.c.lacksFor('disburse', { method: 'mtn_momo', country: 'CM' })).toBeUndefined();
  });

  it('pawaPay not answering its active configuration: read at most once a minute, requests go on without it', async () => {
    const w = await world();
    const pp = w.sandbox.of(PAWAPAY_CONNECTOR);
    pp.setDisabledOperations({ PAYOUT: ['MTN_MOMO_CMR'] });
    pp.setFaults({ answer500: true });
    await w.c.refreshLacks();
    pp.setFaults({ answer500: false });
    // Within the minute: not asked again, so nothing is known and nothing refused here.
    await w.c.refreshLacks();
    expect(await w.c.authorisation('orange_money', 'BF')).toBe('pre_authorisation_code');
    expect(w.c.lacksFor('disburse', { method: 'mtn_momo', country: 'CM' })).toBeUndefined();
    w.clock.advance(61 * SECOND);
    await w.c.refreshLacks();
    expect(w.c.lacksFor('disburse', { method: 'mtn_momo', country: 'CM' })).toBeDefined();
  });
});

describe('pawapay: toolkit and check', () => {
  it('check() reads the active configuration and says what it found, or why not', async () => {
    const w = await world();
    const ok = await w.c.check();
    expect(ok).toMatchObject({ ok: true, detail: expect.stringContaining('MTN_MOMO_CMR') });
    expect(ok.detail).toContain('callbacks signed');
    expect(await w.connector({ apiToken: 'wrong' }).check()).toEqual({ ok: false, detail: 'active configuration: HTTP 403 AUTHENTICATION_ERROR' });
    expect(w.sandbox.of(PAWAPAY_CONNECTOR).stats()).toEqual({ deposits: 0, payouts: 0, refunds: 0 });
  });

  it('predicts the operator of a number, and says which method it is', async () => {
    const w = await world();
    expect(await w.c.predictProvider('+237 670 000 001')).toEqual({
      ok: true,
      value: { country: 'CMR', provider: 'MTN_MOMO_CMR', phoneNumber: '237670000001', method: 'mtn_momo' },
    });
    expect(await w.c.predictProvider('+237 690 000 001')).toMatchObject({ ok: true, value: { provider: 'ORANGE_CMR', method: 'orange_money' } });
    expect(await w.c.predictProvider('12')).toEqual({ ok: false, reason: 'HTTP 400 INVALID_PHONE_NUMBER' });
    expect(await w.c.availability()).toMatchObject({ ok: true });
  });

  it('the sandbox answers in the shapes of pawaPay’s published document, for every operation we use', async () => {
    const w = await world();
    const depositId = newReference();
    const deposit = {
      depositId,
      amount: '5000',
      currency: 'XAF',
      payer: { type: 'MMO', accountDetails: { phoneNumber: '237670000001', provider: 'MTN_MOMO_CMR' } },
      customerMessage: 'Boutique Awa',
    };
    matches(schema.checkDepositInitiation, (await w.call('POST', '/v2/deposits', deposit)).body);
    matches(schema.checkDepositInitiation, (await w.call('POST', '/v2/deposits', deposit)).body);
    matches(schema.checkDepositInitiation, (await w.call('POST', '/v2/deposits', { ...deposit, depositId: newReference(), currency: 'XOF' })).body);
    matches(schema.checkDepositStatus, (await w.call('GET', `/v2/deposits/${depositId}`)).body);
    matches(schema.checkDepositStatus, (await w.call('GET', `/v2/deposits/${newReference()}`)).body);
    const payoutId = newReference();
    const payout = { payoutId, amount: '5000', currency: 'XAF', recipient: deposit.payer };
    matches(schema.checkPayoutInitiation, (await w.call('POST', '/v2/payouts', payout)).body);
    matches(schema.checkPayoutStatus, (await w.call('GET', `/v2/payouts/${payoutId}`)).body);
    w.clock.advance(SECOND);
    const found = (await w.call('GET', `/v2/deposits/${depositId}`)).body;
    expect(found).toMatchObject({ status: 'FOUND', data: { status: 'COMPLETED' } });
    matches(schema.checkDepositStatus, found);
    const refundId = newReference();
    matches(schema.checkRefundInitiation, (await w.call('POST', '/v2/refunds', { refundId, depositId, amount: '2000', currency: 'XAF' })).body);
    matches(schema.checkRefundInitiation, (await w.call('POST', '/v2/refunds', { refundId: newReference(), depositId })).body);
    matches(schema.checkRefundStatus, (await w.call('GET', `/v2/refunds/${refundId}`)).body);
    w.clock.advance(SECOND);
    matches(schema.checkRefundStatus, (await w.call('GET', `/v2/refunds/${refundId}`)).body);
    matches(schema.checkPayoutStatus, (await w.call('GET', `/v2/payouts/${payoutId}`)).body);
    matches(schema.checkActiveConf, (await w.call('GET', '/v2/active-conf')).body);
    matches(schema.checkActiveConf, (await w.call('GET', '/v2/active-conf?country=BFA&operationType=DEPOSIT')).body);
    const availability = await request(`${w.sandbox.urls.pawapay}/v2/availability`, { headers: { authorization: `Bearer ${TOKEN}` } });
    matches(schema.checkAvailability, await availability.body.json());
    matches(schema.checkPrediction, (await w.call('POST', '/v2/predict-provider', { phoneNumber: '237690000001' })).body);
    const keys = await request(`${w.sandbox.urls.pawapay}/v2/public-key/http`, { headers: { authorization: `Bearer ${TOKEN}` } });
    matches(schema.checkPublicKeys, await keys.body.json());
    matches(schema.checkErrorAnswer, (await w.call('POST', '/v2/deposits', '{')).body);
    matches(schema.checkErrorAnswer, (await w.call('GET', '/v2/active-conf', undefined, 'wrong')).body);
    // The callbacks carry the payment as its status read does.
    await w.sandbox.tick();
    const bodies = w.receiver.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(bodies.length).toBe(3);
    for (const b of bodies) {
      if ('depositId' in b && !('refundId' in b)) matches(schema.checkDeposit, b);
      else if ('payoutId' in b) matches(schema.checkPayout, b);
      else matches(schema.checkRefund, b);
    }
  });
});

describe('pawapay: settings', () => {
  it('takes an API token as long as pawaPay makes them; callback signatures are off or required', () => {
    const token = `eyJraWQiOiIxIiwiYWxnIjoiRVMyNTYifQ.${'a'.repeat(300)}.${'b'.repeat(86)}`;
    expect(readProviderSettings(PAWAPAY_CONNECTOR.description, { CAISSE_PAWAPAY_API_TOKEN: token }, 'production')).toEqual({
      baseUrl: 'https://api.pawapay.io',
      apiToken: token,
      callbackSignatures: 'off',
    });
    expect(() =>
      readProviderSettings(PAWAPAY_CONNECTOR.description, { CAISSE_PAWAPAY_API_TOKEN: token, CAISSE_PAWAPAY_CALLBACK_SIGNATURES: 'sometimes' }, 'production'),
    ).toThrow('CAISSE_PAWAPAY_CALLBACK_SIGNATURES: must be "off" or "required"');
    expect(() => readProviderSettings(PAWAPAY_CONNECTOR.description, { CAISSE_PAWAPAY_API_TOKEN: 'x'.repeat(2049) }, 'production')).toThrow('at most 2048');
  });
});

describe('pawapay: going live', () => {
  it("a live account refuses pawaPay's sandbox API and the sandbox's token", () => {
    expect(pawapayLiveProblems({ baseUrl: 'https://api.sandbox.pawapay.io', apiToken: 'pawapay_sandbox_token' })).toEqual([
      { setting: 'baseUrl', message: expect.stringContaining('https://api.pawapay.io') },
      { setting: 'apiToken', message: expect.stringContaining("Caisse's sandbox token") },
    ]);
    expect(pawapayLiveProblems({ baseUrl: 'https://api.pawapay.io', apiToken: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln' })).toEqual([]);
  });

  it('the sandbox in production behaviour takes tokens of pawaPay’s form only', async () => {
    const sandbox = await startSandbox({ tickMs: 0, options: { pawapay: { production: true } } });
    opened.push(() => sandbox.close());
    const conf = async (token: string) =>
      (await request(`${sandbox.urls.pawapay}/v2/active-conf`, { headers: { authorization: `Bearer ${token}` } })).statusCode;
    expect(await conf('pawapay_sandbox_token')).toBe(403);
    expect(await conf('eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln')).toBe(200);
  });
});

describe('pawapay is a connector, not a payment method', () => {
  it('is left out of the methods a country offers, while the operators it reaches stay', () => {
    expect(providersServing('CM', 'XAF')).not.toContain('pawapay');
    expect(providersServing('CM', 'XAF')).toEqual(expect.arrayContaining(['mtn_momo', 'orange_money']));
    expect(PAWAPAY_CONNECTOR.description.serves).toEqual(
      expect.arrayContaining([
        { method: 'moov_money', countries: ['BJ', 'BF'] },
        { method: 'free_money', countries: ['SN'] },
        { method: 'mtn_momo', countries: ['CM', 'CI', 'BJ'] },
      ]),
    );
  });
});
