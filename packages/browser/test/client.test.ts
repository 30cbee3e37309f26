import { CaisseError as SharedCaisseError } from '@caisse/api-types';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_VERSION, CaisseClient, CaisseError } from '../src/index.ts';
import { API_KEY, type Answer, BASE, fakeApi, INTENT } from './fake-api.ts';

const JWT = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ1c3JfMSJ9.c2lnbmF0dXJl';
const OTP_TOKEN = 'otpa_secret_single_use_token_0123456789';

const happyRoutes = (): Record<string, Answer[]> => ({
  'GET /gateway/sessions/ps_token': [{ status: 200, body: INTENT }],
  'POST /auth/web': [{ status: 200, body: { id: 'usr_1', token: JWT, phoneNumber: '+237650000001', roles: ['USER'], expiresAt: '2026-11-01T10:15:00.000Z' } }],
  'POST /otp/init': [
    {
      status: 200,
      body: { object: 'otp', userId: 'usr_1', channel: 'sms', destination: '+237 6•• •• ••01', intentionId: 'pi_1', expiresAt: 'x', resendAvailableAt: 'y' },
    },
  ],
  'POST /otp/verify': [
    { status: 200, body: { object: 'otp_authorization', authorizationToken: OTP_TOKEN, expiresAt: 'z', userId: 'usr_1', intentionId: 'pi_1' } },
  ],
  'POST /charge': [{ status: 200, body: { ...INTENT, status: 'SUCCEEDED', attempts: 1 } }],
});

async function runFlow(client: CaisseClient) {
  const intent = await client.retrieveIntent('ps_token');
  const user = await client.login('+237650000001', 'correct horse');
  const challenge = await client.initOtp({ userId: user.id, channel: 'sms', intentionId: intent.id });
  const authorization = await client.verifyOtp({ userId: user.id, otp: '123456' });
  const paid = await client.charge(intent.id);
  return { intent, user, challenge, authorization, paid };
}

