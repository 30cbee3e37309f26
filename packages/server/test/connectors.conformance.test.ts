import { Writable } from 'node:stream';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CINETPAY_CONNECTOR,
  type Connector,
  type IncomingCallback,
  MTN_MOMO_CONNECTOR,
  newReference,
  ORANGE_MONEY_CONNECTOR,
  PAWAPAY_CONNECTOR,
  startSandbox,
  WAVE_CONNECTOR,
} from '../src/modules/connectors/index.ts';
import { createCinetPayConnector } from '../src/modules/connectors/cinetpay/cinetpay.connector.ts';
import { notificationToken } from '../src/modules/connectors/cinetpay/cinetpay.rules.ts';
import { createMtnMomoConnector } from '../src/modules/connectors/mtn-momo/mtn-momo.connector.ts';
import { createOrangeMoneyConnector } from '../src/modules/connectors/orange-money/orange-money.connector.ts';
import { createPawapayConnector } from '../src/modules/connectors/pawapay/pawapay.connector.ts';
import { signCallback } from '../src/modules/connectors/pawapay/pawapay.signature.ts';
import { generateKeyPairSync } from 'node:crypto';
import { createWaveConnector, type WaveSettings } from '../src/modules/connectors/wave/wave.connector.ts';
import { waveSignatureHeader } from '../src/modules/connectors/wave/wave.signature.ts';
import { HOUR, ManualClock, MINUTE, SECOND } from '../src/platform/clock.ts';
import { createLogger } from '../src/platform/logger.ts';
import { CINETPAY, CONTRACT_CALLBACK_KEY, type ContractProvider, describeConnectorContract } from './connectors.conformance.ts';
import { startReceiver } from './connectors.support.ts';

/**
 * The connector contract suite (connectors.conformance.ts) for every provider, each against its
 * part of the one sandbox.
 */

const MOMO = {
  apiUser: '0efc4721-b2ec-409c-bcd4-429b4cb8e8e5',
  apiKey: 'momo0api0key',
  collectionKey: 'momo0collection',
  disbursementKey: 'momo0disbursement',
};
const ORANGE = { clientId: 'orange0client', clientSecret: 'orange0secret', merchantKey: 'orange0merchant' };
const WAVE_KEY = 'wave_sn_prod_contract0key';
const WAVE_SECRET = 'wave0webhook0secret';
const PAWAPAY_TOKEN = 'pawapay0contract0token';
const WAVE_SIGNING = 'wave_sn_AKS_contract0signing';
const RETURN = { returnUrl: 'http://127.0.0.1:9/return', cancelUrl: 'http://127.0.0.1:9/cancel' };

/** The same callback with its last path segment (our token) replaced. */
function otherToken(c: IncomingCallback): IncomingCallback {
  return { ...c, url: c.url.replace(/\/[^/]+$/, '/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA') };
}

