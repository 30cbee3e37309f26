import { randomBytes, randomInt } from 'node:crypto';
import { type ApiClient, ApiRequestError, type ApiResponse } from './api-client.ts';

/**
 * Test payments made over HTTP the way a merchant's server and a browser make them: a test user
 * with a funded wallet, an intent, initOtp → the code read from `GET /test/messages` →
 * verifyOtp, then charge. Used by `caisse trigger` and by the crash, outage and soak tests.
 */

export interface TestUser {
  id: string;
  phoneNumber: string;
  password: string;
  /** A 15-minute access token from POST /auth/web. */
  token: string;
}

export interface Intent {
  id: string;
  status: string;
  amount: string;
  currency: string;
  expiresAt: string;
  [key: string]: unknown;
}

/** A random Cameroonian mobile number (+237 6 and 8 digits). */
export function randomPhone(): string {
  return `+2376${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

export function testPayments(api: ApiClient) {
  /** A verified test user with `balance` (major units) in `currency`, signed in. */
  async function createUser(opts: { balance: string; currency?: string }): Promise<TestUser> {
    const password = `test-${randomBytes(9).toString('base64url')}`;
    for (let attempt = 0; ; attempt++) {
      const phoneNumber = randomPhone();
      try {
        const user = await api.call<{ id: string }>('POST', '/test/users', {
          body: { phoneNumber, password, balance: opts.balance, ...(opts.currency ? { currency: opts.currency } : {}) },
        });
        const auth = await api.call<{ token: string }>('POST', '/auth/web', { as: 'pk', body: { phoneNumber, password } });
        return { id: user.id, phoneNumber, password, token: auth.token };
      } catch (err) {
        // A random number already taken: draw another.
        if (err instanceof ApiRequestError && err.code === 'already_exists' && attempt < 5) continue;
        throw err;
      }
    }
  }

  /** Signs the user in again (access tokens live 15 minutes). */
  async function signIn(user: TestUser): Promise<void> {
    user.token = (await api.call<{ token: string }>('POST', '/auth/web', { as: 'pk', body: { phoneNumber: user.phoneNumber, password: user.password } })).token;
  }

  function createIntent(body: { amount: string; currency?: string; description?: string; metadata?: Record<string, string | number | boolean>; expiresIn?: number }) {
    return api.call<Intent>('POST', '/gateway', { body: { currency: 'XAF', ...body } });
  }

  /** The newest 6-digit code sent to the user (test outbox). */
  async function latestCode(userId: string): Promise<string> {
    const messages = await api.call<{ data: { body: string }[] }>('GET', `/test/messages?userId=${encodeURIComponent(userId)}&limit=1`);
    const code = /\b(\d{6})\b/.exec(messages.data[0]?.body ?? '')?.[1];
    if (code === undefined) throw new Error(`no code in the test outbox for ${userId}`);
    return code;
  }

  /** initOtp (bound to the intent) → code from the outbox → verifyOtp: the authorization token for charge. */
  async function authorize(user: TestUser, intentId: string): Promise<string> {
    await api.call('POST', '/otp/init', { as: { token: user.token }, body: { userId: user.id, channel: 'sms', intentionId: intentId } });
    const otp = await latestCode(user.id);
    const verified = await api.call<{ authorizationToken: string }>('POST', '/otp/verify', { as: { token: user.token }, body: { userId: user.id, otp } });
    return verified.authorizationToken;
  }

  /** The charge, whatever it answers (200 paid, 402 insufficient_funds, …). */
  function charge(user: TestUser, intentId: string, otpToken: string, headers: Record<string, string> = {}): Promise<ApiResponse<Intent & { code?: string }>> {
    return api.request('POST', '/charge', { as: { token: user.token }, headers: { 'x-otp-token': otpToken, ...headers }, body: { intentionId: intentId } });
  }

  function refund(intentId: string, amount?: string) {
    return api.call<{ id: string; amount: string }>('POST', `/gateway/${encodeURIComponent(intentId)}/refunds`, { body: amount === undefined ? {} : { amount } });
  }

  function cancel(intentId: string) {
    return api.call<Intent>('POST', `/gateway/${encodeURIComponent(intentId)}/cancel`, { body: {} });
  }

  function getIntent(intentId: string) {
    return api.call<Intent>('GET', `/gateway/${encodeURIComponent(intentId)}`);
  }

  /** The events of one intent, newest first (searched among the merchant's latest events of that type). */
  async function eventsOf(intentId: string, type: string): Promise<{ id: string; type: string }[]> {
    const page = await api.call<{ data: { id: string; type: string; data: { paymentIntent: { id: string } } }[] }>(
      'GET',
      `/events?type=${encodeURIComponent(type)}&limit=100`,
    );
    return page.data.filter((e) => e.data.paymentIntent.id === intentId).map((e) => ({ id: e.id, type: e.type }));
  }

  return { createUser, signIn, createIntent, latestCode, authorize, charge, refund, cancel, getIntent, eventsOf };
}

export type TestPayments = ReturnType<typeof testPayments>;
