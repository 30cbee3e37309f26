// The types of the browser client's calls: the API's shapes (from @caisse/api-types' OpenAPI
// types) as the payer's browser sees them, and the client's own options.
import type { JsonAnswer, JsonBody, paths } from '@caisse/api-types';

/** A payment intent as the browser sees it (no metadata, no session token). */
export type PublicPaymentIntent = JsonAnswer<paths['/gateway/sessions/{sessionToken}']['get'], 200>;
export type PaymentIntentStatus = PublicPaymentIntent['status'];
/** The signed-in customer. The access token itself stays inside the client. */
export type AuthenticatedUser = Omit<JsonAnswer<paths['/auth/web']['post'], 200>, 'token'>;
export type InitOtpParams = JsonBody<paths['/otp/init']['post']>;
export type OtpChallenge = JsonAnswer<paths['/otp/init']['post'], 200>;
export type VerifyOtpParams = JsonBody<paths['/otp/verify']['post']>;
/** The verification's outcome. The authorization token itself stays inside the client. */
export type OtpAuthorization = Omit<JsonAnswer<paths['/otp/verify']['post'], 200>, 'authorizationToken'>;
export type OtpChannel = InitOtpParams['channel'];
/** Where the password reset code went (the number itself, as sent): the same answer for any number. */
export type PasswordResetRequest = JsonAnswer<paths['/auth/password-reset']['post'], 202>;
export type ConfirmPasswordResetParams = JsonBody<paths['/auth/password-reset/confirm']['post']>;
/** The signed-in customer's wallet: a balance per currency and the latest movements. */
export type Wallet = JsonAnswer<paths['/wallet']['get'], 200>;
/** `{ amount, currency, provider: 'mtn_momo', phoneNumber }`: the mobile-money account asked for the amount. */
export type TopUpParams = JsonBody<paths['/wallet/topups']['post']>;
/** A wallet top-up: PENDING until the provider says, then SUCCEEDED (credited once) or FAILED (`failureReason`). */
export type Topup = JsonAnswer<paths['/wallet/topups/{id}']['get'], 200>;
export type TopupStatus = Topup['status'];
/*
 * Direct mobile-money payments (docs/spec/mobile-money-payments.md). The methods come from the server's OpenAPI
 * document; the charge's next action and attempts are written from the specification until
 * it describes them.
 */
/** A way to pay an intent (`getPaymentMethods`): the Caisse wallet, or a mobile-money provider. */
export type PaymentMethod = JsonAnswer<paths['/payment-methods']['get'], 200>['data'][number];
/**
 * A mobile-money provider: `approval` `phone_prompt` (the payer approves on their phone) or
 * `redirect` (on the provider's page); `available` false while it is down (shown greyed, a
 * charge answers 503 `provider_unavailable`); `prefixes` (E.164) suggest it from a number;
 * `ussd` is what to dial when the request does not appear.
 */
export type MobileMoneyMethod = Extract<PaymentMethod, { type: 'mobile_money' }>;
/**
 * Paying by card (docs/spec/card-payments.md): always `redirect`, the card typed on the provider's
 * page; `name` the brands it takes; `available` false while no card route answers.
 */
export type CardMethod = Extract<PaymentMethod, { type: 'card' }>;
/** The card holder's details a card payment requires (`payWithCard`); never the card itself. */
export type Cardholder = Extract<NonNullable<JsonBody<paths['/charge']['post']>['paymentMethod']>, { type: 'card' }>['cardholder'];
/** What the payer does next after a mobile-money charge (`payWithMobileMoney`). */
export type NextAction =
  | { type: 'approve_on_phone'; provider: string; phoneNumber: string; expiresAt: string; message: string; ussd?: string | null }
  | { type: 'redirect'; url: string };
/** One try at paying the intent with a method. */
export interface PaymentAttempt {
  id: string;
  provider: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  failureCode?: string | null;
  createdAt: string;
}
/** The intent as the payer sees it, with the direct-payment fields of docs/spec/mobile-money-payments.md when the server sends them. */
export type PayerIntent = Omit<PublicPaymentIntent, 'attempts'> & {
  /** The tries so far: a list (docs/spec/mobile-money-payments.md), a count on older servers. */
  attempts: PaymentAttempt[] | number;
  nextAction?: NextAction | null;
  paymentMethod?: { type: string; provider?: string; phoneNumber?: string } | null;
  returnUrl?: string | null;
};
export interface MobileMoneyPayment {
  sessionToken: string;
  intentionId: string;
  provider: string;
  /**
   * As the payer wrote it (`670000001`, read in the merchant's country) or with its country code
   * (`+237670000001`); the API answers it in E.164.
   */
  phoneNumber: string;
  /**
   * The one-time code the payer made with their operator, for a method whose `approval` is
   * `pre_authorisation_code` (its `preAuthorisationUssd` says what to dial); left out otherwise.
   */
  preAuthorisationCode?: string;
  /** Reuse it to send the same request again without asking the payer twice. */
  idempotencyKey?: string;
}
export interface CardPayment {
  sessionToken: string;
  intentionId: string;
  cardholder: Cardholder;
  /** Reuse it to send the same request again without asking the payer twice. */
  idempotencyKey?: string;
}
/** The timers `waitForPayment` uses; tests pass fake ones. */
export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
export interface WaitOptions {
  /** Stops waiting: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Each read of the intent, the last one included. */
  onUpdate?: (intent: PayerIntent) => void;
  /** First delay between reads, then ×1.5 up to `maxIntervalMs` (defaults 1 000 and 5 000). */
  intervalMs?: number;
  maxIntervalMs?: number;
  /** How long the server may hold each read (seconds, at most 25; default 25); 0: plain reads only. */
  waitSeconds?: number;
  timers?: Timers;
}
/** Per-call options of a POST. */
export interface RequestOptions {
  /** Sent as Idempotency-Key (one is generated when left out); reused across the client's retries. */
  idempotencyKey?: string;
}

export interface CaisseClientOptions {
  /** The publishable API key (`pk_test_…` / `pk_live_…`). Never a secret key. */
  apiKey: string;
  /**
   * Your Caisse gateway's base URL, e.g. `https://pay.example.com` (https; plain http only on
   * localhost). Required: Caisse is self-hosted, there is no default host.
   */
  baseUrl: string;
  /** Retries of a request that got no answer, a 5xx or a short 429 (default 2). */
  maxRetries?: number;
  fetch?: typeof fetch;
}
