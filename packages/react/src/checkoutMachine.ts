import type { AuthenticatedUser, OtpChallenge, PasswordResetRequest, PaymentIntentStatus, PublicPaymentIntent, Topup } from '@caisse/browser';

/**
 * The wallet checkout as a state machine: a pure reducer from (state, event) to state, with no
 * request, timer or clock of its own. `useCheckout` runs the requests and dispatches what they
 * answered; the hosted checkout and `<Checkout/>` both drive it through that hook.
 *
 *   loading → ready → logging-in → otp-sent → otp-verified → charging → succeeded
 *                                                                      ↘ failed | expired | canceled | error
 *   ready → reset-phone → reset-code → logging-in → otp-sent …   (forgot password)
 *   logging-in → topup-offer → topup-pending → otp-sent …         (the wallet holds too little)
 *                            ↖ topup-failed ↙   (cancel: back to ready)
 *   logging-in → otp-sent (a code was sent less than a minute ago: it is still good; the wait ticks)
 *
 * A command the current step does not take (a `*.requested`, `*.started`, `*.canceled` event)
 * leaves the state as it was: `checkoutReducer(s, e) === s`, which the hook reads as "ignored".
 */
export type CheckoutStatus =
  | 'loading'
  | 'ready'
  | 'reset-phone'
  | 'reset-code'
  | 'logging-in'
  | 'topup-offer'
  | 'topup-pending'
  | 'topup-failed'
  | 'otp-sent'
  | 'otp-verified'
  | 'charging'
  | 'succeeded'
  | 'failed'
  | 'expired'
  | 'canceled'
  | 'error';

export interface CheckoutError {
  code: string;
  /** The checkout's own English text for `code` (never the API's detail); pages show `code` in the customer's language. */
  message: string;
  /** Tries left for the current code (`otp_incorrect`). */
  attemptsRemaining?: number;
  /** Seconds to wait before asking again (429): counts down once a second. */
  retryAfter?: number;
  requestId?: string;
  /** A failed top-up: the provider's reason (e.g. APPROVAL_REJECTED, TIMEOUT). */
  failureReason?: string;
  /** A failed top-up: the display name of the provider asked. */
  providerName?: string;
  /** The number's operator, when the API named it (`phone_invalid` for another operator's number, `operator_unsupported`). */
  operator?: string;
}

/** A mobile-money provider a top-up can ask (`GET /payment-methods`): its registry name and display name. */
export interface TopUpProvider {
  provider: string;
  name: string;
  /** E.164 prefixes that suggest it from a number. */
  prefixes?: readonly string[];
  /** The least it takes at once (major units): a smaller shortfall is topped up by this much. */
  minAmount?: string;
}

/** The top-up the checkout offers when the wallet holds less than the intent. */
export interface CheckoutTopUp {
  /** What is missing: the intent's amount less the wallet's balance (a decimal string in major units). */
  amount: string;
  currency: string;
  /** The providers that can take it (approval on the phone, available now), in the gateway's order. */
  providers: TopUpProvider[];
  /** The provider to ask: suggested from the number, or the payer's choice. */
  provider: string;
  /** The mobile-money number to ask: the one last typed, else the signed-in customer's. */
  phoneNumber: string;
  /** The top-up under way (`topup-pending`), or the last one tried. */
  topup: Topup | undefined;
}

export interface CheckoutState {
  status: CheckoutStatus;
  intent: PublicPaymentIntent | undefined;
  user: AuthenticatedUser | undefined;
  /** Where the last code went (masked), and when a new one may be asked for. */
  otp: OtpChallenge | undefined;
  error: CheckoutError | undefined;
  /** A request runs that does not change the step (resending or verifying a code). */
  pending: boolean;
  /** After `failed`: the intent still takes a payment, so `retry()` starts a new attempt. */
  canRetry: boolean;
  /** The phone number the customer last typed (sign-in or reset), to fill the next form with. */
  phoneNumber: string | undefined;
  /** Where the password reset code went, once asked for (`reset-code`). */
  reset: PasswordResetRequest | undefined;
  /** The customer set a new password in this checkout (and was then signed in with it). */
  passwordChanged: boolean;
  /** Once the wallet was found short: the top-up offered, under way or done. */
  topUp: CheckoutTopUp | undefined;
  /** When `error.retryAfter` runs out (epoch ms): each `tick` recounts it. */
  retryAt: number | undefined;
}

