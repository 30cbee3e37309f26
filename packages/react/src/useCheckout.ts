import {
  type AuthenticatedUser,
  CaisseError,
  type OtpChallenge,
  type OtpChannel,
  type PasswordResetRequest,
  type PaymentIntentStatus,
  type PublicPaymentIntent,
  type Topup,
} from '@caisse/browser';
import { useCallback, useEffect, useRef, useState } from 'react';
import { CUSTOMER_MESSAGES } from './i18n.tsx';
import { useCaisse } from './provider.tsx';

/**
 * The steps of a checkout:
 *
 *   loading → ready → logging-in → otp-sent → otp-verified → charging → succeeded
 *                                                                      ↘ failed | expired | canceled | error
 *   ready → reset-phone → reset-code → logging-in → otp-sent …   (forgot password)
 *   logging-in → topup-offer → topup-pending → otp-sent …         (the wallet holds too little)
 *                            ↖ topup-failed ↙   (cancel: back to ready)
 *
 * `loading` reads the intent; an intent already paid, expired or canceled goes straight to
 * `succeeded`, `expired` or `canceled`. A wrong password or code keeps the step and sets
 * `error`. `failed` is a declined charge (`canRetry` when the intent still takes attempts);
 * `error` is a failure to reach the gateway or an unexpected answer.
 *
 * Forgot password: `reset-phone` asks for the number (prefilled with the one typed at sign-in),
 * `reset-code` for the code sent by SMS and a new password; once it is set the customer is signed
 * in with it and the payment goes on. The account is the customer's at every shop using Caisse.
 *
 * Short wallet: after sign-in (before the payment code is sent) the customer's wallet is read;
 * when it holds less than the intent — or when a charge answers 402 `insufficient_funds` and the
 * intent still takes attempts — `topup-offer` proposes to top up the missing amount by mobile
 * money (`topUp`). `startTopUp` asks the payer's account for it (`topup-pending` while they
 * approve on their phone, read again every second, for at most two minutes); once SUCCEEDED the
 * payment code is sent as usual. FAILED (or no answer in time) is `topup-failed`, with the
 * reason in `error`: `retryTopUp` offers it again, `cancelTopUp` goes back to sign-in.
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
  message: string;
  /** Tries left for the current code (`otp_incorrect`). */
  attemptsRemaining?: number;
  /** Seconds to wait before asking again (429). */
  retryAfter?: number;
  requestId?: string;
  /** A failed top-up: the provider's reason (e.g. APPROVAL_REJECTED, TIMEOUT). */
  failureReason?: string;
}

/** The top-up the checkout offers when the wallet holds less than the intent. */
export interface CheckoutTopUp {
  /** What is missing: the intent's amount less the wallet's balance (a decimal string in major units). */
  amount: string;
  currency: string;
  provider: 'mtn_momo';
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
}

export interface Checkout extends CheckoutState {
  /** Signs the customer in, then sends the code by SMS (or `channel`). From `ready`. */
  login(phoneNumber: string, password: string, channel?: OtpChannel): Promise<void>;
  /** Sends a new code (the previous one stops working). From `otp-sent` or `otp-verified`. */
  resendCode(channel?: OtpChannel): Promise<void>;
  /** Checks the code the customer typed. From `otp-sent`. */
  verifyCode(otp: string): Promise<void>;
  /** Charges the intent with the verified code. From `otp-verified`. */
  pay(): Promise<void>;
  /** After `failed` (when `canRetry`) or `error`: start again from where it makes sense. */
  retry(): Promise<void>;
  /** "Forgot password?": from `ready` to `reset-phone`, keeping `phoneNumber` (what the sign-in form holds) to prefill. */
  forgotPassword(phoneNumber?: string): void;
  /** Sends a reset code by SMS: from `reset-phone` (then `reset-code`), or again from `reset-code`. */
  requestPasswordReset(phoneNumber?: string): Promise<void>;
  /**
   * Sets the new password with the code, then signs the customer in with it and sends the
   * payment code by SMS (or `channel`): from `reset-code` to `otp-sent`. A wrong code or a weak
   * password keeps `reset-code` and sets `error`.
   */
  confirmPasswordReset(code: string, newPassword: string, channel?: OtpChannel): Promise<void>;
  /** Back to sign-in from `reset-phone` or `reset-code` (not while a request runs). */
  cancelPasswordReset(): void;
  /**
   * Tops the wallet up by the missing amount from `phoneNumber`'s mobile-money account (default:
   * `topUp.phoneNumber`), waits for the payer's approval, then sends the payment code. From `topup-offer`.
   */
  startTopUp(phoneNumber?: string): Promise<void>;
  /** After `topup-failed`: reads the wallet again and offers the top-up again (or goes on if the money arrived). */
  retryTopUp(): Promise<void>;
  /** From `topup-offer` or `topup-failed`: signs the customer out, back to `ready`. */
  cancelTopUp(): void;
}