const providers: ContractProvider[] = [
  {
    name: 'mtn_momo',
    currency: 'XAF',
    numberPrefix: '+237670000',
    approval: 'phone_prompt',
    numberWithRequest: true,
    canDisburse: true,
    failureReasons: true,
    testNumbers: true,
    tokens: {
      issued: (s) => s.of(MTN_MOMO_CONNECTOR).stats().tokensIssued.collection,
      revoke: (s) => void s.of(MTN_MOMO_CONNECTOR).revokeTokens(),
      lifeMs: HOUR,
    },
    sandboxOptions: () => ({ options: { mtn_momo: { credentials: MOMO } } }),
    connector: (env, change) =>
      createMtnMomoConnector(
        {
          baseUrl: env.sandbox.urls.mtn_momo!,
          targetEnvironment: 'sandbox',
          ...MOMO,
          ...(change?.badCredentials ? { apiKey: 'wrong' } : {}),
          callbackUrl: env.callbackUrl,
          timeoutMs: change?.timeoutMs,
        },
        env.deps,
      ),
    setFaults: (s, f) => void s.of(MTN_MOMO_CONNECTOR).setFaults(f),
    requests: (s) => s.of(MTN_MOMO_CONNECTOR).stats().requests,
    forge: (genuine) => [otherToken(genuine), { ...genuine, url: '/callbacks/mtn_momo/collection' }],
  },
  {
    name: 'orange_money',
    currency: 'XAF',
    numberPrefix: '+237690000',
    approval: 'redirect',
    numberWithRequest: false,
    canDisburse: false,
    failureReasons: false,
    testNumbers: true,
    tokens: { issued: (s) => s.of(ORANGE_MONEY_CONNECTOR).stats().tokensIssued, revoke: (s) => void s.of(ORANGE_MONEY_CONNECTOR).revokeTokens(), lifeMs: HOUR },
    sandboxOptions: () => ({ options: { orange_money: { credentials: ORANGE, tokenTtlSeconds: HOUR / 1000 } } }),
    request: RETURN,
    connector: (env, change) =>
      createOrangeMoneyConnector(
        {
          baseUrl: env.sandbox.urls.orange_money!,
          environment: 'dev',
          ...ORANGE,
          ...(change?.badCredentials ? { clientSecret: 'wrong' } : {}),
          merchantName: 'Contract shop',
          callbackUrl: env.callbackUrl,
          timeoutMs: change?.timeoutMs,
        },
        env.deps,
      ),
    setFaults: (s, f) => void s.of(ORANGE_MONEY_CONNECTOR).setFaults(f),
    requests: (s) => s.of(ORANGE_MONEY_CONNECTOR).stats().payments,
    forge: (genuine) => [
      otherToken(genuine),
      { ...genuine, body: String(genuine.body).replace(/"notif_token":"[^"]+"/, '"notif_token":"forged"') },
      { ...genuine, body: '{"status":"SUCCESS"}' },
    ],
  },
  {
    name: 'wave',
    currency: 'XOF',
    numberPrefix: '+221770000',
    approval: 'redirect',
    numberWithRequest: true,
    canDisburse: true,
    failureReasons: true,
    failureKeepsOpen: true,
    testNumbers: true,
    sandboxOptions: (callbackUrl) => ({ options: { wave: { apiKey: WAVE_KEY, webhookUrl: callbackUrl, webhookSecret: WAVE_SECRET } } }),
    request: RETURN,
    connector: (env, change) =>
      createWaveConnector(
        { baseUrl: env.sandbox.urls.wave!, apiKey: change?.badCredentials ? 'wave_wrong' : WAVE_KEY, webhookSecret: WAVE_SECRET, timeoutMs: change?.timeoutMs },
        env.deps,
      ),
    setFaults: (s, f) => void s.of(WAVE_CONNECTOR).setFaults(f),
    requests: (s) => s.of(WAVE_CONNECTOR).stats().sessions,
    forge: (genuine, env) => {
      const body = String(genuine.body);
      const now = env.clock.now().getTime();
      return [
        { ...genuine, headers: { 'wave-signature': waveSignatureHeader('another secret', now, body) } },
        { ...genuine, headers: {} },
        // Signed, but long ago: a replay.
        { ...genuine, headers: { 'wave-signature': waveSignatureHeader(WAVE_SECRET, now - 10 * MINUTE, body) } },
        // The body changed after signing.
        { ...genuine, body: body.replace('"succeeded"', '"processing"') },
        // Parsed JSON: the raw bytes are needed to check the signature.
        { ...genuine, body: JSON.parse(body) as unknown },
      ];
    },
  },
  {
    name: 'cinetpay',
    currency: 'XOF',
    numberPrefix: '+2250500000',
    approval: 'redirect',
    // The number goes with the request (customer_phone_number, locked on the page).
    numberWithRequest: true,
    canDisburse: true,
    failureReasons: true,
    testNumbers: true,
    // CinetPay's bounds and multiples of 5.
    amounts: [100n, 995n, 123_455n, 1_500_000n],
    sandboxOptions: () => ({ options: { cinetpay: CINETPAY } }),
    request: RETURN,
    connector: (env, change) =>
      createCinetPayConnector(
        {
          baseUrl: env.sandbox.urls.cinetpay!,
          ...CINETPAY,
          ...(change?.badCredentials ? { apiKey: 'cinetpay_wrong0key' } : {}),
          callbackUrl: env.callbackUrl,
          merchantName: 'Contract shop',
          timeoutMs: change?.timeoutMs,
        },
        env.deps,
      ),
    setFaults: (s, f) => void s.of(CINETPAY_CONNECTOR).setFaults(f),
    requests: (s) => s.of(CINETPAY_CONNECTOR).stats().payments,
    forge: (genuine) => {
      const body = String(genuine.body);
      const fields = Object.fromEntries(new URLSearchParams(body));
      return [
        otherToken(genuine),
        // Signed with another secret key.
        { ...genuine, headers: { 'x-token': notificationToken('another secret', fields) } },
        { ...genuine, headers: {} },
        // A field changed after signing.
        { ...genuine, body: new URLSearchParams({ ...fields, cpm_amount: '1' }).toString() },
        // Signed, but about another site.
        {
          ...genuine,
          body: new URLSearchParams({ ...fields, cpm_site_id: '1' }).toString(),
          headers: { 'x-token': notificationToken(CINETPAY.secretKey, { ...fields, cpm_site_id: '1' }) },
        },
      ];
    },
  },
  {
    name: 'pawapay',
    currency: 'XAF',
    numberPrefix: '+237670000',
    approval: 'phone_prompt',
    numberWithRequest: true,
    canDisburse: true,
    failureReasons: true,
    // pawaPay has no expiry code: a deposit the payer never approves is PAYMENT_NOT_APPROVED.
    expiredReason: 'APPROVAL_REJECTED',
    testNumbers: true,
    sandboxOptions: (callbackUrl) => ({
      options: {
        pawapay: {
          apiToken: PAWAPAY_TOKEN,
          callbackUrls: { deposit: callbackUrl, payout: callbackUrl, refund: callbackUrl },
          limits: { min: 1, max: 999_999_999 },
        },
      },
    }),
    // The operator comes from the method and the country (an aggregator reaches many).
    request: { method: 'mtn_momo', country: 'CM' },
    connector: (env, change) =>
      createPawapayConnector(
        {
          baseUrl: env.sandbox.urls.pawapay!,
          apiToken: change?.badCredentials ? 'wrong' : PAWAPAY_TOKEN,
          callbackSignatures: 'required',
          timeoutMs: change?.timeoutMs,
        },
        env.deps,
      ),
    setFaults: (s, f) => void s.of(PAWAPAY_CONNECTOR).setFaults(f),
    requests: (s) => s.of(PAWAPAY_CONNECTOR).stats().deposits,
    forge: (genuine, env) => {
      const body = String(genuine.body);
      const url = new URL(genuine.url, 'http://callback.invalid');
      const host = String(genuine.headers?.host ?? url.host);
      const now = env.clock.now().getTime();
      const { keyId } = env.sandbox.of(PAWAPAY_CONNECTOR).signingKey();
      const signed = (key: import('node:crypto').KeyObject, at: number, text = body) =>
        signCallback({ key, keyId, nowMs: at }, { method: 'POST', authority: host, path: url.pathname, body: text, contentType: 'application/json' });
      const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
      const { privateKey } = env.sandbox.of(PAWAPAY_CONNECTOR).signingKey();
      return [
        // Unsigned, while the account signs.
        { ...genuine, headers: { host } },
        // Signed by a key pawaPay does not hold, under its key id.
        { ...genuine, headers: { host, ...signed(other, now) } },
        // Signed, but long ago: a replay.
        { ...genuine, headers: { host, ...signed(privateKey, now - 10 * MINUTE) } },
        // The body changed after signing.
        { ...genuine, body: body.replace('"COMPLETED"', '"FAILED"') },
        // Parsed JSON: the raw bytes are needed to check the digest.
        { ...genuine, body: JSON.parse(body) as unknown },
      ];
    },
  },
];

for (const p of providers) describeConnectorContract(p);

/**
 * What one provider does that the shared suite cannot say for all (issue 55): an MTN account with a
 * collection key only, Orange's currency per environment, and Orange's cancel without notification.
 */
describe('provider specifics against the sandbox', () => {
  const opened: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((close) => close()));
  });

  async function world(own: { wave?: Record<string, unknown>; orange_money?: Record<string, unknown> } = {}) {
    const clock = new ManualClock('2026-11-25T08:00:00.000Z');
    const receiver = await startReceiver();
    const callbackUrl = (name: string) => `${receiver.url}/callbacks/${name}`;
    const sandbox = await startSandbox({
      clock,
      tickMs: 0,
      options: {
        mtn_momo: { credentials: MOMO },
        orange_money: { credentials: ORANGE, ...own.orange_money },
        wave: { apiKey: WAVE_KEY, webhookUrl: callbackUrl('wave'), webhookSecret: WAVE_SECRET, ...own.wave },
      },
    });
    const logger = createLogger({ level: 'silent', stream: new Writable({ write: (_c, _e, cb) => cb() }) });
    const deps = { clock, logger, callbackKey: CONTRACT_CALLBACK_KEY };
    const connectors: Connector[] = [];
    const keep = (c: Connector) => (connectors.push(c), c);
    opened.push(async () => {
      await Promise.all(connectors.map((c) => c.close()));
      await sandbox.close();
      await receiver.close();
    });
    return { clock, sandbox, receiver, callbackUrl, deps, keep };
  }

  it('mtn_momo with a collection key only: collects; refuses to send money, saying why, before calling MTN', async () => {
    const w = await world();
    const { disbursementKey: _none, ...collectionOnly } = MOMO;
    const c = w.keep(
      createMtnMomoConnector(
        { baseUrl: w.sandbox.urls.mtn_momo!, targetEnvironment: 'sandbox', ...collectionOnly, callbackUrl: w.callbackUrl('mtn_momo') },
        w.deps,
      ),
    );
    expect(c.lacks).toEqual({ disburse: expect.stringContaining('no disbursement key'), refund: expect.stringContaining('no disbursement key') });
    const reference = newReference();
    const req = { reference, amount: 5000n, currency: 'XAF' as const, phoneNumber: '+237670000001', externalId: 'att_collect' };
    expect(await c.collect(req)).toMatchObject({ status: 'PENDING' });
    w.clock.advance(2 * SECOND);
    expect(await c.status('collection', reference)).toMatchObject({ status: 'SUCCESSFUL', amount: 5000n });
    const before = w.sandbox.of(MTN_MOMO_CONNECTOR).stats().requests;
    expect(await c.disburse({ ...req, reference: newReference() })).toMatchObject({ status: 'FAILED', reason: 'DISBURSEMENT_NOT_CONFIGURED' });
    expect(w.sandbox.of(MTN_MOMO_CONNECTOR).stats().requests).toBe(before);
    // With the key, the same account disburses: the refusal is the missing key, not the provider.
    const both = w.keep(createMtnMomoConnector({ baseUrl: w.sandbox.urls.mtn_momo!, targetEnvironment: 'sandbox', ...MOMO }, w.deps));
    expect(both.lacks).toBeUndefined();
    expect(await both.disburse({ ...req, reference: newReference() })).toMatchObject({ status: 'PENDING' });
  });

  it('orange_money: each environment takes its own currency; the sandbox refuses another as Orange does', async () => {
    const w = await world();
    const orange = (environment: string) =>
      w.keep(createOrangeMoneyConnector({ baseUrl: w.sandbox.urls.orange_money!, environment, ...ORANGE, callbackUrl: w.callbackUrl('orange_money') }, w.deps));
    const req = (currency: 'XAF' | 'XOF') => ({
      reference: newReference(),
      amount: 5000n,
      currency,
      phoneNumber: '+237690000001',
      externalId: 'att_cur',
      ...RETURN,
    });
    const cm = orange('cm');
    expect(cm.currencies).toEqual(['XAF']);
    expect(await cm.collect(req('XAF'))).toMatchObject({ status: 'PENDING' });
    // XOF through `cm` is refused by the connector before anything is sent.
    const payments = w.sandbox.of(ORANGE_MONEY_CONNECTOR).stats().payments;
    expect(await cm.collect(req('XOF'))).toMatchObject({ status: 'FAILED', reason: 'INVALID_CURRENCY' });
    expect(w.sandbox.of(ORANGE_MONEY_CONNECTOR).stats().payments).toBe(payments);
    expect(orange('sn').currencies).toEqual(['XOF']);
    // `dev` (the sandbox's environment) takes either, sent as OUV.
    expect(orange('dev').currencies).toEqual(['XAF', 'XOF']);
    expect(await orange('dev').collect(req('XOF'))).toMatchObject({ status: 'PENDING' });
    // The sandbox itself, asked directly: the environment's currency only, as Orange answers.
    const token = await request(`${w.sandbox.urls.orange_money}/oauth/v3/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${ORANGE.clientId}:${ORANGE.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const { access_token } = (await token.body.json()) as { access_token: string };
    const webpayment = async (environment: string, currency: string) => {
      const res = await request(`${w.sandbox.urls.orange_money}/orange-money-webpay/${environment}/v1/webpayment`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          merchant_key: ORANGE.merchantKey,
          currency,
          order_id: newReference(),
          amount: 5000,
          return_url: RETURN.returnUrl,
          cancel_url: RETURN.cancelUrl,
          notif_url: 'http://127.0.0.1:9/n',
          lang: 'fr',
          reference: 'Shop',
        }),
      });
      return { status: res.statusCode, body: (await res.body.json()) as { code?: string; description?: string } };
    };
    expect(await webpayment('cm', 'XOF')).toMatchObject({ status: 400, body: { code: 'INVALID_CURRENCY', description: expect.stringContaining('XAF') } });
    expect(await webpayment('sn', 'XAF')).toMatchObject({ status: 400, body: { code: 'INVALID_CURRENCY' } });
    expect(await webpayment('dev', 'XAF')).toMatchObject({ status: 400, body: { code: 'INVALID_CURRENCY', description: expect.stringContaining('OUV') } });
    expect((await webpayment('cm', 'XAF')).status).toBe(201);
    expect((await webpayment('zz', 'XOF')).status).toBe(404);
  });

  it('orange_money: a cancel on the page sends no notification (as Orange in production); the status read ends it', async () => {
    const w = await world();
    const c = w.keep(
      createOrangeMoneyConnector({ baseUrl: w.sandbox.urls.orange_money!, environment: 'dev', ...ORANGE, callbackUrl: w.callbackUrl('orange_money') }, w.deps),
    );
    const ask = (digits: string) => ({
      reference: newReference(),
      amount: 5000n,
      currency: 'XAF' as const,
      phoneNumber: `+237690000${digits}`,
      externalId: 'att_cancel',
      ...RETURN,
    });
    const cancelled = ask('001');
    const started = await c.collect(cancelled);
    const payToken = (started as { providerReference: string }).providerReference;
    expect(w.sandbox.of(ORANGE_MONEY_CONNECTOR).act(payToken, 'cancel')).toMatchObject({ ok: true });
    await w.sandbox.tick();
    expect(w.receiver.received).toEqual([]);
    expect(w.sandbox.of(ORANGE_MONEY_CONNECTOR).payments()[0]?.notifications).toEqual([
      expect.objectContaining({ error: expect.stringContaining('not sent') }),
    ]);
    expect(await c.status('collection', cancelled.reference, { providerReference: payToken, amount: 5000n, currency: 'XAF' })).toMatchObject({
      status: 'FAILED',
    });
    // A decline still notifies: only the cancel is silent.
    const declined = ask('001');
    const other = await c.collect(declined);
    expect(w.sandbox.of(ORANGE_MONEY_CONNECTOR).act((other as { providerReference: string }).providerReference, 'decline')).toMatchObject({ ok: true });
    await w.sandbox.tick();
    expect(w.receiver.received).toHaveLength(1);
  });

  it('orange_money: a sandbox started with notifyCancel notifies the cancel too', async () => {
    const w = await world({ orange_money: { notifyCancel: true } });
    const c = w.keep(
      createOrangeMoneyConnector({ baseUrl: w.sandbox.urls.orange_money!, environment: 'dev', ...ORANGE, callbackUrl: w.callbackUrl('orange_money') }, w.deps),
    );
    const started = await c.collect({
      reference: newReference(),
      amount: 5000n,
      currency: 'XAF',
      phoneNumber: '+237690000001',
      externalId: 'att_n',
      ...RETURN,
    });
    expect(w.sandbox.of(ORANGE_MONEY_CONNECTOR).act((started as { providerReference: string }).providerReference, 'cancel')).toMatchObject({ ok: true });
    await w.sandbox.tick();
    expect(w.receiver.received).toHaveLength(1);
  });

  it("mtn_momo: MTN's documented sandbox numbers give MTN's outcomes; our table decides every other", async () => {
    const w = await world();
    const c = w.keep(
      createMtnMomoConnector({ baseUrl: w.sandbox.urls.mtn_momo!, targetEnvironment: 'sandbox', ...MOMO, callbackUrl: w.callbackUrl('mtn_momo') }, w.deps),
    );
    const ask = async (phoneNumber: string) => {
      const reference = newReference();
      expect(await c.collect({ reference, amount: 5000n, currency: 'XAF', phoneNumber, externalId: 'att_mtn' })).toMatchObject({ status: 'PENDING' });
      return reference;
    };
    const numbers = ['+46733123450', '+46733123451', '+46733123452', '+46733123453', '+46733123454', '+237670000105', '+46733123455'];
    const references = await Promise.all(numbers.map(ask));
    w.clock.advance(2 * SECOND);
    const read = await Promise.all(references.map((r) => c.status('collection', r)));
    expect(read.map((r) => ('reason' in r ? `${r.status} ${r.reason}` : r.status))).toEqual([
      'FAILED INTERNAL_PROCESSING_ERROR',
      'FAILED APPROVAL_REJECTED',
      'FAILED EXPIRED',
      'PENDING',
      'PENDING',
      'FAILED APPROVAL_REJECTED',
      // Any other number: successful, MTN's sandbox and ours alike.
      'SUCCESSFUL',
    ]);
    w.clock.advance(HOUR);
    expect((await c.status('collection', references[4] as string)).status).toBe('PENDING');
  });

  describe('wave', () => {
    const wave = (w: Awaited<ReturnType<typeof world>>, own: Partial<WaveSettings> = {}) =>
      w.keep(createWaveConnector({ baseUrl: w.sandbox.urls.wave!, apiKey: WAVE_KEY, webhookSecret: WAVE_SECRET, ...own }, w.deps));
    const ask = (digits = '001') => ({
      reference: newReference(),
      amount: 5000n,
      currency: 'XOF' as const,
      phoneNumber: `+221770000${digits}`,
      externalId: 'att_wave',
      ...RETURN,
    });
    const raw = (w: Awaited<ReturnType<typeof world>>, path: string, headers: Record<string, string> = {}) =>
      request(`${w.sandbox.urls.wave}${path}`, { headers: { authorization: `Bearer ${WAVE_KEY}`, ...headers } });

    it('a key that requires signing: every call signed; the sandbox refuses unsigned, badly signed and stale calls with 401', async () => {
      const w = await world({ wave: { signingSecret: WAVE_SIGNING } });
      const signed = wave(w, { signingSecret: WAVE_SIGNING });
      const req = ask();
      const started = await signed.collect(req);
      expect(started).toMatchObject({ status: 'PENDING' });
      const known = { providerReference: (started as { providerReference: string }).providerReference };
      expect(await signed.status('collection', req.reference)).toMatchObject({ status: 'PENDING' });
      expect(await signed.status('collection', req.reference, known)).toMatchObject({ status: 'PENDING' });
      expect(await signed.cancel?.('collection', req.reference, known)).toEqual({ ok: true });
      expect(await signed.disburse(ask())).toMatchObject({ status: 'PENDING' });
      // Without the secret, or with another: Wave's 401, nothing created.
      const sessions = w.sandbox.of(WAVE_CONNECTOR).stats().sessions;
      expect(await wave(w).collect(ask())).toMatchObject({ status: 'FAILED', reason: 'CREDENTIALS_REFUSED' });
      expect(await wave(w, { signingSecret: 'another secret' }).collect(ask())).toMatchObject({ status: 'FAILED', reason: 'CREDENTIALS_REFUSED' });
      expect(w.sandbox.of(WAVE_CONNECTOR).stats().sessions).toBe(sessions);
      const path = `/v1/checkout/sessions/search?client_reference=${req.reference}`;
      const now = w.clock.now().getTime();
      for (const [headers, code] of [
        [{}, 'missing-signature'],
        [{ 'wave-signature': waveSignatureHeader(WAVE_SIGNING, now - 10 * MINUTE, '') }, 'invalid-signature'],
        [{ 'wave-signature': waveSignatureHeader(WAVE_SIGNING, now, '{"a":1}') }, 'invalid-signature'],
      ] as const) {
        const res = await raw(w, path, headers);
        expect(res.statusCode).toBe(401);
        expect(await res.body.json()).toMatchObject({ code });
      }
      expect((await raw(w, path, { 'wave-signature': waveSignatureHeader(WAVE_SIGNING, now, '') })).statusCode).toBe(200);
    });

    it('webhooks by either strategy: a shared secret as Authorization: Bearer, or the Wave-Signature; each connector takes its own only', async () => {
      for (const strategy of ['shared', 'signing'] as const) {
        const w = await world({ wave: { webhookStrategy: strategy } });
        const own = wave(w, { webhookStrategy: strategy });
        const other = wave(w, { webhookStrategy: strategy === 'shared' ? 'signing' : 'shared' });
        const req = ask();
        const started = await own.collect(req);
        expect(w.sandbox.of(WAVE_CONNECTOR).act((started as { providerReference: string }).providerReference, 'approve')).toMatchObject({ ok: true });
        w.clock.advance(2 * SECOND);
        await w.sandbox.tick();
        const [hook] = w.receiver.received;
        expect(hook?.headers).toMatchObject(strategy === 'shared' ? { authorization: `Bearer ${WAVE_SECRET}` } : { 'wave-signature': expect.any(String) });
        const callback = { url: '/callbacks/wave', body: hook?.body, headers: hook?.headers };
        expect(await own.verifyCallback(callback)).toMatchObject({ ok: true, reference: req.reference, result: { status: 'SUCCESSFUL' } });
        expect(await other.verifyCallback(callback)).toMatchObject({ ok: false });
        expect((await other.verifyCallback(callback)) as { ignored?: boolean }).not.toMatchObject({ ignored: true });
        if (strategy === 'shared') {
          for (const authorization of ['Bearer another', WAVE_SECRET])
            expect(await own.verifyCallback({ ...callback, headers: { authorization } })).toMatchObject({ ok: false });
          expect(await own.verifyCallback({ ...callback, headers: {} })).toMatchObject({ ok: false });
        }
      }
    });

    it('an authenticated event Caisse does not act on is ignored (answered 2xx), a forged one refused', async () => {
      const w = await world();
      const c = wave(w);
      await w.sandbox.of(WAVE_CONNECTOR).sendEvent('merchant.payment_received', { id: 'T_1', amount: '100' });
      await w.sandbox.of(WAVE_CONNECTOR).sendEvent('checkout.session.completed', { id: 'cos-own', client_reference: 'order-77' });
      const [merchant, foreign] = w.receiver.received;
      for (const hook of [merchant, foreign])
        expect(await c.verifyCallback({ url: '/callbacks/wave', body: hook?.body, headers: hook?.headers })).toMatchObject({ ok: false, ignored: true });
      expect(await c.verifyCallback({ url: '/callbacks/wave', body: merchant?.body, headers: {} })).toEqual({
        ok: false,
        reason: 'the Wave-Signature header is missing',
      });
    });

    it('a key limited to some APIs: the connector says what it lacks and refuses before calling; the sandbox answers 403', async () => {
      const w = await world({ wave: { scopes: ['checkout'] } });
      const checkoutOnly = wave(w, { scopes: 'checkout' });
      expect(checkoutOnly.lacks).toEqual({ disburse: expect.stringContaining("Wave's payout API") });
      expect(await checkoutOnly.disburse(ask())).toMatchObject({ status: 'FAILED', reason: 'SCOPE_MISSING' });
      expect(w.sandbox.of(WAVE_CONNECTOR).stats().payouts).toBe(0);
      expect(await checkoutOnly.collect(ask())).toMatchObject({ status: 'PENDING' });
      const payoutOnly = wave(w, { scopes: 'payout' });
      expect(Object.keys(payoutOnly.lacks ?? {}).sort()).toEqual(['collect', 'refund']);
      expect(await payoutOnly.refund?.({ ...ask(), providerReference: 'cos-1' })).toMatchObject({ status: 'FAILED', reason: 'SCOPE_MISSING' });
      expect(wave(w).lacks).toBeUndefined();
      // The account check reads what the key's scopes allow, signed like any call, in Wave's words.
      expect(await checkoutOnly.check?.()).toMatchObject({ ok: true, detail: expect.stringContaining('checkout session search answered') });
      expect(await payoutOnly.check?.()).toMatchObject({ ok: false, detail: expect.stringContaining('payout search refused') });
      // A key the account believes can pay out, refused by Wave: the sandbox's 403.
      expect(await wave(w).disburse(ask())).toMatchObject({ status: 'FAILED', reason: 'CREDENTIALS_REFUSED' });
      const res = await raw(w, '/v1/payout/pt-1');
      expect(res.statusCode).toBe(403);
      expect(await res.body.json()).toMatchObject({ code: 'missing-scope' });
    });

    it('a decline leaves the session open (payable still); expire closes it, and its last error is the reason', async () => {
      const w = await world();
      const c = wave(w);
      const req = ask();
      const id = ((await c.collect(req)) as { providerReference: string }).providerReference;
      const known = { providerReference: id };
      expect(w.sandbox.of(WAVE_CONNECTOR).act(id, 'decline')).toMatchObject({ ok: true });
      w.clock.advance(2 * SECOND);
      await w.sandbox.tick();
      expect(await c.status('collection', req.reference, known)).toMatchObject({ status: 'PENDING' });
      // The page says the try failed and can still be paid.
      const page = await (await request(`${w.sandbox.urls.wave}/pay/${id}?lang=en`)).body.text();
      expect(page).toContain('The last try failed (APPROVAL_REJECTED)');
      expect(page).toContain('<form');
      // The payer tries again and pays: the same session.
      expect(w.sandbox.of(WAVE_CONNECTOR).act(id, 'approve')).toMatchObject({ ok: true });
      w.clock.advance(2 * SECOND);
      expect(await c.status('collection', req.reference, known)).toMatchObject({ status: 'SUCCESSFUL' });
      // A paid session cannot be expired.
      expect(await c.cancel?.('collection', req.reference, known)).toMatchObject({ ok: false, reason: 'HTTP 409 checkout-session-not-open' });

      // Declined, then expired by the merchant: FAILED with the decline, and no longer payable.
      const other = ask('104');
      const otherId = ((await c.collect(other)) as { providerReference: string }).providerReference;
      expect(w.sandbox.of(WAVE_CONNECTOR).act(otherId, 'approve')).toMatchObject({ ok: true });
      w.clock.advance(2 * SECOND);
      expect(await c.status('collection', other.reference)).toMatchObject({ status: 'PENDING' });
      // By our reference alone, as after a crash.
      expect(await c.cancel?.('collection', other.reference)).toEqual({ ok: true });
      expect(await c.status('collection', other.reference)).toMatchObject({ status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' });
      expect(w.sandbox.of(WAVE_CONNECTOR).act(otherId, 'approve')).toMatchObject({ ok: false, reason: 'closed' });
      expect(await c.cancel?.('collection', other.reference)).toMatchObject({ ok: false });
    });
  });
});
