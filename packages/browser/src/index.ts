/**
 * @caisse/browser: the customer's side of a Caisse payment, in the browser.
 *
 * The flow is: retrieve the intent by its session token, sign the customer in (phone number and
 * password), send a one-time code (initOtp), verify it (verifyOtp), charge. A customer who forgot
 * their password gets a code by SMS (requestPasswordReset) and sets a new one with it
 * (confirmPasswordReset); a signed-in customer changes it with changePassword. A signed-in customer
 * reads their wallet (wallet) and tops it up by mobile money (topUp, then getTopup until it is
 * SUCCEEDED or FAILED). A payer without an account pays from their mobile-money account directly:
 * getPaymentMethods, payWithMobileMoney (approve on the phone), waitForPayment. The user's access
 * token and the single-use OTP authorization token are kept in private fields of the client, in
 * memory only: never in localStorage, sessionStorage, cookies or anything the page can read,
 * and neither is ever returned to the caller.
 */
import { API_VERSION, CaisseError, errorInit, type JsonAnswer, type JsonBody, type paths, retryAfterSeconds } from '@caisse/api-types';

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

export { API_VERSION };
/**
 * Any failure: `code` is the API's error code (or `connection_error`), with `status`,
 * `requestId`, `param`, `retryAfter` and the problem body as `raw`. The same class as
 * @caisse/node's CaisseError (@caisse/api-types).
 */
export { CaisseError };
export type { CaisseErrorInit, ProblemBody } from '@caisse/api-types';

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

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function baseUrlOf(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new TypeError(
      'baseUrl is required: the address of your Caisse gateway, e.g. new CaisseClient({ apiKey, baseUrl: "https://pay.example.com" }) (there is no default host)',
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`baseUrl is not a URL: "${raw}"`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname))) {
    throw new TypeError('The gateway must be reached over https (plain http only on localhost)');
  }
  return url.href.replace(/\/+$/, '');
}

/** A random Idempotency-Key (128 bits, hex). */
const newKey = (): string => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One wait for an intent's payment and the callers sharing it. */
interface SharedWait {
  promise: Promise<PayerIntent>;
  listeners: Set<(intent: PayerIntent) => void>;
  callers: number;
  abort: AbortController;
}