describe('CaisseClient', () => {
  it('walks the flow: retrieve, login, initOtp, verifyOtp, charge, with the right credentials on each call', async () => {
    const { fetch, calls } = fakeApi(happyRoutes());
    const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
    const { intent, user, authorization, paid } = await runFlow(client);
    expect(intent.status).toBe('PENDING');
    expect(paid.status).toBe('SUCCEEDED');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `GET ${BASE}/gateway/sessions/ps_token`,
      `POST ${BASE}/auth/web`,
      `POST ${BASE}/otp/init`,
      `POST ${BASE}/otp/verify`,
      `POST ${BASE}/charge`,
    ]);
    for (const c of calls) {
      expect(c.headers['x-api-key']).toBe(API_KEY);
      expect(c.headers['pay-version']).toBe(API_VERSION);
      expect(c.credentials).toBe('omit');
    }
    // The API key is a header, never in the URL.
    expect(calls.every((c) => !c.url.includes(API_KEY))).toBe(true);
    expect(calls[0]?.headers.authorization).toBeUndefined();
    expect(calls[1]?.headers.authorization).toBeUndefined();
    expect(calls[1]?.body).toEqual({ phoneNumber: '+237650000001', password: 'correct horse' });
    expect(calls[2]?.headers.authorization).toBe(`Bearer ${JWT}`);
    expect(calls[2]?.body).toEqual({ userId: 'usr_1', channel: 'sms', intentionId: 'pi_1' });
    expect(calls[3]?.headers.authorization).toBe(`Bearer ${JWT}`);
    expect(calls[3]?.body).toEqual({ userId: 'usr_1', otp: '123456' });
    expect(calls[4]?.headers.authorization).toBe(`Bearer ${JWT}`);
    expect(calls[4]?.headers['x-otp-token']).toBe(OTP_TOKEN);
    expect(calls[4]?.body).toEqual({ intentionId: 'pi_1' });
    expect(calls[4]?.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    // Neither token is handed back to the page.
    expect(JSON.stringify([user, authorization])).not.toContain(JWT);
    expect(JSON.stringify([user, authorization])).not.toContain(OTP_TOKEN);
    expect(client.userId).toBe('usr_1');
  });

  it('forgets the OTP authorization after a charge, paid or not: a second charge needs a new code', async () => {
    const routes = happyRoutes();
    routes['POST /charge'] = [{ status: 402, body: { code: 'insufficient_funds', status: 402, detail: 'Not enough in the wallet' } }];
    const { fetch, calls } = fakeApi(routes);
    const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
    const err = await runFlow(client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaisseError);
    expect(err).toMatchObject({ code: 'insufficient_funds', status: 402 });
    expect(client.hasOtpAuthorization).toBe(false);
    await expect(client.charge('pi_1')).rejects.toMatchObject({ code: 'otp_token_missing' });
    expect(calls.filter((c) => c.url.endsWith('/charge'))).toHaveLength(1);
  });

  it('keeps every token in memory only: no localStorage, sessionStorage or cookie, nothing enumerable', async () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    const cookie = vi.spyOn(document, 'cookie', 'set');
    const { fetch } = fakeApi(happyRoutes());
    const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
    await client.retrieveIntent('ps_token');
    const user = await client.login('+237650000001', 'correct horse');
    await client.initOtp({ userId: user.id, intentionId: 'pi_1' });
    await client.verifyOtp({ userId: user.id, otp: '123456' });
    // Between verifyOtp and charge the authorization is held, and still nowhere to be seen.
    expect(client.hasOtpAuthorization).toBe(true);
    const visible = [JSON.stringify(client), Object.keys(client).join(), Object.getOwnPropertyNames(client).join(), String(Object.values(client))];
    for (const text of visible) {
      expect(text).not.toContain(JWT);
      expect(text).not.toContain(OTP_TOKEN);
    }
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(document.cookie).toBe('');
    await client.charge('pi_1');
    expect(setItem).not.toHaveBeenCalled();
    expect(cookie).not.toHaveBeenCalled();
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(document.cookie).toBe('');
    setItem.mockRestore();
    cookie.mockRestore();
  });

  it('logout forgets the access token', async () => {
    const { fetch } = fakeApi(happyRoutes());
    const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
    await client.login('+237650000001', 'correct horse');
    client.logout();
    expect(client.userId).toBeUndefined();
    expect(() => client.initOtp({ userId: 'usr_1' })).toThrow(expect.objectContaining({ code: 'access_token_missing' }));
  });

  describe('passwords', () => {
    const RESET = { object: 'password_reset', phoneNumber: '+237650000001', channel: 'sms', expiresAt: '2026-11-01T10:10:00.000Z' };

    it('requestPasswordReset sends the number with the API key only, and answers where the code went', async () => {
      const { fetch, calls } = fakeApi({ 'POST /auth/password-reset': [{ status: 202, body: RESET }] });
      const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
      const sent = await client.requestPasswordReset('+237650000001');
      expect(sent).toEqual(RESET);
      expect(calls[0]).toMatchObject({ url: `${BASE}/auth/password-reset`, method: 'POST', body: { phoneNumber: '+237650000001' }, credentials: 'omit' });
      expect(calls[0]?.headers['x-api-key']).toBe(API_KEY);
      expect(calls[0]?.headers.authorization).toBeUndefined();
      expect(calls[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    });

    it('confirmPasswordReset sends number, code and new password, takes the 204, and forgets a token it held', async () => {
      const routes = happyRoutes();
      routes['POST /auth/password-reset/confirm'] = [{ status: 204 }];
      const { fetch, calls } = fakeApi(routes);
      const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
      await client.login('+237650000001', 'correct horse');
      const done = await client.confirmPasswordReset({ phoneNumber: '+237650000001', code: '123456', newPassword: 'a new horse' });
      expect(done).toBeUndefined();
      const confirm = calls.find((c) => c.url.endsWith('/auth/password-reset/confirm'));
      expect(confirm?.body).toEqual({ phoneNumber: '+237650000001', code: '123456', newPassword: 'a new horse' });
      expect(confirm?.headers.authorization).toBeUndefined();
      // Every token issued before the reset is refused by the server: the client holds none.
      expect(client.userId).toBeUndefined();
      expect(() => client.initOtp({ userId: 'usr_1' })).toThrow(expect.objectContaining({ code: 'access_token_missing' }));
    });

    it('confirmPasswordReset reports a wrong code with the tries left, and a weak password, without retrying', async () => {
      const { fetch, calls } = fakeApi({
        'POST /auth/password-reset/confirm': [
          { status: 400, body: { code: 'otp_incorrect', status: 400, detail: 'Wrong code', attemptsRemaining: 3 } },
          { status: 400, body: { code: 'password_weak', status: 400, detail: 'Too common', param: 'newPassword' } },
          { status: 429, body: { code: 'otp_attempts_exceeded', status: 429, detail: 'Ask for a new code' }, headers: { 'retry-after': '600' } },
        ],
      });
      const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
      const params = { phoneNumber: '+237650000001', code: '000000', newPassword: 'password' };
      await expect(client.confirmPasswordReset(params)).rejects.toMatchObject({ code: 'otp_incorrect', status: 400, raw: { attemptsRemaining: 3 } });
      await expect(client.confirmPasswordReset(params)).rejects.toMatchObject({ code: 'password_weak', param: 'newPassword' });
      // A long 429 is not retried.
      await expect(client.confirmPasswordReset(params)).rejects.toMatchObject({ code: 'otp_attempts_exceeded', status: 429, retryAfter: 600 });
      expect(calls).toHaveLength(3);
    });

    it('changePassword sends both passwords with the access token, then forgets the token (the server refuses it now)', async () => {
      const routes = happyRoutes();
      routes['POST /users/me/password'] = [{ status: 204 }];
      const { fetch, calls } = fakeApi(routes);
      const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
      await client.login('+237650000001', 'correct horse');
      await client.changePassword('correct horse', 'battery staple');
      const change = calls.find((c) => c.url.endsWith('/users/me/password'));
      expect(change).toMatchObject({ method: 'POST', body: { currentPassword: 'correct horse', newPassword: 'battery staple' } });
      expect(change?.headers.authorization).toBe(`Bearer ${JWT}`);
      expect(change?.headers['x-api-key']).toBe(API_KEY);
      expect(client.userId).toBeUndefined();
      await expect(client.changePassword('battery staple', 'another one')).rejects.toMatchObject({ code: 'access_token_missing' });
      expect(calls.filter((c) => c.url.endsWith('/users/me/password'))).toHaveLength(1);
    });

    it('changePassword with a wrong current password keeps the customer signed in', async () => {
      const routes = happyRoutes();
      routes['POST /users/me/password'] = [
        { status: 401, body: { code: 'invalid_credentials', status: 401, detail: 'The current password is incorrect', param: 'currentPassword' } },
      ];
      const { fetch } = fakeApi(routes);
      const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
      await client.login('+237650000001', 'correct horse');
      await expect(client.changePassword('not it', 'battery staple')).rejects.toMatchObject({ code: 'invalid_credentials', param: 'currentPassword' });
      expect(client.userId).toBe('usr_1');
    });
  });

  describe('wallet and top-ups', () => {
    const TOPUP = {
      id: 'top_1',
      object: 'topup',
      amount: '2500',
      currency: 'XAF',
      provider: 'mtn_momo',
      phoneNumber: '+237650000001',
      status: 'PENDING',
      failureReason: null,
      livemode: false,
      createdAt: '2026-11-01T10:00:00.000Z',
      updatedAt: '2026-11-01T10:00:00.000Z',
      completedAt: null,
    };
    const WALLET = { object: 'wallet', userId: 'usr_1', livemode: false, balances: [{ currency: 'XAF', amount: '2500' }], movements: [] };
    const signedIn = (routes: Record<string, Answer[]>) => ({ ...happyRoutes(), ...routes });

    it('wallet reads the balances with the access token', async () => {
      const { fetch, calls } = fakeApi(signedIn({ 'GET /wallet': [{ status: 200, body: WALLET }] }));
      const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
      await client.login('+237650000001', 'correct horse');
      const wallet = await client.wallet();
      expect(wallet.balances).toEqual([{ currency: 'XAF', amount: '2500' }]);
      expect(calls[1]).toMatchObject({ url: `${BASE}/wallet`, method: 'GET', body: undefined, credentials: 'omit' });
      expect(calls[1]?.headers.authorization).toBe(`Bearer ${JWT}`);
      expect(calls[1]?.headers['idempotency-key']).toBeUndefined();
    });

    it('topUp posts the top-up with the access token and a generated Idempotency-Key; getTopup reads it', async () => {
      const { fetch, calls } = fakeApi(
        signedIn({
          'POST /wallet/topups': [{ status: 202, body: TOPUP }],
          'GET /wallet/topups/top_1': [{ status: 200, body: { ...TOPUP, status: 'SUCCEEDED', completedAt: '2026-11-01T10:00:01.000Z' } }],
        }),
      );
      const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
      await client.login('+237650000001', 'correct horse');
      const params = { amount: '2500', currency: 'XAF', provider: 'mtn_momo', phoneNumber: '+237650000001' };
      const topup = await client.topUp(params);
      expect(topup).toMatchObject({ id: 'top_1', status: 'PENDING' });
      expect(calls[1]).toMatchObject({ url: `${BASE}/wallet/topups`, method: 'POST', body: params });
      expect(calls[1]?.headers.authorization).toBe(`Bearer ${JWT}`);
      expect(calls[1]?.headers['content-type']).toBe('application/json');
      expect(calls[1]?.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);

      const settled = await client.getTopup('top_1');
      expect(settled).toMatchObject({ status: 'SUCCEEDED', failureReason: null });
      expect(calls[2]).toMatchObject({ url: `${BASE}/wallet/topups/top_1`, method: 'GET' });
      expect(calls[2]?.headers.authorization).toBe(`Bearer ${JWT}`);
    });

    it("topUp sends the caller's Idempotency-Key, the same on every retry: the payer is asked once", async () => {
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      try {
        const { fetch, calls } = fakeApi(
          signedIn({ 'POST /wallet/topups': ['network-error', { status: 502, body: { code: 'bad_gateway' } }, { status: 202, body: TOPUP }] }),
        );
        const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
        await client.login('+237650000001', 'correct horse');
        const pending = client.topUp(
          { amount: '2500', currency: 'XAF', provider: 'mtn_momo', phoneNumber: '+237650000001' },
          { idempotencyKey: 'topup-order-42' },
        );
        await vi.runAllTimersAsync();
        expect((await pending).id).toBe('top_1');
        const posts = calls.filter((c) => c.url.endsWith('/wallet/topups'));
        expect(posts.map((c) => c.headers['idempotency-key'])).toEqual(['topup-order-42', 'topup-order-42', 'topup-order-42']);
      } finally {
        vi.useRealTimers();
      }
    });

    it('a refused top-up is a CaisseError with its code; nothing is sent before sign-in', async () => {
      const { fetch, calls } = fakeApi(
        signedIn({
          'POST /wallet/topups': [
            { status: 400, body: { code: 'phone_invalid', status: 400, detail: 'phoneNumber must be in E.164 format', param: 'phoneNumber' } },
          ],
        }),
      );
      const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
      const params = { amount: '2500', currency: 'XAF', provider: 'mtn_momo', phoneNumber: '650000001' };
      expect(() => client.topUp(params)).toThrow(expect.objectContaining({ code: 'access_token_missing' }));
      expect(() => client.wallet()).toThrow(expect.objectContaining({ code: 'access_token_missing' }));
      expect(() => client.getTopup('top_1')).toThrow(expect.objectContaining({ code: 'access_token_missing' }));
      expect(calls).toHaveLength(0);
      await client.login('+237650000001', 'correct horse');
      await expect(client.topUp(params)).rejects.toMatchObject({ code: 'phone_invalid', status: 400, param: 'phoneNumber' });
      expect(calls.filter((c) => c.url.endsWith('/wallet/topups'))).toHaveLength(1);
    });
  });

  it('reports API errors with their code, request id and extra members', async () => {
    const { fetch } = fakeApi({
      'POST /auth/web': [
        { status: 401, body: { code: 'invalid_credentials', status: 401, detail: 'Wrong phone number or password' }, headers: { 'request-id': 'req_9' } },
      ],
    });
    const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
    const err = (await client.login('+237650000001', 'nope').catch((e: unknown) => e)) as CaisseError;
    expect(err).toBeInstanceOf(CaisseError);
    expect(err).toMatchObject({ code: 'invalid_credentials', status: 401, requestId: 'req_9', message: 'Wrong phone number or password' });
  });

  it('throws the CaisseError of @caisse/api-types (the class @caisse/node throws too), with the Idempotency-Key of the POST', async () => {
    expect(CaisseError).toBe(SharedCaisseError);
    const { fetch, calls } = fakeApi({ 'POST /auth/web': [{ status: 429, body: { code: 'rate_limited', status: 429 }, headers: { 'retry-after': '60' } }] });
    const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch, maxRetries: 0 });
    const err = (await client.login('+237650000001', 'nope').catch((e: unknown) => e)) as CaisseError;
    expect(err).toBeInstanceOf(SharedCaisseError);
    expect(err).toMatchObject({ code: 'rate_limited', status: 429, retryAfter: 60, idempotencyKey: calls[0]?.headers['idempotency-key'] });
  });

  it('needs a baseUrl (no default host), and refuses secret keys and plain http off localhost', async () => {
    const { fetch, calls } = fakeApi({ 'GET /gateway/sessions/t': [{ status: 200, body: INTENT }] });
    await new CaisseClient({ apiKey: API_KEY, baseUrl: 'https://pay.example.com/', fetch }).retrieveIntent('t');
    expect(calls[0]?.url).toBe('https://pay.example.com/gateway/sessions/t');
    expect(() => new CaisseClient({ apiKey: API_KEY } as never)).toThrow(/baseUrl is required/);
    expect(() => new CaisseClient({ apiKey: 'sk_test_abc', baseUrl: BASE })).toThrow(/secret key/);
    expect(() => new CaisseClient({ apiKey: API_KEY, baseUrl: 'http://pay.example.com' })).toThrow(/https/);
    expect(() => new CaisseClient({ apiKey: API_KEY, baseUrl: 'staging' })).toThrow(/not a URL/);
  });

  describe('fetch', () => {
    /** Like a browser's window.fetch: "Illegal invocation" when called on anything but the global object. */
    const picky = (inner: typeof globalThis.fetch) =>
      function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
        if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
        return inner(input, init);
      } as typeof globalThis.fetch;

    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it("calls the merchant's fetch unbound, as window.fetch must be called", async () => {
      const { fetch, calls } = fakeApi({ 'GET /gateway/sessions/t': [{ status: 200, body: INTENT }] });
      const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch: picky(fetch), maxRetries: 0 });
      await expect(client.retrieveIntent('t')).resolves.toMatchObject({ id: 'pi_1' });
      expect(calls).toHaveLength(1);
    });

    it('calls the global fetch on the global object when none is given', async () => {
      const { fetch, calls } = fakeApi({ 'GET /gateway/sessions/t': [{ status: 200, body: INTENT }] });
      vi.stubGlobal('fetch', picky(fetch));
      const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, maxRetries: 0 });
      await expect(client.retrieveIntent('t')).resolves.toMatchObject({ id: 'pi_1' });
      expect(calls).toHaveLength(1);
    });
  });

  describe('retries', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('retries a charge that got no answer with the same Idempotency-Key and the same OTP token', async () => {
      const routes = happyRoutes();
      routes['POST /charge'] = ['network-error', { status: 503, body: { code: 'unavailable' } }, { status: 200, body: { ...INTENT, status: 'SUCCEEDED' } }];
      const { fetch, calls } = fakeApi(routes);
      const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
      const flow = runFlow(client);
      await vi.runAllTimersAsync();
      const { paid } = await flow;
      expect(paid.status).toBe('SUCCEEDED');
      const charges = calls.filter((c) => c.url.endsWith('/charge'));
      expect(charges).toHaveLength(3);
      expect(new Set(charges.map((c) => c.headers['idempotency-key'])).size).toBe(1);
      expect(new Set(charges.map((c) => c.headers['x-otp-token']))).toEqual(new Set([OTP_TOKEN]));
    });

    it('does not retry a 4xx, and a failed verification leaves no authorization', async () => {
      const routes = happyRoutes();
      routes['POST /otp/verify'] = [{ status: 400, body: { code: 'otp_incorrect', status: 400, detail: 'Wrong code', attemptsRemaining: 4 } }];
      const { fetch, calls } = fakeApi(routes);
      const client = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch });
      await client.login('+237650000001', 'correct horse');
      const err = (await client.verifyOtp({ userId: 'usr_1', otp: '000000' }).catch((e: unknown) => e)) as CaisseError;
      expect(err.code).toBe('otp_incorrect');
      expect(err.raw?.attemptsRemaining).toBe(4);
      expect(calls.filter((c) => c.url.endsWith('/otp/verify'))).toHaveLength(1);
      expect(client.hasOtpAuthorization).toBe(false);
    });
  });
});
