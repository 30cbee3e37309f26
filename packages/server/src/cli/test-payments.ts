import { randomBytes, randomInt } from 'node:crypto';
import {
  type Caisse,
  CaisseError,
  type ChargedPaymentIntent,
  type CreatedPaymentIntent,
  type EventType,
  type PaymentIntent,
  type PaymentIntentCreateParams,
  type ProblemBody,
  type ProcessingPaymentIntent,
  type Refund,
} from '@caisse/node';
import type { ProviderName } from '../modules/connectors/index.ts';

/**
 * Test payments made over HTTP the way a merchant's server and a browser make them, with
 * @caisse/node: a test user with a funded wallet, an intent, initOtp → the code read from
 * `GET /test/messages` → verifyOtp, then charge (the customer's calls through its test
 * helpers, as that user). Used by `caisse trigger` and by the crash, outage and soak tests.
 */

export interface TestUser {
  id: string;
  phoneNumber: string;
  password: string;
  /** A 15-minute access token from POST /auth/web. */
  token: string;
}

/** What a charge answered, whatever it was: the intent it paid (200) or the problem (402 `insufficient_funds`, 409, …). */
export interface ChargeAnswer {
  status: number;
  headers: Headers;
  intent: ChargedPaymentIntent | undefined;
  problem: ProblemBody | undefined;
}

export type TestIntentParams = Omit<PaymentIntentCreateParams, 'currency'> & { currency?: PaymentIntentCreateParams['currency'] };

/** A random Cameroonian mobile number (+237 65 to 69 and 7 digits: ranges libphonenumber calls valid). */
export function randomPhone(): string {
  return `+2376${String(randomInt(50_000_000, 100_000_000))}`;
}

export function testPayments(caisse: Caisse) {
  const test = caisse.testHelpers;

  /** A verified test user with `balance` (major units) in `currency`, signed in. */
  async function createUser(opts: { balance: string; currency?: string }): Promise<TestUser> {
    const password = `test-${randomBytes(9).toString('base64url')}`;
    for (let attempt = 0; ; attempt++) {
      const phoneNumber = randomPhone();
      try {
        const user = await test.createUser({ phoneNumber, password, balance: opts.balance, ...(opts.currency ? { currency: opts.currency } : {}) });
        const session = await test.login({ phoneNumber, password });
        return { id: user.id, phoneNumber, password, token: session.token };
      } catch (err) {
        // A random number already taken: draw another.
        if (err instanceof CaisseError && err.code === 'already_exists' && attempt < 5) continue;
        throw err;
      }
    }
  }

  /** Signs the user in again (access tokens live 15 minutes). */
  async function signIn(user: TestUser): Promise<void> {
    user.token = (await test.login({ phoneNumber: user.phoneNumber, password: user.password })).token;
  }

  function createIntent(params: TestIntentParams): Promise<CreatedPaymentIntent> {
    return caisse.intents.create({ currency: 'XAF', ...params });
  }

  /** The newest 6-digit code sent to the user (test outbox). */
  async function latestCode(userId: string): Promise<string> {
    const messages = await test.listMessages({ userId, limit: 1 });
    const code = /\b(\d{6})\b/.exec(messages.data[0]?.body ?? '')?.[1];
    if (code === undefined) throw new Error(`no code in the test outbox for ${userId}`);
    return code;
  }

  /** initOtp (bound to the intent) → code from the outbox → verifyOtp: the authorization token for charge. */
  async function authorize(user: TestUser, intentId: string): Promise<string> {
    await test.initOtp(user.token, { userId: user.id, channel: 'sms', intentionId: intentId });
    const otp = await latestCode(user.id);
    return (await test.verifyOtp(user.token, { userId: user.id, otp })).authorizationToken;
  }

  /**
   * The charge, whatever it answers (200 paid, 402 insufficient_funds, …); rejects only when no
   * answer came (CaisseConnectionError). With `idempotencyKey`, a retry replays the first answer.
   */
  async function charge(user: TestUser, intentId: string, otpToken: string, opts: { idempotencyKey?: string } = {}): Promise<ChargeAnswer> {
    try {
      const intent = await test.charge(user.token, { intentionId: intentId, authorizationToken: otpToken }, opts);
      return { status: intent.lastResponse.status, headers: intent.lastResponse.headers, intent, problem: undefined };
    } catch (err) {
      if (err instanceof CaisseError && err.status !== undefined && err.headers !== undefined) {
        return { status: err.status, headers: err.headers, intent: undefined, problem: err.raw ?? {} };
      }
      throw err;
    }
  }

  function refund(intentId: string, amount?: string): Promise<Refund> {
    return caisse.intents.refund(intentId, amount === undefined ? {} : { amount });
  }

  function cancel(intentId: string): Promise<PaymentIntent> {
    return caisse.intents.cancel(intentId);
  }

  function getIntent(intentId: string): Promise<PaymentIntent> {
    return caisse.intents.retrieve(intentId);
  }

  /** The events of one intent, newest first (searched among the merchant's latest events of that type). */
  async function eventsOf(intentId: string, type: EventType): Promise<{ id: string; type: EventType }[]> {
    const page = await caisse.events.list({ type, limit: 100 });
    return page.data.filter((e) => 'paymentIntent' in e.data && e.data.paymentIntent.id === intentId).map((e) => ({ id: e.id, type: e.type }));
  }

  /**
   * Starts paying the intent directly with `provider` from a new test number ending in `suffix`
   * (the sandbox's table, the same for every provider: `000` approved after about a second, `105`
   * declined), as the payer's browser does with the intent's session token. `numberBase` is one of
   * the provider's test numbers without its last three digits (its description's `testNumbers`).
   */
  function payDirectly(intent: CreatedPaymentIntent, provider: ProviderName, numberBase: string, suffix: string): Promise<ProcessingPaymentIntent> {
    // The provider's own prefix with four new digits each time: the prompts per number are limited.
    const phoneNumber = `${numberBase.slice(0, -4)}${String(randomInt(0, 10_000)).padStart(4, '0')}${suffix}`;
    return test.chargeMobileMoney(intent.sessionToken, { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider, phoneNumber } });
  }

  /** The events of one payout, newest first (among the merchant's latest events of that type). */
  async function eventsOfPayout(payoutId: string, type: EventType): Promise<{ id: string; type: EventType }[]> {
    const page = await caisse.events.list({ type, limit: 100 });
    return page.data.filter((e) => 'payout' in e.data && (e.data.payout as { id: string }).id === payoutId).map((e) => ({ id: e.id, type: e.type }));
  }

  return { createUser, signIn, createIntent, latestCode, authorize, charge, payDirectly, refund, cancel, getIntent, eventsOf, eventsOfPayout };
}

export type TestPayments = ReturnType<typeof testPayments>;