export type CheckoutEvent =
  /** The intent is (re)read from the start. */
  | { type: 'load.started' }
  /** The intent as read: its status decides the step (`whilePending` while PENDING, unless `status` forces one). */
  | { type: 'intent.read'; intent: PublicPaymentIntent; whilePending: CheckoutStatus; status?: CheckoutStatus; error?: CheckoutError | null }
  | { type: 'intent.unreadable'; error: CheckoutError }
  /** A request failed: stay at `stay` with the error (a session that ended goes back to sign-in). */
  | { type: 'request.failed'; error: CheckoutError; stay: CheckoutStatus; now: number }
  | { type: 'signIn.started'; phoneNumber: string }
  | { type: 'signIn.succeeded'; user: AuthenticatedUser }
  | { type: 'code.sent'; otp: OtpChallenge }
  /** The code was sent moments ago (429 `otp_rate_limited` on sign-in): it is still good, so the code step, with the wait. */
  | { type: 'code.stillValid'; error: CheckoutError; now: number }
  | { type: 'code.resendRequested' }
  | { type: 'code.verifyRequested' }
  | { type: 'code.verified' }
  | { type: 'reset.opened'; phoneNumber?: string }
  | { type: 'reset.requested'; phoneNumber: string }
  | { type: 'reset.sent'; reset: PasswordResetRequest }
  | { type: 'reset.confirmRequested' }
  | { type: 'reset.confirmed' }
  | { type: 'reset.canceled' }
  /** The wallet holds less than the intent: offer the top-up. */
  | { type: 'wallet.short'; topUp: CheckoutTopUp; error?: CheckoutError }
  /** The payer picked the provider to top up from. */
  | { type: 'topUp.providerChosen'; provider: string }
  | { type: 'topUp.requested'; phoneNumber: string; provider: string }
  | { type: 'topUp.pending'; topup: Topup }
  | { type: 'topUp.updated'; topup: Topup }
  | { type: 'topUp.failed'; error: CheckoutError; topup?: Topup }
  | { type: 'topUp.retryRequested' }
  | { type: 'topUp.offeredAgain' }
  | { type: 'topUp.canceled' }
  | { type: 'charge.started' }
  /** The charge's answer: paid, still PROCESSING, or declined (`error` from the intent's lastError). */
  | { type: 'charge.answered'; intent: PublicPaymentIntent; error: CheckoutError }
  /** The payment code was spent or is gone: back to the code step. */
  | { type: 'charge.codeRefused'; error: CheckoutError }
  | { type: 'retry.requested' }
  /** A second passed: recount the wait of a 429. */
  | { type: 'tick'; now: number };

export const INITIAL: CheckoutState = {
  status: 'loading',
  intent: undefined,
  user: undefined,
  otp: undefined,
  error: undefined,
  pending: false,
  canRetry: false,
  phoneNumber: undefined,
  reset: undefined,
  passwordChanged: false,
  topUp: undefined,
  retryAt: undefined,
};

/** The step an intent's final status means. */
export const TERMINAL: Partial<Record<PaymentIntentStatus, CheckoutStatus>> = {
  SUCCEEDED: 'succeeded',
  PARTIALLY_REFUNDED: 'succeeded',
  REFUNDED: 'succeeded',
  FAILED: 'failed',
  EXPIRED: 'expired',
  CANCELED: 'canceled',
};

/** Steps after which nothing more happens on the page until the customer acts (no timer runs). */
export const CLOSED: readonly CheckoutStatus[] = ['succeeded', 'failed', 'expired', 'canceled', 'error', 'loading', 'charging'];

/** "+237 650-00.00 01" → "+237650000001": the separators people type go; the API reads the rest (a national number in the merchant's country). */
export const normalizePhone = (phoneNumber: string) => phoneNumber.replace(/[\s().-]+/g, '');

const decimals = (amount: string) => amount.split('.')[1]?.length ?? 0;
const scaled = (amount: string, scale: number) => {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole + fraction.padEnd(scale, '0'));
};

/**
 * What `held` lacks to pay `needed` (decimal strings in major units, no floats), or undefined
 * when it is enough: `shortfall('5000', '1500')` → `'3500'`, `shortfall('12.50', '10')` → `'2.50'`.
 */
