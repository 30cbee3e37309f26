import { CaisseError as SharedCaisseError } from '@caisse/api-types';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Caisse,
  CaisseAPIError,
  CaisseAuthenticationError,
  CaisseConflictError,
  CaisseConnectionError,
  CaisseError,
  CaisseInvalidRequestError,
  CaissePaymentError,
  CaisseRateLimitError,
  API_VERSION,
} from '../src/index.ts';
import { BASE, INTENT, KEYS, problem, scriptedClient, scriptedFetch } from './support.ts';

const CREATE = { amount: '5000', currency: 'XAF', description: 'Order 42', metadata: { orderId: 'ord_42' } };

describe('requests', () => {
  it('sends the API key, the secret key as Bearer, the pinned version and a JSON body', async () => {
    const { caisse, calls } = scriptedClient([{ status: 201, body: INTENT }]);
    const intent = await caisse.intents.create(CREATE);
    expect(intent.id).toBe('pi_1');
    expect(intent.sessionToken).toBe('ps_secret');
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe(`${BASE}/gateway`);
    expect(call?.method).toBe('POST');
    expect(call?.headers['x-api-key']).toBe(KEYS.apiKey);
    expect(call?.headers.authorization).toBe(`Bearer ${KEYS.secretKey}`);
    expect(call?.headers['pay-version']).toBe(API_VERSION);
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.body).toEqual(CREATE);
    expect(intent.lastResponse.requestId).toBe('req_1');
    // The response metadata is not part of the object's data.
    expect(JSON.parse(JSON.stringify(intent))).toEqual(INTENT);
  });

  it('builds list queries and leaves undefined parameters out; GETs carry no Idempotency-Key', async () => {
    const { caisse, calls } = scriptedClient([{ status: 200, body: { object: 'list', data: [], hasMore: false } }]);
    await caisse.intents.list({ limit: 5, status: 'SUCCEEDED', startingAfter: undefined });
    expect(calls[0]?.url).toBe(`${BASE}/gateway?limit=5&status=SUCCEEDED`);
    expect(calls[0]?.method).toBe('GET');
    expect(calls[0]?.headers['idempotency-key']).toBeUndefined();
    expect(calls[0]?.body).toBeUndefined();
  });

  it('escapes ids in paths and sends {} for a POST without parameters', async () => {
    const { caisse, calls } = scriptedClient([{ status: 200, body: { ...INTENT, status: 'CANCELED' } }]);
    await caisse.intents.cancel('pi_1/../x');
    expect(calls[0]?.url).toBe(`${BASE}/gateway/pi_1%2F..%2Fx/cancel`);
    expect(calls[0]?.body).toEqual({});
  });

  it('covers every resource with its method and path', async () => {
    const ok = { status: 200, body: { data: [], hasMore: false } };
    const { caisse, calls } = scriptedClient(Array.from({ length: 25 }, () => ok));
    await caisse.intents.retrieve('pi_1');
    await caisse.intents.refund('pi_1', { amount: '100' });
    await caisse.events.list({ type: 'payment.completed' });
    await caisse.events.retrieve('evt_1');
    await caisse.events.resend('evt_1', { endpointId: 'we_1' });
    await caisse.webhookEndpoints.create({ url: 'https://shop.example/hook' });
    await caisse.webhookEndpoints.retrieve('we_1');
    await caisse.webhookEndpoints.update('we_1', { enabled: false });
    await caisse.webhookEndpoints.list({ limit: 10 });
    await caisse.webhookEndpoints.del('we_1');
    await caisse.webhookEndpoints.retrieveSecret('we_1');
    await caisse.webhookEndpoints.rollSecret('we_1', { expiresIn: 3600 });
    await caisse.webhookEndpoints.listDeliveries('we_1', { eventId: 'evt_1' });
    await caisse.balance.retrieve();
    await caisse.balance.listTransactions({ type: 'payout', from: '2026-11-01' });
    await caisse.payouts.create({ amount: '4925', currency: 'XAF', destination: { provider: 'mtn_momo', phoneNumber: '+237670000000' } });
    await caisse.payouts.retrieve('po_1');
    await caisse.payouts.list({ status: 'PAID' });
    await caisse.payouts.retrieveSchedule();
    await caisse.payouts.updateSchedule({ interval: 'daily', destination: { provider: 'mtn_momo', phoneNumber: '+237670000000' } });
    await caisse.testHelpers.settleBalance();
    await caisse.testHelpers.createUser({ phoneNumber: '+237650000001', password: 'pw' });
    await caisse.testHelpers.fundWallet({ userId: 'usr_1', amount: '10', currency: 'XAF' });
    await caisse.testHelpers.listMessages({ userId: 'usr_1' });
    await caisse.intents.recordRefund('pi_1', { method: 'cash', reference: 'R-1' });
    expect(calls.map((c) => `${c.method} ${c.url.slice(BASE.length)}`)).toEqual([
      'GET /gateway/pi_1',
      'POST /gateway/pi_1/refunds',
      'GET /events?type=payment.completed',
      'GET /events/evt_1',
      'POST /events/evt_1/resend',
      'POST /webhook-endpoints',
      'GET /webhook-endpoints/we_1',
      'PATCH /webhook-endpoints/we_1',
      'GET /webhook-endpoints?limit=10',
      'DELETE /webhook-endpoints/we_1',
      'GET /webhook-endpoints/we_1/secret',
      'POST /webhook-endpoints/we_1/roll-secret',
      'GET /webhook-endpoints/we_1/deliveries?eventId=evt_1',
      'GET /balance',
      'GET /balance/transactions?type=payout&from=2026-11-01',
      'POST /payouts',
      'GET /payouts/po_1',
      'GET /payouts?status=PAID',
      'GET /payout-schedule',
      'PUT /payout-schedule',
      'POST /test/balance/settle',
      'POST /test/users',
      'POST /test/wallets/fund',
      'GET /test/messages?userId=usr_1',
      'POST /gateway/pi_1/refunds/recorded',
    ]);
    expect(calls[7]?.body).toEqual({ enabled: false });
    expect(calls[19]?.body).toEqual({ interval: 'daily', destination: { provider: 'mtn_momo', phoneNumber: '+237670000000' } });
  });

  it('payment methods: reads and sets which methods checkout offers', async () => {
    const settings = {
      object: 'payment_method_settings',
      livemode: false,
      country: 'CM',
      currency: 'XAF',
      wallet: true,
      providersDefault: false,
      providers: [],
    };
    const { caisse, calls } = scriptedClient([
      { status: 200, body: settings },
      { status: 200, body: { ...settings, wallet: false } },
    ]);
    expect((await caisse.paymentMethods.retrieveSettings()).country).toBe('CM');
    expect((await caisse.paymentMethods.updateSettings({ wallet: false, providers: ['mtn_momo'] })).wallet).toBe(false);
    expect(calls.map((c) => `${c.method} ${c.url.slice(BASE.length)}`)).toEqual(['GET /payment-methods/settings', 'PUT /payment-methods/settings']);
    expect(calls[1]?.body).toEqual({ wallet: false, providers: ['mtn_momo'] });
  });

  it('payment links: create, list, retrieve, update (deactivate) and listPayments', async () => {
    const link = {
      id: 'plink_1',
      object: 'payment_link',
      url: 'https://pay.example/pay/plink_1',
      amount: '5000',
      currency: 'XAF',
      description: 'Wax',
      metadata: {},
      active: true,
      livemode: false,
      createdAt: '2026-11-01T10:00:00.000Z',
      updatedAt: '2026-11-01T10:00:00.000Z',
    };
    const { caisse, calls } = scriptedClient([
      { status: 201, body: link },
      { status: 200, body: { object: 'list', data: [link], hasMore: false } },
      { status: 200, body: link },
      { status: 200, body: { ...link, active: false } },
      { status: 200, body: { object: 'list', data: [INTENT], hasMore: false } },
    ]);
    const created = await caisse.paymentLinks.create(
      { amount: '5000', currency: 'XAF', description: 'Wax', metadata: { sku: 'W-6' } },
      { idempotencyKey: 'link-1' },
    );
    expect(created.url).toBe('https://pay.example/pay/plink_1');
    expect((await caisse.paymentLinks.list({ limit: 5, startingAfter: 'plink_0' })).data).toHaveLength(1);
    await caisse.paymentLinks.retrieve('plink_1');
    expect((await caisse.paymentLinks.update('plink_1', { active: false })).active).toBe(false);
    expect((await caisse.paymentLinks.listPayments('plink_1', { limit: 10 })).data[0]?.id).toBe('pi_1');
    expect(calls.map((c) => `${c.method} ${c.url.slice(BASE.length)}`)).toEqual([
      'POST /payment-links',
      'GET /payment-links?limit=5&startingAfter=plink_0',
      'GET /payment-links/plink_1',
      'POST /payment-links/plink_1',
      'GET /payment-links/plink_1/payments?limit=10',
    ]);
    expect(calls[0]?.body).toEqual({ amount: '5000', currency: 'XAF', description: 'Wax', metadata: { sku: 'W-6' } });
    expect(calls[0]?.headers['idempotency-key']).toBe('link-1');
    expect(calls[3]?.body).toEqual({ active: false });
  });
});

