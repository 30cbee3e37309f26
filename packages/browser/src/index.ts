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
import { API_VERSION, CaisseError, type JsonAnswer, type paths } from '@caisse/api-types';
import { type Send, transport } from './http.ts';
import type {
  AuthenticatedUser,
  CaisseClientOptions,
  CardPayment,
  ConfirmPasswordResetParams,
  InitOtpParams,
  MobileMoneyPayment,
  OtpAuthorization,
  OtpChallenge,
  OtpChannel,
  PasswordResetRequest,
  PayerIntent,
  PaymentMethod,
  PublicPaymentIntent,
  RequestOptions,
  Topup,
  TopUpParams,
  VerifyOtpParams,
  WaitOptions,
  Wallet,
} from './types.ts';
import { paymentWaits } from './wait.ts';

export type {
  AuthenticatedUser,
  CaisseClientOptions,
  Cardholder,
  CardMethod,
  CardPayment,
  ConfirmPasswordResetParams,
  InitOtpParams,
  MobileMoneyMethod,
  MobileMoneyPayment,
  NextAction,
  OtpAuthorization,
  OtpChallenge,
  OtpChannel,
  PasswordResetRequest,
  PayerIntent,
  PaymentAttempt,
  PaymentIntentStatus,
  PaymentMethod,
  PublicPaymentIntent,
  RequestOptions,
  Timers,
  Topup,
  TopUpParams,
  TopupStatus,
  VerifyOtpParams,
  WaitOptions,
  Wallet,
} from './types.ts';

export { API_VERSION };
/**
 * Any failure: `code` is the API's error code (or `connection_error`), with `status`,
 * `requestId`, `param`, `retryAfter` and the problem body as `raw`. The same class as
 * @caisse/node's CaisseError (@caisse/api-types).
 */
export { CaisseError };
export type { CaisseErrorInit, ProblemBody } from '@caisse/api-types';

export class CaisseClient {
  readonly #request: Send;
  readonly #waitForPayment: ReturnType<typeof paymentWaits>;
  #accessToken: string | undefined;
  #userId: string | undefined;
  #otpToken: string | undefined;

  constructor(options: CaisseClientOptions) {
    if (typeof options?.apiKey !== 'string' || !/^pk_(test|live)_/.test(options.apiKey)) {
      throw new TypeError('apiKey must be a publishable key (pk_test_… or pk_live_…); a secret key never belongs in a browser');
    }
    this.#request = transport(options);
    this.#waitForPayment = paymentWaits(this.#request);
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
  waitForPayment(sessionToken: string, options: WaitOptions = {}): Promise<PayerIntent> {
    return this.#waitForPayment(sessionToken, options);
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
}