/** How often a pending top-up is read again, and how long the checkout waits for the payer's approval. */
export const TOPUP_POLL_INTERVAL_MS = 1000;
export const TOPUP_WAIT_MS = 2 * 60_000;

const TERMINAL: Partial<Record<PaymentIntentStatus, CheckoutStatus>> = {
  SUCCEEDED: 'succeeded',
  PARTIALLY_REFUNDED: 'succeeded',
  REFUNDED: 'succeeded',
  FAILED: 'failed',
  EXPIRED: 'expired',
  CANCELED: 'canceled',
};

function toError(err: unknown): CheckoutError {
  if (err instanceof CaisseError) {
    const attempts = err.raw?.attemptsRemaining;
    return {
      code: err.code,
      message: CUSTOMER_MESSAGES[err.code] ?? err.message,
      ...(typeof attempts === 'number' ? { attemptsRemaining: attempts } : {}),
      ...(err.retryAfter !== undefined ? { retryAfter: err.retryAfter } : {}),
      ...(err.requestId !== undefined ? { requestId: err.requestId } : {}),
    };
  }
  return { code: 'unexpected_error', message: err instanceof Error ? err.message : String(err) };
}

const INITIAL: CheckoutState = {
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
};

/** "+237 650-00.00 01" → "+237650000001": people type spaces and dashes, the API wants E.164. */
const normalizePhone = (phoneNumber: string) => phoneNumber.replace(/[\s().-]+/g, '');

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

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Drives the payment of the provider's intent, one step at a time. */
export function useCheckout(): Checkout {
  const { client, clientSecret } = useCaisse();
  const [state, setState] = useState<CheckoutState>(INITIAL);
  // The latest state, for the actions to read between renders; every change goes through update.
  const current = useRef(state);
  // Answers that arrive after the intent changed or the component left are dropped.
  const generation = useRef(0);
  // The channel the customer chose for the payment code, for the code sent after a top-up.
  const codeChannel = useRef<OtpChannel | undefined>(undefined);
  // Each top-up's wait has its number: a wait that is no longer the latest stops.
  const topUpRun = useRef(0);

  const update = useCallback((gen: number, patch: Partial<CheckoutState>) => {
    if (gen !== generation.current) return;
    const next = { ...current.current, ...patch };
    current.current = next;
    setState(next);
  }, []);

  /** Reads the intent and moves to the step its status implies (`fallback` while PENDING). */
  const settle = useCallback(
    async (gen: number, fallback: CheckoutStatus, extra: Partial<CheckoutState> = {}) => {
      try {
        const intent = await client.retrieveIntent(clientSecret);
        const terminal = TERMINAL[intent.status];
        const status = terminal ?? (intent.status === 'PROCESSING' ? 'charging' : fallback);
        update(gen, { intent, status, canRetry: intent.status === 'PENDING', pending: false, ...extra });
      } catch (err) {
        update(gen, { status: 'error', error: toError(err), pending: false });
      }
    },
    [client, clientSecret, update],
  );

  useEffect(() => {
    const gen = ++generation.current;
    update(gen, INITIAL);
    void settle(gen, 'ready');
    return () => {
      generation.current++;
    };
  }, [settle, update]);

  // An open intent expires at expiresAt: read it again then, so the page shows `expired`.
  const expiresAt = state.intent?.expiresAt;
  const open = !['succeeded', 'failed', 'expired', 'canceled', 'error', 'loading', 'charging'].includes(state.status);
  useEffect(() => {
    if (!open || expiresAt === undefined) return;
    const gen = generation.current;
    const ms = Math.max(0, Date.parse(expiresAt) - Date.now()) + 500;
    const timer = setTimeout(() => void settle(gen, current.current.status), Math.min(ms, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [open, expiresAt, settle]);

  // PROCESSING (an asynchronous source) settles later: look again every few seconds.
  const processing = state.status === 'charging' && state.intent?.status === 'PROCESSING';
  useEffect(() => {
    if (!processing) return;
    const gen = generation.current;
    const timer = setInterval(() => void settle(gen, 'charging'), 3000);
    return () => clearInterval(timer);
  }, [processing, settle]);

  /** What an error from a step means for the checkout as a whole. */
  const onError = useCallback(
    async (gen: number, err: unknown, stay: CheckoutStatus) => {
      const error = toError(err);
      if (error.code === 'intent_expired' || error.code === 'intent_state_invalid') {
        return settle(gen, stay, { error });
      }
      if (error.code === 'access_token_invalid' || error.code === 'access_token_missing') {
        return update(gen, { status: 'ready', error, pending: false });
      }
      update(gen, { status: stay, error, pending: false });
    },
    [settle, update],
  );

  const sendCode = useCallback(
    async (gen: number, userId: string, requested: OtpChannel | undefined, stay: CheckoutStatus) => {
      const intent = current.current.intent;
      codeChannel.current = requested ?? codeChannel.current;
      try {
        const otp = await client.initOtp({ userId, channel: codeChannel.current ?? 'sms', ...(intent ? { intentionId: intent.id } : {}) });
        update(gen, { status: 'otp-sent', otp, error: undefined, pending: false });
      } catch (err) {
        await onError(gen, err, stay);
      }
    },
    [client, onError, update],
  );

  /**
   * Reads the wallet: when it holds less than the intent, offers the top-up of what is missing
   * (`topup-offer`, with `extra`) and answers 'short'; 'enough' otherwise, 'unknown' when the
   * wallet could not be read (the charge would then say `insufficient_funds`).
   */
  const offerTopUp = useCallback(
    async (gen: number, extra: Partial<CheckoutState> = {}): Promise<'short' | 'enough' | 'unknown'> => {
      const { intent, user } = current.current;
      if (intent === undefined || user === undefined) return 'unknown';
      let missing: string | undefined;
      try {
        const wallet = await client.wallet();
        missing = shortfall(intent.amount, wallet.balances.find((b) => b.currency === intent.currency)?.amount ?? '0');
      } catch {
        return 'unknown';
      }
      if (missing === undefined) return 'enough';
      const before = current.current.topUp;
      update(gen, {
        status: 'topup-offer',
        pending: false,
        error: undefined,
        topUp: { amount: missing, currency: intent.currency, provider: 'mtn_momo', phoneNumber: before?.phoneNumber ?? user.phoneNumber, topup: before?.topup },
        ...extra,
      });
      return 'short';
    },
    [client, update],
  );

  /** On to the payment code once the wallet holds enough; the top-up offer when it does not. */
  const proceed = useCallback(
    async (gen: number, stay: CheckoutStatus) => {
      const user = current.current.user;
      if (user === undefined) return;
      if ((await offerTopUp(gen)) === 'short' || gen !== generation.current) return;
      await sendCode(gen, user.id, undefined, stay);
    },
    [offerTopUp, sendCode],
  );

  /** Signs in, then sends the payment code; a failure goes back to `ready` with the error. */
  const signIn = useCallback(
    async (gen: number, phoneNumber: string, password: string, channel: OtpChannel | undefined) => {
      update(gen, { status: 'logging-in', phoneNumber, error: undefined, pending: false, topUp: undefined });
      codeChannel.current = channel;
      let user: AuthenticatedUser;
      try {
        user = await client.login(phoneNumber, password);
      } catch (err) {
        return onError(gen, err, 'ready');
      }
      update(gen, { user });
      await proceed(gen, 'ready');
    },
    [client, onError, proceed, update],
  );

  const login = useCallback(
    async (phoneNumber: string, password: string, channel?: OtpChannel) => {
      if (current.current.status !== 'ready') return;
      await signIn(generation.current, normalizePhone(phoneNumber), password, channel);
    },
    [signIn],
  );

  const forgotPassword = useCallback(
    (phoneNumber?: string) => {
      const s = current.current;
      if (s.status !== 'ready') return;
      const typed = phoneNumber === undefined ? '' : normalizePhone(phoneNumber);
      update(generation.current, { status: 'reset-phone', error: undefined, reset: undefined, ...(typed ? { phoneNumber: typed } : {}) });
    },
    [update],
  );

  const requestPasswordReset = useCallback(
    async (phoneNumber?: string) => {
      const s = current.current;
      if ((s.status !== 'reset-phone' && s.status !== 'reset-code') || s.pending) return;
      const number = normalizePhone(phoneNumber ?? s.phoneNumber ?? '');
      const gen = generation.current;
      update(gen, { pending: true, error: undefined, phoneNumber: number });
      try {
        const reset = await client.requestPasswordReset(number);
        update(gen, { status: 'reset-code', reset, pending: false });
      } catch (err) {
        await onError(gen, err, s.status);
      }
    },
    [client, onError, update],
  );

  const confirmPasswordReset = useCallback(
    async (code: string, newPassword: string, channel?: OtpChannel) => {
      const s = current.current;
      const phoneNumber = s.reset?.phoneNumber ?? s.phoneNumber;
      if (s.status !== 'reset-code' || s.pending || phoneNumber === undefined) return;
      const gen = generation.current;
      update(gen, { pending: true, error: undefined });
      try {
        await client.confirmPasswordReset({ phoneNumber, code: code.trim(), newPassword });
      } catch (err) {
        return onError(gen, err, 'reset-code');
      }
      update(gen, { passwordChanged: true, reset: undefined });
      await signIn(gen, phoneNumber, newPassword, channel);
    },
    [client, onError, signIn, update],
  );

  const cancelPasswordReset = useCallback(() => {
    const s = current.current;
    // Not while a request runs: its answer would move the step on behind the customer's back.
    if ((s.status !== 'reset-phone' && s.status !== 'reset-code') || s.pending) return;
    update(generation.current, { status: 'ready', error: undefined, reset: undefined, pending: false });
  }, [update]);

  const resendCode = useCallback(
    async (channel?: OtpChannel) => {
      const s = current.current;
      if ((s.status !== 'otp-sent' && s.status !== 'otp-verified') || s.user === undefined || s.pending) return;
      const gen = generation.current;
      update(gen, { pending: true, error: undefined });
      await sendCode(gen, s.user.id, channel ?? s.otp?.channel, s.status);
    },
    [sendCode, update],
  );

  const verifyCode = useCallback(
    async (otp: string) => {
      const s = current.current;
      if (s.status !== 'otp-sent' || s.user === undefined || s.pending) return;
      const gen = generation.current;
      update(gen, { pending: true, error: undefined });
      try {
        await client.verifyOtp({ userId: s.user.id, otp: otp.trim() });
        update(gen, { status: 'otp-verified', pending: false });
      } catch (err) {
        await onError(gen, err, 'otp-sent');
      }
    },
    [client, onError, update],
  );

  const pay = useCallback(async () => {
    const s = current.current;
    if (s.status !== 'otp-verified' || s.intent === undefined) return;
    const gen = generation.current;
    update(gen, { status: 'charging', error: undefined });
    try {
      const intent = await client.charge(s.intent.id);
      if (TERMINAL[intent.status] === 'succeeded') return update(gen, { status: 'succeeded', intent, canRetry: false });
      if (intent.status === 'PROCESSING') return update(gen, { status: 'charging', intent });
      const lastError = intent.lastError;
      update(gen, {
        status: 'failed',
        intent,
        canRetry: intent.status === 'PENDING',
        error: lastError
          ? { code: lastError.code, message: lastError.message }
          : { code: 'payment_failed', message: CUSTOMER_MESSAGES.payment_failed as string },
      });
    } catch (err) {
      const error = toError(err);
      if (error.code === 'otp_token_invalid' || error.code === 'otp_token_missing') {
        return update(gen, { status: 'otp-sent', error });
      }
      if (err instanceof CaisseError && err.status === 402) {
        // Too little in the wallet while the intent still takes attempts: offer the top-up.
        if (error.code === 'insufficient_funds' && client.userId !== undefined) {
          try {
            const intent = await client.retrieveIntent(clientSecret);
            if (intent.status === 'PENDING') {
              update(gen, { intent, canRetry: true });
              if ((await offerTopUp(gen, { error })) === 'short') return;
            }
          } catch {
            /* the intent is read again just below */
          }
        }
        return settle(gen, 'failed', { status: 'failed', error });
      }
      // No answer: the charge may or may not have happened, so the intent decides.
      if (error.code === 'connection_error') return settle(gen, 'error', { error });
      await onError(gen, err, 'error');
    }
  }, [client, clientSecret, offerTopUp, onError, settle, update]);

  /** Reads the top-up every second until the provider decided, or the wait is over. */
  const awaitTopUp = useCallback(
    async (gen: number, run: number, first: Topup) => {
      const deadline = Date.now() + TOPUP_WAIT_MS;
      const stale = () => gen !== generation.current || run !== topUpRun.current || current.current.status !== 'topup-pending';
      const withTopup = (topup: Topup): Partial<CheckoutState> => {
        const offer = current.current.topUp;
        return offer ? { topUp: { ...offer, topup } } : {};
      };
      let topup = first;
      while (topup.status === 'PENDING') {
        if (Date.now() >= deadline) {
          return update(gen, { status: 'topup-failed', error: { code: 'topup_timeout', message: CUSTOMER_MESSAGES.topup_timeout as string } });
        }
        await wait(TOPUP_POLL_INTERVAL_MS);
        if (stale()) return;
        try {
          topup = await client.getTopup(topup.id);
        } catch (err) {
          if (stale()) return;
          const status = err instanceof CaisseError ? err.status : undefined;
          // No answer or a passing server error: look again at the next tick.
          if (status === undefined || status >= 500 || status === 429) continue;
          return onError(gen, err, 'topup-failed');
        }
        if (stale()) return;
      }
      if (topup.status === 'FAILED') {
        const reason = topup.failureReason ?? undefined;
        return update(gen, {
          status: 'topup-failed',
          ...withTopup(topup),
          error: { code: 'topup_failed', message: CUSTOMER_MESSAGES.topup_failed as string, ...(reason ? { failureReason: reason } : {}) },
        });
      }
      update(gen, withTopup(topup));
      await proceed(gen, 'ready');
    },
    [client, onError, proceed, update],
  );

  const startTopUp = useCallback(
    async (phoneNumber?: string) => {
      const s = current.current;
      if (s.status !== 'topup-offer' || s.topUp === undefined || s.pending) return;
      const gen = generation.current;
      const run = ++topUpRun.current;
      const offer: CheckoutTopUp = { ...s.topUp, phoneNumber: normalizePhone(phoneNumber ?? s.topUp.phoneNumber) };
      update(gen, { pending: true, error: undefined, topUp: offer });
      let topup: Topup;
      try {
        topup = await client.topUp({ amount: offer.amount, currency: offer.currency, provider: offer.provider, phoneNumber: offer.phoneNumber });
      } catch (err) {
        return onError(gen, err, 'topup-offer');
      }
      update(gen, { status: 'topup-pending', pending: false, topUp: { ...offer, topup } });
      await awaitTopUp(gen, run, topup);
    },
    [awaitTopUp, client, onError, update],
  );

  const retryTopUp = useCallback(async () => {
    const s = current.current;
    if (s.status !== 'topup-failed' || s.user === undefined || s.pending) return;
    const gen = generation.current;
    update(gen, { pending: true, error: undefined });
    const wallet = await offerTopUp(gen);
    if (gen !== generation.current || wallet === 'short') return;
    // The money arrived meanwhile: on to the payment. Unknown: offer the same top-up again.
    if (wallet === 'enough') return sendCode(gen, s.user.id, undefined, 'ready');
    update(gen, { status: 'topup-offer', pending: false });
  }, [offerTopUp, sendCode, update]);

  const cancelTopUp = useCallback(() => {
    const s = current.current;
    if ((s.status !== 'topup-offer' && s.status !== 'topup-failed') || s.pending) return;
    topUpRun.current++;
    client.logout();
    update(generation.current, { status: 'ready', user: undefined, otp: undefined, topUp: undefined, error: undefined, pending: false });
  }, [client, update]);

  const retry = useCallback(async () => {
    const s = current.current;
    const gen = generation.current;
    if (s.status === 'error' && s.intent === undefined) {
      update(gen, { status: 'loading', error: undefined });
      return settle(gen, 'ready');
    }
    if ((s.status !== 'failed' && s.status !== 'error') || (s.status === 'failed' && !s.canRetry)) return;
    if (s.user === undefined || client.userId === undefined) return settle(gen, 'ready', { error: undefined });
    update(gen, { pending: true, error: undefined });
    await proceed(gen, s.status);
  }, [client, proceed, settle, update]);

  return {
    ...state,
    login,
    resendCode,
    verifyCode,
    pay,
    retry,
    forgotPassword,
    requestPasswordReset,
    confirmPasswordReset,
    cancelPasswordReset,
    startTopUp,
    retryTopUp,
    cancelTopUp,
  };
}