/** `promise`'s outcome, or the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', stop);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(err);
      },
    );
  });
}

export class CaisseClient {
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #fetch: typeof fetch;
  readonly #maxRetries: number;
  #accessToken: string | undefined;
  #userId: string | undefined;
  readonly #waits = new Map<string, SharedWait>();
  #otpToken: string | undefined;

  constructor(options: CaisseClientOptions) {
    if (typeof options?.apiKey !== 'string' || !/^pk_(test|live)_/.test(options.apiKey)) {
      throw new TypeError('apiKey must be a publishable key (pk_test_… or pk_live_…); a secret key never belongs in a browser');
    }
    this.#apiKey = options.apiKey;
    this.#baseUrl = baseUrlOf(options.baseUrl);
    this.#fetch = options.fetch ?? fetch.bind(globalThis);
    this.#maxRetries = options.maxRetries ?? 2;
  }

  /** The signed-in user's id, or undefined. */
  get userId(): string | undefined {
    return this.#userId;
  }

  /** Whether verifyOtp left an authorization for the next charge. */
  get hasOtpAuthorization(): boolean {
    return this.#otpToken !== undefined;
  }

  /** The intent the merchant created, looked up by its session token (the React "client secret"). */
  retrieveIntent(sessionToken: string): Promise<PublicPaymentIntent> {
    return this.#request('GET', `/gateway/sessions/${encodeURIComponent(sessionToken)}`);
  }

  /** What this intent may be paid with (`GET /payment-methods`), mobile money first. */
  async getPaymentMethods(sessionToken: string): Promise<PaymentMethod[]> {
    const { data } = await this.#request<JsonAnswer<paths['/payment-methods']['get'], 200>>(
      'GET',
      `/payment-methods?sessionToken=${encodeURIComponent(sessionToken)}`,
    );
    return data;
  }

  /**
   * Pays the intent from the payer's mobile-money account (`POST /charge` with the session
   * token; the operator's PIN is the authentication). Answers 202 at once: the intent PROCESSING
   * with `nextAction` (approve on the phone, or go to `nextAction.url`); then `waitForPayment`.
   */
  payWithMobileMoney({ sessionToken, intentionId, provider, phoneNumber, preAuthorisationCode, idempotencyKey }: MobileMoneyPayment): Promise<PayerIntent> {
    const headers: Record<string, string> = { 'x-session-token': sessionToken };
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    const paymentMethod = { type: 'mobile_money', provider, phoneNumber, ...(preAuthorisationCode !== undefined ? { preAuthorisationCode } : {}) };
    return this.#request('POST', '/charge', { intentionId, paymentMethod }, headers);
  }

  /**
   * Pays by card: the card holder's details go to Caisse, and the answer's `nextAction` is a
   * `redirect` to the card provider's page, where the payer types the card (never sent here).
   */
  payWithCard({ sessionToken, intentionId, cardholder, idempotencyKey }: CardPayment): Promise<PayerIntent> {
    const headers: Record<string, string> = { 'x-session-token': sessionToken };
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    return this.#request('POST', '/charge', { intentionId, paymentMethod: { type: 'card', cardholder } }, headers);
  }

  /**
   * Waits until the intent is no longer PROCESSING and answers that intent: SUCCEEDED, PENDING
   * again (the attempt failed: `attempts`, `lastError`; the payer may retry) or a final state.
   * Each read is a long-poll: the server holds it until the intent changes (at most `waitSeconds`),
   * so a payer approving on the phone costs one request, answered the moment the payment settles.
   * A server that does not hold reads (an older one, or one holding as many as it may) is read
   * again after a delay instead (backoff from `intervalMs` to `maxIntervalMs`, or its Retry-After).
   * A lost answer or a 5xx is read again after the delay; other errors reject.
   */
  async waitForPayment(sessionToken: string, options: WaitOptions = {}): Promise<PayerIntent> {
    const { signal, onUpdate } = options;
    signal?.throwIfAborted();
    // Callers waiting on one intent at once (a checkout's payment and mobile-money steps) share
    // one wait, so the payer holds one request: its reads go to every caller; it stops once the
    // last caller stopped. The first caller's timing options run it.
    let shared = this.#waits.get(sessionToken);
    if (shared === undefined) {
      const abort = new AbortController();
      const listeners = new Set<(intent: PayerIntent) => void>();
      const running = this.#wait(sessionToken, {
        ...options,
        signal: abort.signal,
        onUpdate: (intent) => {
          for (const listener of listeners) listener(intent);
        },
      });
      const entry: SharedWait = { promise: running, listeners, callers: 0, abort };
      const forget = () => {
        if (this.#waits.get(sessionToken) === entry) this.#waits.delete(sessionToken);
      };
      running.then(forget, forget);
      this.#waits.set(sessionToken, entry);
      shared = entry;
    }
    const entry = shared;
    entry.callers += 1;
    if (onUpdate !== undefined) entry.listeners.add(onUpdate);
    try {
      return await untilAborted(entry.promise, signal);
    } finally {
      if (onUpdate !== undefined) entry.listeners.delete(onUpdate);
      entry.callers -= 1;
      if (entry.callers === 0) {
        if (this.#waits.get(sessionToken) === entry) this.#waits.delete(sessionToken);
        entry.abort.abort(signal?.reason);
      }
    }
  }

  async #wait(
    sessionToken: string,
    { signal, onUpdate, intervalMs = 1000, maxIntervalMs = 5000, timers = globalThis, waitSeconds = 25 }: WaitOptions,
  ): Promise<PayerIntent> {
    const path = `/gateway/sessions/${encodeURIComponent(sessionToken)}`;
    // Until a server shows it does not hold reads; 0 turns the long-poll off.
    let longPoll = waitSeconds > 0;
    let delay = intervalMs;
    for (;;) {
      signal?.throwIfAborted();
      let pause = delay;
      try {
        let held: string | null = null;
        let retryAfter: number | undefined;
        const query = longPoll ? `?status=PROCESSING&wait=${Math.min(Math.floor(waitSeconds), 25)}` : '';
        const intent = await this.#request<PayerIntent>('GET', path + query, undefined, {}, 0, {
          signal,
          onHeaders: (headers) => {
            held = headers.get('caisse-wait');
            retryAfter = retryAfterSeconds(headers);
          },
        });
        onUpdate?.(intent);
        if (intent.status !== 'PROCESSING') return intent;
        if (longPoll && held === 'held') pause = 0;
        else if (longPoll && held === 'busy') pause = Math.max(delay, (retryAfter ?? 0) * 1000);
        // Answered at once without a word about the wait: a server that does not hold reads.
        else longPoll = false;
      } catch (err) {
        signal?.throwIfAborted();
        const s = (err as CaisseError).status;
        // A server that refuses the wait's parameters: read as before, at once.
        if (longPoll && s === 400) {
          longPoll = false;
          continue;
        }
        if (s !== undefined && s < 500 && s !== 429) throw err;
      }
      if (pause === 0) {
        delay = intervalMs;
        continue;
      }
      delay = Math.min(delay * 1.5, maxIntervalMs);
      await new Promise<void>((resolve, reject) => {
        const stop = () => {
          timers.clearTimeout(handle);
          reject(signal?.reason);
        };
        const handle = timers.setTimeout(() => {
          signal?.removeEventListener('abort', stop);
          resolve();
        }, pause);
        signal?.addEventListener('abort', stop, { once: true });
      });
    }
  }

  /** Signs the customer in. The access token is kept in memory for the calls made for this user. */
  async login(phoneNumber: string, password: string): Promise<AuthenticatedUser> {
    this.logout();
    const { token, ...user } = await this.#request<JsonAnswer<paths['/auth/web']['post'], 200>>('POST', '/auth/web', { phoneNumber, password });
    this.#accessToken = token;
    this.#userId = user.id;
    return user;
  }

  /**
   * Sends a one-time code to the user (`channel` sms by default; call again to resend: the
   * previous code stops working). With `intentionId` the authorization is bound to that intent.
   */
  initOtp(params: Omit<InitOtpParams, 'channel'> & { channel?: OtpChannel }): Promise<OtpChallenge> {
    return this.#request('POST', '/otp/init', { channel: 'sms', ...params }, this.#userHeaders());
  }

  /** Checks the code; the authorization it gives is kept in memory for the next charge only. */
  async verifyOtp(params: VerifyOtpParams): Promise<OtpAuthorization> {
    this.#otpToken = undefined;
    const { authorizationToken, ...rest } = await this.#request<JsonAnswer<paths['/otp/verify']['post'], 200>>(
      'POST',
      '/otp/verify',
      params,
      this.#userHeaders(),
    );
    this.#otpToken = authorizationToken;
    return rest;
  }

  /**
   * Pays the intent from the user's wallet with the authorization of the last verifyOtp, which
   * is then forgotten whatever the outcome (it is single use). The merchant fulfils the order on
   * the `payment.completed` webhook, not on this answer.
   */
  async charge(intentionId: string): Promise<PublicPaymentIntent> {
    const otpToken = this.#otpToken;
    if (otpToken === undefined) throw new CaisseError({ code: 'otp_token_missing', message: 'Verify a one-time code before charging' });
    try {
      return await this.#request('POST', '/charge', { intentionId }, { ...this.#userHeaders(), 'x-otp-token': otpToken });
    } finally {
      this.#otpToken = undefined;
    }
  }

  /**
   * Sends a 6-digit password reset code by SMS to the customer with this number (as written, read in the merchant's country, or with
   * its country code). The
   * answer is the same for a number without an account, to which nothing is sent.
   */
  requestPasswordReset(phoneNumber: string): Promise<PasswordResetRequest> {
    return this.#request('POST', '/auth/password-reset', { phoneNumber });
  }

  /**
   * Sets a new password with the code of requestPasswordReset. Every access token issued before
   * is refused from then on, so the client forgets the one it holds: sign in with the new one.
   */
  async confirmPasswordReset(params: ConfirmPasswordResetParams): Promise<void> {
    await this.#request('POST', '/auth/password-reset/confirm', params);
    this.logout();
  }

  /**
   * Changes the signed-in customer's password. Every access token issued before, the client's
   * own included, is refused from then on: the client forgets it, so sign in again to go on.
   */
  async changePassword(currentPassword: string, newPassword: string): Promise<void> {
    await this.#request('POST', '/users/me/password', { currentPassword, newPassword }, this.#userHeaders());
    this.logout();
  }

  /** The signed-in customer's wallet (`GET /wallet`): `balances` per currency, latest `movements`. */
  wallet(): Promise<Wallet> {
    return this.#request('GET', '/wallet', undefined, this.#userHeaders());
  }

  /**
   * Tops the signed-in customer's wallet up by mobile money (`POST /wallet/topups`): the answer is
   * the top-up, PENDING, at once; the payer approves on their phone, then `getTopup(id)` says
   * SUCCEEDED (the wallet is credited) or FAILED (`failureReason`, e.g. APPROVAL_REJECTED). The
   * Idempotency-Key (given, or generated) is reused across retries: the payer is asked once.
   */
  topUp(params: TopUpParams, options: RequestOptions = {}): Promise<Topup> {
    const headers = this.#userHeaders();
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    return this.#request('POST', '/wallet/topups', params, headers);
  }

  /** A top-up of the signed-in customer (`GET /wallet/topups/{id}`). */
  getTopup(id: string): Promise<Topup> {
    return this.#request('GET', `/wallet/topups/${encodeURIComponent(id)}`, undefined, this.#userHeaders());
  }

  /** Forgets the access token and any OTP authorization. */
  logout(): void {
    this.#accessToken = this.#userId = this.#otpToken = undefined;
  }

  #userHeaders(): Record<string, string> {
    if (this.#accessToken === undefined) throw new CaisseError({ code: 'access_token_missing', message: 'Sign the customer in (login) first' });
    return { authorization: `Bearer ${this.#accessToken}` };
  }

  async #request<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
    maxRetries = this.#maxRetries,
    /** `onHeaders`: the headers of a successful answer; `signal`: abandons the request (a held read). */
    { onHeaders, signal }: { onHeaders?: (headers: Headers) => void; signal?: AbortSignal } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { 'x-api-key': this.#apiKey, 'pay-version': API_VERSION, ...extra };
    if (method === 'POST') {
      headers['content-type'] = 'application/json';
      // One key for every attempt: a retried charge can never pay twice.
      headers['idempotency-key'] ??= newKey();
    }
    for (let attempt = 0; ; attempt++) {
      let error: CaisseError;
      try {
        // credentials: 'omit' — the API needs no cookie, and none is ever sent or stored.
        const response = await this.#fetch(this.#baseUrl + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          credentials: 'omit',
          ...(signal && { signal }),
        });
        // 204: done, nothing to read (a password set or changed).
        if (response.status === 204) return undefined as T;
        const data = await response.json().catch(() => undefined);
        if (response.ok && data && typeof data === 'object') {
          onHeaders?.(response.headers);
          return data as T;
        }
        error = new CaisseError({ ...errorInit(response.status, response.headers, data), idempotencyKey: headers['idempotency-key'] });
      } catch (err) {
        error = new CaisseError({ code: 'connection_error', message: `Could not reach Caisse: ${(err as Error)?.message ?? err}`, cause: err });
      }
      const s = error.status;
      const retryable = s === undefined || s >= 500 || (s === 429 && (error.retryAfter ?? 0) <= 10);
      if (attempt >= maxRetries || !retryable) throw error;
      await wait(Math.max((error.retryAfter ?? 0) * 1000, 300 * 2 ** attempt));
    }
  }
}