export function shortfall(needed: string, held: string): string | undefined {
  const scale = Math.max(decimals(needed), decimals(held));
  const missing = scaled(needed, scale) - scaled(held, scale);
  if (missing <= 0n) return undefined;
  const digits = missing.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** The larger of two decimal amounts in major units, as written: `atLeast('50', '100')` → `'100'`. */
export function atLeast(amount: string, minimum: string): string {
  const scale = Math.max(decimals(amount), decimals(minimum));
  return scaled(minimum, scale) > scaled(amount, scale) ? minimum : amount;
}

/** An error with its wait: when the wait ends is kept, so `tick` can count it down. */
function withError(error: CheckoutError | undefined, now: number | undefined): Pick<CheckoutState, 'error' | 'retryAt'> {
  const retryAt = error?.retryAfter !== undefined && now !== undefined ? now + error.retryAfter * 1000 : undefined;
  return { error, retryAt };
}

const CLEAR = { error: undefined, retryAt: undefined } as const;

/** The next state; the same object when the event is not taken in this state. */
export function checkoutReducer(s: CheckoutState, e: CheckoutEvent): CheckoutState {
  switch (e.type) {
    case 'load.started':
      return INITIAL;
    case 'intent.read': {
      const status = e.status ?? TERMINAL[e.intent.status] ?? (e.intent.status === 'PROCESSING' ? 'charging' : e.whilePending);
      return {
        ...s,
        intent: e.intent,
        status,
        canRetry: e.intent.status === 'PENDING',
        pending: false,
        ...(e.error === undefined ? {} : { error: e.error ?? undefined, retryAt: undefined }),
      };
    }
    case 'intent.unreadable':
      return { ...s, status: 'error', error: e.error, retryAt: undefined, pending: false };
    case 'request.failed': {
      const ended = e.error.code === 'access_token_invalid' || e.error.code === 'access_token_missing';
      return { ...s, status: ended ? 'ready' : e.stay, ...withError(e.error, e.now), pending: false };
    }
    case 'signIn.started':
      if (s.status !== 'ready' && s.status !== 'reset-code') return s;
      return { ...s, status: 'logging-in', phoneNumber: e.phoneNumber, ...CLEAR, pending: false, topUp: undefined };
    case 'signIn.succeeded':
      return { ...s, user: e.user };
    case 'code.sent':
      return { ...s, status: 'otp-sent', otp: e.otp, ...CLEAR, pending: false };
    case 'code.stillValid':
      return { ...s, status: 'otp-sent', ...withError(e.error, e.now), pending: false };
    case 'code.resendRequested':
      if ((s.status !== 'otp-sent' && s.status !== 'otp-verified') || s.user === undefined || s.pending) return s;
      return { ...s, pending: true, ...CLEAR };
    case 'code.verifyRequested':
      if (s.status !== 'otp-sent' || s.user === undefined || s.pending) return s;
      return { ...s, pending: true, ...CLEAR };
    case 'code.verified':
      return { ...s, status: 'otp-verified', pending: false };
    case 'reset.opened':
      if (s.status !== 'ready') return s;
      return { ...s, status: 'reset-phone', ...CLEAR, reset: undefined, ...(e.phoneNumber ? { phoneNumber: e.phoneNumber } : {}) };
    case 'reset.requested':
      if ((s.status !== 'reset-phone' && s.status !== 'reset-code') || s.pending) return s;
      return { ...s, pending: true, ...CLEAR, phoneNumber: e.phoneNumber };
    case 'reset.sent':
      return { ...s, status: 'reset-code', reset: e.reset, pending: false };
    case 'reset.confirmRequested':
      if (s.status !== 'reset-code' || s.pending || (s.reset?.phoneNumber ?? s.phoneNumber) === undefined) return s;
      return { ...s, pending: true, ...CLEAR };
    case 'reset.confirmed':
      return { ...s, passwordChanged: true, reset: undefined };
    case 'reset.canceled':
      // Not while a request runs: its answer would move the step on behind the customer's back.
      if ((s.status !== 'reset-phone' && s.status !== 'reset-code') || s.pending) return s;
      return { ...s, status: 'ready', ...CLEAR, reset: undefined, pending: false };
    case 'wallet.short':
      return { ...s, status: 'topup-offer', pending: false, ...CLEAR, topUp: e.topUp, ...(e.error ? { error: e.error } : {}) };
    case 'topUp.providerChosen':
      if (s.status !== 'topup-offer' || s.topUp === undefined || s.pending || s.topUp.provider === e.provider) return s;
      if (!s.topUp.providers.some((p) => p.provider === e.provider)) return s;
      return { ...s, topUp: { ...s.topUp, provider: e.provider } };
    case 'topUp.requested':
      if (s.status !== 'topup-offer' || s.topUp === undefined || s.pending) return s;
      if (!s.topUp.providers.some((p) => p.provider === e.provider)) return s;
      return { ...s, pending: true, ...CLEAR, topUp: { ...s.topUp, phoneNumber: e.phoneNumber, provider: e.provider } };
    case 'topUp.pending':
      return s.topUp ? { ...s, status: 'topup-pending', pending: false, topUp: { ...s.topUp, topup: e.topup } } : s;
    case 'topUp.updated':
      return s.topUp ? { ...s, topUp: { ...s.topUp, topup: e.topup } } : s;
    case 'topUp.failed':
      return {
        ...s,
        status: 'topup-failed',
        pending: false,
        error: e.error,
        retryAt: undefined,
        ...(e.topup && s.topUp ? { topUp: { ...s.topUp, topup: e.topup } } : {}),
      };
    case 'topUp.retryRequested':
      if (s.status !== 'topup-failed' || s.user === undefined || s.pending) return s;
      return { ...s, pending: true, ...CLEAR };
    case 'topUp.offeredAgain':
      return { ...s, status: 'topup-offer', pending: false };
    case 'topUp.canceled':
      if ((s.status !== 'topup-offer' && s.status !== 'topup-failed') || s.pending) return s;
      return { ...s, status: 'ready', user: undefined, otp: undefined, topUp: undefined, ...CLEAR, pending: false };
    case 'charge.started':
      if (s.status !== 'otp-verified' || s.intent === undefined) return s;
      return { ...s, status: 'charging', ...CLEAR };
    case 'charge.answered': {
      if (TERMINAL[e.intent.status] === 'succeeded') return { ...s, status: 'succeeded', intent: e.intent, canRetry: false };
      if (e.intent.status === 'PROCESSING') return { ...s, status: 'charging', intent: e.intent };
      return { ...s, status: 'failed', intent: e.intent, canRetry: e.intent.status === 'PENDING', error: e.error, retryAt: undefined };
    }
    case 'charge.codeRefused':
      return { ...s, status: 'otp-sent', error: e.error, retryAt: undefined };
    case 'retry.requested':
      if (s.status === 'error' && s.intent === undefined) return { ...s, status: 'loading', ...CLEAR };
      if (s.status !== 'failed' && s.status !== 'error') return s;
      if (s.status === 'failed' && !s.canRetry) return s;
      return { ...s, pending: true, ...CLEAR };
    case 'tick': {
      if (s.retryAt === undefined || s.error?.retryAfter === undefined) return s;
      const left = Math.max(0, Math.ceil((s.retryAt - e.now) / 1000));
      if (left === s.error.retryAfter) return s;
      if (left > 0) return { ...s, error: { ...s.error, retryAfter: left } };
      // The wait is over: a "code sent a moment ago" says nothing more; other errors keep their text.
      const { retryAfter: _over, ...error } = s.error;
      return { ...s, retryAt: undefined, error: s.error.code === 'otp_rate_limited' ? undefined : error };
    }
  }
}

/** The provider whose longest prefix starts the number ("+237 670…", "670…": with or without the country code). */
export function suggestProvider(phoneNumber: string, methods: readonly { provider: string; prefixes?: readonly string[] | null }[]): string | undefined {
  const digits = phoneNumber.replace(/^00/, '').replace(/\D/g, '');
  // Typed as payers write it in their country ("01 45 11 22 33" in Benin): no country code.
  const national = !/^\s*(\+|00)/.test(phoneNumber);
  let best: { provider: string; length: number } | undefined;
  for (const method of methods) {
    for (const raw of method.prefixes ?? []) {
      const prefix = raw.replace(/\D/g, '');
      // National prefixes ("67") also match after a 3-digit country code (+237, +221, +225), and
      // E.164 ones ("+2290145") a number typed without it (every country served has 3 digits).
      const matches =
        prefix !== '' &&
        (digits.startsWith(prefix) ||
          (!raw.startsWith('+') && digits.length > 3 && digits.slice(3).startsWith(prefix)) ||
          (raw.startsWith('+') && national && prefix.length > 3 && digits.startsWith(prefix.slice(3))));
      if (matches && (best === undefined || prefix.length > best.length)) best = { provider: method.provider, length: prefix.length };
    }
  }
  return best?.provider;
}

/**
 * The operator to show once the payer typed a number: the one the payer picked, or the one shown
 * while it serves the number (Wave takes any Senegalese number, whatever its prefix), else the
 * one the number suggests. Undefined: leave it as it is.
 */
export function providerAfterNumber(
  phoneNumber: string,
  methods: readonly { provider: string; prefixes?: readonly string[] | null }[],
  shown: string | undefined,
  chosen: boolean,
): string | undefined {
  if (chosen) return undefined;
  const current = methods.find((m) => m.provider === shown);
  // A wallet without prefixes (Wave) takes any number of its countries.
  if (current && (current.prefixes ?? []).length === 0) return undefined;
  if (current && suggestProvider(phoneNumber, [current]) !== undefined) return undefined;
  return suggestProvider(phoneNumber, methods);
}