describe('retries', () => {
  it('retries network errors, 5xx and 429 and reuses ONE Idempotency-Key across them', async () => {
    const { caisse, calls, sleeps } = scriptedClient(
      [{ networkError: 'fetch failed' }, { status: 503, body: problem(503, 'unavailable') }, { status: 201, body: INTENT }],
      { maxRetries: 2 },
    );
    const intent = await caisse.intents.create(CREATE);
    expect(intent.id).toBe('pi_1');
    expect(intent.lastResponse.attempts).toBe(3);
    expect(calls).toHaveLength(3);
    const keys = calls.map((c) => c.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(intent.lastResponse.idempotencyKey).toBe(keys[0]);
    // The body is the same each time, as the key demands.
    expect(calls.every((c) => JSON.stringify(c.body) === JSON.stringify(CREATE))).toBe(true);
    expect(sleeps).toHaveLength(2);
  });

  it('uses the Idempotency-Key the caller gives, on every attempt', async () => {
    const { caisse, calls } = scriptedClient([
      { status: 500, body: problem(500, 'internal_error') },
      { status: 201, body: INTENT },
    ]);
    await caisse.intents.create(CREATE, { idempotencyKey: 'order-42-attempt' });
    expect(calls.map((c) => c.headers['idempotency-key'])).toEqual(['order-42-attempt', 'order-42-attempt']);
  });

  it('makes a new Idempotency-Key per call when none is given', async () => {
    const { caisse, calls } = scriptedClient([
      { status: 201, body: INTENT },
      { status: 201, body: INTENT },
    ]);
    await caisse.intents.create(CREATE);
    await caisse.intents.create(CREATE);
    expect(calls[0]?.headers['idempotency-key']).not.toBe(calls[1]?.headers['idempotency-key']);
  });

  it('backs off exponentially with jitter: each wait within [d/2, d] for d = 0.5 s, 1 s, 2 s', async () => {
    const { caisse, sleeps } = scriptedClient(
      [
        { status: 502, body: problem(502, 'api_error') },
        { status: 502 },
        { status: 504 },
        { status: 200, body: { object: 'balance', livemode: false, available: [] } },
      ],
      { maxRetries: 3 },
    );
    await caisse.balance.retrieve();
    expect(sleeps).toHaveLength(3);
    [500, 1000, 2000].forEach((d, i) => {
      expect(sleeps[i]).toBeGreaterThanOrEqual(d / 2);
      expect(sleeps[i]).toBeLessThanOrEqual(d);
    });
  });

  it('honours Retry-After on 429 (seconds and HTTP date)', async () => {
    const date = new Date(Date.now() + 7_000).toUTCString();
    const { caisse, sleeps, calls } = scriptedClient([
      { status: 429, body: problem(429, 'rate_limited'), headers: { 'retry-after': '3' } },
      { status: 429, body: problem(429, 'rate_limited'), headers: { 'retry-after': date } },
      { status: 200, body: { object: 'balance', livemode: false, available: [] } },
    ]);
    await caisse.balance.retrieve();
    expect(calls).toHaveLength(3);
    expect(sleeps[0]).toBe(3000);
    expect(sleeps[1]).toBeGreaterThanOrEqual(5000);
    expect(sleeps[1]).toBeLessThanOrEqual(8000);
  });

  it('does not wait for a Retry-After beyond a minute: the rate-limit error is thrown with it', async () => {
    const { caisse, calls } = scriptedClient([{ status: 429, body: problem(429, 'rate_limited'), headers: { 'retry-after': '600' } }]);
    const err = await caisse.balance.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaisseRateLimitError);
    expect((err as CaisseRateLimitError).retryAfter).toBe(600);
    expect(calls).toHaveLength(1);
  });

  it('retries 409 idempotency_request_in_progress (the first request is still running) but no other 409', async () => {
    const inProgress = scriptedClient([
      { status: 409, body: problem(409, 'idempotency_request_in_progress') },
      { status: 201, body: INTENT },
    ]);
    await inProgress.caisse.intents.create(CREATE);
    expect(inProgress.calls).toHaveLength(2);

    const state = scriptedClient([{ status: 409, body: problem(409, 'intent_state_invalid') }]);
    await expect(state.caisse.intents.cancel('pi_1')).rejects.toBeInstanceOf(CaisseConflictError);
    expect(state.calls).toHaveLength(1);
  });

  it('never retries a 4xx: it would fail the same way', async () => {
    for (const [status, code] of [
      [400, 'amount_invalid'],
      [401, 'secret_key_invalid'],
      [402, 'insufficient_funds'],
      [404, 'not_found'],
      [422, 'idempotency_key_reused'],
    ] as const) {
      const { caisse, calls } = scriptedClient([{ status, body: problem(status, code) }]);
      await expect(caisse.intents.create(CREATE)).rejects.toMatchObject({ code, status });
      expect(calls).toHaveLength(1);
    }
  });

  it('gives up after maxRetries and throws the last error, with the key to retry by hand', async () => {
    const { caisse, calls } = scriptedClient([{ networkError: 'ECONNRESET' }, { networkError: 'ECONNRESET' }, { networkError: 'ECONNRESET' }], {
      maxRetries: 2,
    });
    const err = await caisse.intents.create(CREATE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaisseConnectionError);
    expect((err as CaisseConnectionError).code).toBe('connection_error');
    expect((err as CaisseConnectionError).status).toBeUndefined();
    expect(calls).toHaveLength(3);
    expect((err as CaisseConnectionError).idempotencyKey).toBe(calls[0]?.headers['idempotency-key']);
  });

  it('maxRetries: 0 on one call makes a single attempt', async () => {
    const { caisse, calls } = scriptedClient([{ status: 503, body: problem(503, 'unavailable') }]);
    await expect(caisse.balance.retrieve({ maxRetries: 0 })).rejects.toBeInstanceOf(CaisseAPIError);
    expect(calls).toHaveLength(1);
  });

  it('a timed-out attempt is a retryable timeout error', async () => {
    let n = 0;
    const sleeps: number[] = [];
    const caisse = new Caisse({
      ...KEYS,
      baseUrl: BASE,
      timeout: 20,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      fetch: (_url, init) => {
        n++;
        return new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
      },
    });
    const err = await caisse.balance.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaisseConnectionError);
    expect((err as CaisseError).code).toBe('timeout');
    expect(n).toBe(3);
  });

  it("stops at once when the caller's signal aborts", async () => {
    const controller = new AbortController();
    let n = 0;
    const caisse = new Caisse({
      ...KEYS,
      baseUrl: BASE,
      fetch: (_url, init) => {
        n++;
        return new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
      },
    });
    const pending = caisse.balance.retrieve({ signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    expect(n).toBe(1);
  });
});

describe('fetch', () => {
  /** Like a browser's or a worker's fetch: "Illegal invocation" when called on anything but the global object. */
  const picky = (inner: (url: string, init: RequestInit) => Promise<Response>) =>
    function (this: unknown, url: string, init: RequestInit) {
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
      return inner(url, init);
    };

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("calls the merchant's fetch unbound", async () => {
    const { fetch, calls } = scriptedFetch([{ status: 200, body: INTENT }]);
    const caisse = new Caisse({ ...KEYS, baseUrl: BASE, fetch: picky(fetch), maxRetries: 0 });
    await expect(caisse.intents.retrieve('pi_1')).resolves.toMatchObject({ id: 'pi_1' });
    expect(calls).toHaveLength(1);
  });

  it('calls the global fetch unbound when none is given', async () => {
    const { fetch, calls } = scriptedFetch([{ status: 200, body: INTENT }]);
    vi.stubGlobal('fetch', picky(fetch));
    const caisse = new Caisse({ ...KEYS, baseUrl: BASE, maxRetries: 0 });
    await expect(caisse.intents.retrieve('pi_1')).resolves.toMatchObject({ id: 'pi_1' });
    expect(calls).toHaveLength(1);
  });
});

describe('errors', () => {
  it('maps the problem body to a typed error with code, status, requestId and param', async () => {
    const { caisse } = scriptedClient([{ status: 400, body: problem(400, 'amount_invalid', { param: 'amount' }), headers: { 'request-id': 'req_abc' } }]);
    const err = await caisse.intents.create({ ...CREATE, amount: '5000.5' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaisseInvalidRequestError);
    expect(err).toBeInstanceOf(CaisseError);
    expect(err).toMatchObject({ code: 'amount_invalid', status: 400, requestId: 'req_abc', param: 'amount', message: 'detail of amount_invalid' });
  });

  it('keeps validation errors and extra members', async () => {
    const { caisse } = scriptedClient([
      { status: 400, body: problem(400, 'validation_error', { errors: [{ param: 'description', message: 'too long' }] }) },
      { status: 402, body: problem(402, 'insufficient_funds', { attempts: 1 }) },
    ]);
    const v = (await caisse.intents.create(CREATE).catch((e: unknown) => e)) as CaisseError;
    expect(v.errors).toEqual([{ param: 'description', message: 'too long' }]);
    const p = (await caisse.intents.create(CREATE).catch((e: unknown) => e)) as CaisseError;
    expect(p).toBeInstanceOf(CaissePaymentError);
    expect(p.raw?.attempts).toBe(1);
  });

  it('401 is an authentication error; a body that is not JSON still gives a typed error', async () => {
    const { caisse } = scriptedClient([{ status: 401, body: problem(401, 'secret_key_invalid') }, { status: 502 }]);
    await expect(caisse.balance.retrieve()).rejects.toBeInstanceOf(CaisseAuthenticationError);
    const err = (await caisse.balance.retrieve({ maxRetries: 0 }).catch((e: unknown) => e)) as CaisseError;
    expect(err).toBeInstanceOf(CaisseAPIError);
    expect(err.code).toBe('api_error');
    expect(err.status).toBe(502);
  });

  it('is the CaisseError of @caisse/api-types, the class @caisse/browser throws too, with the Idempotency-Key of the POST', async () => {
    expect(CaisseError).toBe(SharedCaisseError);
    const { caisse, calls } = scriptedClient([{ status: 409, body: problem(409, 'intent_state_invalid') }]);
    const err = (await caisse.intents.cancel('pi_1').catch((e: unknown) => e)) as CaisseError;
    expect(err).toBeInstanceOf(SharedCaisseError);
    expect(err).toBeInstanceOf(CaisseConflictError);
    expect(err.idempotencyKey).toBe(calls[0]?.headers['idempotency-key']);
    expect(err.retryAfter).toBeUndefined();
  });
});

describe('test helpers: the customer side', () => {
  const SESSION = { id: 'usr_1', phoneNumber: '+237650000001', roles: ['USER'], token: 'jwt_user', expiresAt: '2026-11-01T10:15:00.000Z' };
  const AUTHORIZATION = { object: 'otp_authorization', userId: 'usr_1', intentionId: 'pi_1', authorizationToken: 'otpa_1', expiresAt: 'x' };

  it('signs in with the API key alone, then sends, verifies and charges as the user, with the code token as x-otp-token', async () => {
    const { caisse, calls } = scriptedClient([
      { status: 200, body: SESSION },
      {
        status: 200,
        body: {
          object: 'otp_challenge',
          userId: 'usr_1',
          channel: 'sms',
          destination: '+237 6•• •• ••01',
          intentionId: 'pi_1',
          expiresAt: 'x',
          resendAvailableAt: 'y',
        },
      },
      { status: 200, body: AUTHORIZATION },
      { status: 200, body: { ...INTENT, status: 'SUCCEEDED' } },
    ]);
    const session = await caisse.testHelpers.login({ phoneNumber: SESSION.phoneNumber, password: 'pw' });
    expect(session.token).toBe('jwt_user');
    await caisse.testHelpers.initOtp(session.token, { userId: session.id, channel: 'sms', intentionId: 'pi_1' });
    const { authorizationToken } = await caisse.testHelpers.verifyOtp(session.token, { userId: session.id, otp: '123456' });
    const paid = await caisse.testHelpers.charge(session.token, { intentionId: 'pi_1', authorizationToken }, { idempotencyKey: 'pay-pi_1' });
    expect(paid.status).toBe('SUCCEEDED');

    expect(calls.map((c) => `${c.method} ${c.url.slice(BASE.length)}`)).toEqual(['POST /auth/web', 'POST /otp/init', 'POST /otp/verify', 'POST /charge']);
    const [login, init, verify, charge] = calls;
    expect(login?.headers['x-api-key']).toBe(KEYS.apiKey);
    expect(login?.headers.authorization).toBeUndefined();
    for (const c of [init, verify, charge]) {
      expect(c?.headers['x-api-key']).toBe(KEYS.apiKey);
      expect(c?.headers.authorization).toBe('Bearer jwt_user');
    }
    expect(charge?.headers['x-otp-token']).toBe('otpa_1');
    expect(charge?.headers['idempotency-key']).toBe('pay-pi_1');
    expect(charge?.body).toEqual({ intentionId: 'pi_1' });
    // The secret key goes with none of them.
    expect(JSON.stringify(calls)).not.toContain(KEYS.secretKey);
  });

  it('a declined charge is a CaissePaymentError; with live keys the customer helpers send nothing', async () => {
    const { caisse } = scriptedClient([{ status: 402, body: problem(402, 'insufficient_funds', { intentStatus: 'PENDING' }) }]);
    const err = await caisse.testHelpers.charge('jwt_user', { intentionId: 'pi_1', authorizationToken: 'otpa_1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaissePaymentError);
    expect(err).toMatchObject({ code: 'insufficient_funds', status: 402, raw: { intentStatus: 'PENDING' } });

    const live = scriptedClient([], { apiKey: 'pk_live_abcdefghijklmnopqrstuvwx', secretKey: 'sk_live_abcdefghijklmnopqrstuvwx' });
    await expect(live.caisse.testHelpers.login({ phoneNumber: '+237650000001', password: 'pw' })).rejects.toThrow(/test keys only/);
    await expect(live.caisse.testHelpers.charge('jwt', { intentionId: 'pi_1', authorizationToken: 'a' })).rejects.toThrow(TypeError);
    expect(live.calls).toHaveLength(0);
  });
});

describe('test helpers: a mobile-money charge', () => {
  it("pays with the intent's session token and the API key alone: 202 PROCESSING with nextAction", async () => {
    const processing = {
      ...INTENT,
      status: 'PROCESSING',
      attempts: [],
      paymentMethod: null,
      nextAction: { type: 'approve_on_phone', provider: 'mtn_momo', phoneNumber: '+237670000000', expiresAt: 'x', message: 'Approve', ussd: '*126#' },
    };
    const { caisse, calls } = scriptedClient([{ status: 202, body: processing }]);
    const started = await caisse.testHelpers.chargeMobileMoney(
      'ps_token',
      { intentionId: 'pi_1', paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: '+237670000000' } },
      { idempotencyKey: 'mm-1' },
    );
    expect(started.status).toBe('PROCESSING');
    expect(started.nextAction).toMatchObject({ type: 'approve_on_phone' });
    const [charge] = calls;
    expect(`${charge?.method} ${charge?.url.slice(BASE.length)}`).toBe('POST /charge');
    expect(charge?.headers['x-session-token']).toBe('ps_token');
    expect(charge?.headers['x-api-key']).toBe(KEYS.apiKey);
    expect(charge?.headers.authorization).toBeUndefined();
    expect(charge?.headers['idempotency-key']).toBe('mm-1');
    expect(charge?.body).toEqual({ intentionId: 'pi_1', paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: '+237670000000' } });

    const live = scriptedClient([], { apiKey: 'pk_live_abcdefghijklmnopqrstuvwx', secretKey: 'sk_live_abcdefghijklmnopqrstuvwx' });
    await expect(
      live.caisse.testHelpers.chargeMobileMoney('ps_token', {
        intentionId: 'pi_1',
        paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: '+237670000000' },
      }),
    ).rejects.toThrow(TypeError);
    expect(live.calls).toHaveLength(0);
  });
});

describe('construction', () => {
  it('refuses keys in the wrong places, mixed modes and plain http to a non-loopback host', () => {
    expect(() => new Caisse({ apiKey: KEYS.secretKey, secretKey: KEYS.secretKey })).toThrow(/publishable/);
    expect(() => new Caisse({ apiKey: KEYS.apiKey, secretKey: KEYS.apiKey })).toThrow(/secret key/);
    expect(() => new Caisse({ apiKey: KEYS.apiKey, secretKey: 'sk_live_abcdefghijklmnopqrstuvwx' })).toThrow(/same mode/);
    expect(() => new Caisse({ ...KEYS, baseUrl: 'http://pay.example.com' })).toThrow(/https/);
    expect(() => new Caisse({ ...KEYS, baseUrl: 'http://localhost:8080/' })).not.toThrow();
    expect(() => new Caisse({ ...KEYS, baseUrl: 'https://pay.example.com' })).not.toThrow();
  });

  it('needs baseUrl, or CAISSE_BASE_URL: a self-hosted gateway has no default host', async () => {
    const saved = process.env.CAISSE_BASE_URL;
    try {
      delete process.env.CAISSE_BASE_URL;
      expect(() => new Caisse({ ...KEYS })).toThrow(/baseUrl is required.*CAISSE_BASE_URL/);
      expect(() => new Caisse({ ...KEYS, baseUrl: ' ' })).toThrow(/baseUrl is required/);
      process.env.CAISSE_BASE_URL = 'http://127.0.0.1:8080';
      const urls: string[] = [];
      const caisse = new Caisse({
        ...KEYS,
        fetch: async (url) => {
          urls.push(String(url));
          return new Response(JSON.stringify({ object: 'balance', available: [], pending: [], balances: [] }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          });
        },
      });
      await caisse.balance.retrieve();
      expect(urls).toEqual(['http://127.0.0.1:8080/balance']);
    } finally {
      if (saved === undefined) delete process.env.CAISSE_BASE_URL;
      else process.env.CAISSE_BASE_URL = saved;
    }
  });

  it('allowInsecureHttp accepts plain http on any host, with test keys only', async () => {
    const { caisse, calls } = scriptedClient([{ status: 200, body: { object: 'balance' } }], {
      baseUrl: 'http://caisse.internal:8080',
      allowInsecureHttp: true,
    });
    await caisse.balance.retrieve();
    expect(calls[0]?.url).toBe('http://caisse.internal:8080/balance');
    const live = { apiKey: 'pk_live_abcdefghijklmnopqrstuvwx', secretKey: 'sk_live_abcdefghijklmnopqrstuvwx' };
    expect(() => new Caisse({ ...live, baseUrl: 'http://caisse.internal:8080', allowInsecureHttp: true })).toThrow(/test keys only/);
    expect(() => new Caisse({ ...live, baseUrl: 'https://pay.example.com', allowInsecureHttp: true })).toThrow(/test keys only/);
  });
});
