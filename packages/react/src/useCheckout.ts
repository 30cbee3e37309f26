import {
  type AuthenticatedUser,
  CaisseError,
  type MobileMoneyMethod,
  type OtpChannel,
  type PublicPaymentIntent,
  type Timers,
  type Topup,
} from '@caisse/browser';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  CLOSED,
  atLeast,
  type CheckoutError,
  type CheckoutEvent,
  type CheckoutState,
  type CheckoutStatus,
  type CheckoutTopUp,
  checkoutReducer,
  INITIAL,
  normalizePhone,
  shortfall,
  suggestProvider,
  type TopUpProvider,
} from './checkoutMachine.ts';
import { customerError, toCheckoutError } from './i18n.tsx';
import { useCaisse } from './provider.tsx';

export { shortfall };
export type { CheckoutError, CheckoutState, CheckoutStatus, CheckoutTopUp, TopUpProvider } from './checkoutMachine.ts';

/**
 * Drives the payment of the provider's intent through the checkout's state machine
 * (`checkoutMachine.ts`, where the steps are drawn): this hook only runs the requests and timers
 * and dispatches what they answered.
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
 * money (`topUp`), with the providers of `GET /payment-methods` that take an approval on the
 * phone. `startTopUp` asks the payer's account for it (`topup-pending` while they approve on
 * their phone, read again every second, for at most two minutes); once SUCCEEDED the payment code
 * is sent as usual. FAILED (or no answer in time) is `topup-failed`, with the reason in `error`:
 * `retryTopUp` offers it again, `cancelTopUp` goes back to sign-in.
 *
 * A code sent less than a minute before (signing in again: 429 `otp_rate_limited`) is still
 * good: the code step shows, and `error.retryAfter` counts the wait down once a second.
 */
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
   * `topUp.phoneNumber`) through `provider` (default: `topUp.provider`), waits for the payer's
   * approval, then sends the payment code. From `topup-offer`.
   */
  startTopUp(phoneNumber?: string, provider?: string): Promise<void>;
  /** From `topup-offer`: the provider to top up from (one of `topUp.providers`). */
  chooseTopUpProvider(provider: string): void;
  /** After `topup-failed`: reads the wallet again and offers the top-up again (or goes on if the money arrived). */
  retryTopUp(): Promise<void>;
  /** From `topup-offer` or `topup-failed`: signs the customer out, back to `ready`. */
  cancelTopUp(): void;
}

export interface CheckoutOptions {
  /** Timers for the waits and the countdown (tests pass fake ones). */
  timers?: Timers;
  now?: () => number;
}

/** How often a pending top-up is read again, and how long the checkout waits for the payer's approval. */
export const TOPUP_POLL_INTERVAL_MS = 1000;
export const TOPUP_WAIT_MS = 2 * 60_000;

/** The providers a wallet top-up can ask: mobile money approved on the phone, available now. */
export function topUpProviders(methods: readonly { type: string }[]): TopUpProvider[] {
  return methods
    .filter((m): m is MobileMoneyMethod => m.type === 'mobile_money')
    .filter((m) => m.available && m.approval === 'phone_prompt')
    .map((m) => ({ provider: m.provider, name: m.name, prefixes: m.prefixes, minAmount: m.minAmount }));
}

/** Drives the payment of the provider's intent, one step at a time. */
export function useCheckout(options: CheckoutOptions = {}): Checkout {
  const { client, clientSecret } = useCaisse();
  const clock = useRef({ timers: options.timers ?? (globalThis as Timers), now: options.now ?? Date.now });
  clock.current = { timers: options.timers ?? (globalThis as Timers), now: options.now ?? Date.now };
  const [state, setState] = useState<CheckoutState>(INITIAL);
  // The latest state, for the actions to read between renders; every change goes through send.
  const current = useRef(state);
  // Answers that arrive after the intent changed or the component left are dropped.
  const generation = useRef(0);
  // The channel the customer chose for the payment code, for the code sent after a top-up.
  const codeChannel = useRef<OtpChannel | undefined>(undefined);
  // Each top-up's wait has its number: a wait that is no longer the latest stops.
  const topUpRun = useRef(0);
  // The providers a top-up may ask, read once.
  const providers = useRef<Promise<TopUpProvider[]> | undefined>(undefined);

  /** Dispatches `event` unless its generation is over; false when the machine did not take it. */
  const send = useCallback((gen: number, event: CheckoutEvent): boolean => {
    if (gen !== generation.current) return false;
    const next = checkoutReducer(current.current, event);
    if (next === current.current) return false;
    current.current = next;
    setState(next);
    return true;
  }, []);
  const now = () => clock.current.now();
  const wait = (ms: number) => new Promise((resolve) => clock.current.timers.setTimeout(() => resolve(undefined), ms));

  /** Reads the intent and moves to the step its status implies (`whilePending` while PENDING). */
  const settle = useCallback(
    async (gen: number, whilePending: CheckoutStatus, extra: { status?: CheckoutStatus; error?: CheckoutError | null } = {}) => {
      try {
        const intent = await client.retrieveIntent(clientSecret);
        send(gen, { type: 'intent.read', intent, whilePending, ...extra });
      } catch (err) {
        send(gen, { type: 'intent.unreadable', error: toCheckoutError(err) });
      }
    },
    [client, clientSecret, send],
  );

  useEffect(() => {
    const gen = ++generation.current;
    send(gen, { type: 'load.started' });
    providers.current = undefined;
    void settle(gen, 'ready');
    return () => {
      generation.current++;
    };
  }, [settle, send]);

  // An open intent expires at expiresAt: read it again then, so the page shows `expired`.
  const expiresAt = state.intent?.expiresAt;
  const open = !CLOSED.includes(state.status);
  useEffect(() => {
    if (!open || expiresAt === undefined) return;
    const gen = generation.current;
    const ms = Math.max(0, Date.parse(expiresAt) - clock.current.now()) + 500;
    const { timers } = clock.current;
    const timer = timers.setTimeout(() => void settle(gen, current.current.status), Math.min(ms, 2 ** 31 - 1));
    return () => timers.clearTimeout(timer);
  }, [open, expiresAt, settle]);

  // PROCESSING (an asynchronous source) settles later: wait for it on the client's long-poll,
  // which the mobile-money steps share when they wait too (one request held for the payer).
  const processing = state.status === 'charging' && state.intent?.status === 'PROCESSING';
  useEffect(() => {
    if (!processing) return;
    const gen = generation.current;
    const abort = new AbortController();
    client.waitForPayment(clientSecret, { signal: abort.signal, timers: clock.current.timers }).then(
      // The same read as retrieveIntent's; the wait types its attempts for the mobile-money steps.
      (intent) => send(gen, { type: 'intent.read', intent: intent as unknown as PublicPaymentIntent, whilePending: 'charging' }),
      (err: unknown) => {
        if (!abort.signal.aborted) send(gen, { type: 'intent.unreadable', error: toCheckoutError(err) });
      },
    );
    return () => abort.abort();
  }, [processing, client, clientSecret, send]);

  // A 429's wait counts down once a second.
  const retryAt = state.retryAt;
  useEffect(() => {
    if (retryAt === undefined) return;
    const gen = generation.current;
    const { timers } = clock.current;
    let timer: unknown;
    const tick = () => {
      send(gen, { type: 'tick', now: clock.current.now() });
      if (current.current.retryAt !== undefined) timer = timers.setTimeout(tick, 1000);
    };
    timer = timers.setTimeout(tick, 1000);
    return () => timers.clearTimeout(timer);
  }, [retryAt, send]);

  /** What an error from a step means for the checkout as a whole. */
  const onError = useCallback(
    async (gen: number, err: unknown, stay: CheckoutStatus) => {
      const error = toCheckoutError(err);
      if (error.code === 'intent_expired' || error.code === 'intent_state_invalid') return settle(gen, stay, { error });
      send(gen, { type: 'request.failed', error, stay, now: clock.current.now() });
    },
    [settle, send],
  );

  const sendCode = useCallback(
    async (gen: number, userId: string, requested: OtpChannel | undefined, stay: CheckoutStatus) => {
      const intent = current.current.intent;
      codeChannel.current = requested ?? codeChannel.current;
      try {
        const otp = await client.initOtp({ userId, channel: codeChannel.current ?? 'sms', ...(intent ? { intentionId: intent.id } : {}) });
        send(gen, { type: 'code.sent', otp });
      } catch (err) {
        // Signing in again within the resend wait: the code sent moments ago is still good.
        const error = toCheckoutError(err);
        if (error.code === 'otp_rate_limited' && stay !== 'otp-sent' && stay !== 'otp-verified') {
          send(gen, { type: 'code.stillValid', error, now: clock.current.now() });
          return;
        }
        await onError(gen, err, stay);
      }
    },
    [client, onError, send],
  );

  /** The providers a top-up may ask (`GET /payment-methods`), read once; none when it cannot be read. */
  const readProviders = useCallback(() => {
    providers.current ??= client.getPaymentMethods(clientSecret).then(topUpProviders, () => {
      providers.current = undefined;
      return [];
    });
    return providers.current;
  }, [client, clientSecret]);

  /**
   * Reads the wallet: when it holds less than the intent and a provider can top it up, offers the
   * top-up of what is missing (`topup-offer`) and answers 'short'; 'enough' otherwise, 'unknown'
   * when the wallet could not be read or nothing can top it up (the charge would then say
   * `insufficient_funds`).
   */
  const offerTopUp = useCallback(
    async (gen: number, error?: CheckoutError): Promise<'short' | 'enough' | 'unknown'> => {
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
      const choices = await readProviders();
      if (choices.length === 0) return 'unknown';
      const before = current.current.topUp;
      const phoneNumber = before?.phoneNumber ?? user.phoneNumber;
      const kept = before && choices.some((p) => p.provider === before.provider) ? before.provider : undefined;
      const provider = kept ?? suggestProvider(phoneNumber, choices) ?? (choices[0] as TopUpProvider).provider;
      // The provider refuses less than its minimum: a smaller shortfall is topped up by the minimum.
      const amount = atLeast(missing, choices.find((p) => p.provider === provider)?.minAmount ?? '0');
      const topUp: CheckoutTopUp = { amount, currency: intent.currency, providers: choices, provider, phoneNumber, topup: before?.topup };
      return send(gen, { type: 'wallet.short', topUp, ...(error ? { error } : {}) }) ? 'short' : 'unknown';
    },
    [client, readProviders, send],
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
      if (!send(gen, { type: 'signIn.started', phoneNumber })) return;
      codeChannel.current = channel;
      let user: AuthenticatedUser;
      try {
        user = await client.login(phoneNumber, password);
      } catch (err) {
        return onError(gen, err, 'ready');
      }
      send(gen, { type: 'signIn.succeeded', user });
      await proceed(gen, 'ready');
    },
    [client, onError, proceed, send],
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
      const typed = phoneNumber === undefined ? '' : normalizePhone(phoneNumber);
      send(generation.current, { type: 'reset.opened', ...(typed ? { phoneNumber: typed } : {}) });
    },
    [send],
  );

  const requestPasswordReset = useCallback(
    async (phoneNumber?: string) => {
      const s = current.current;
      const number = normalizePhone(phoneNumber ?? s.phoneNumber ?? '');
      const gen = generation.current;
      if (!send(gen, { type: 'reset.requested', phoneNumber: number })) return;
      try {
        const reset = await client.requestPasswordReset(number);
        send(gen, { type: 'reset.sent', reset });
      } catch (err) {
        await onError(gen, err, s.status);
      }
    },
    [client, onError, send],
  );

  const confirmPasswordReset = useCallback(
    async (code: string, newPassword: string, channel?: OtpChannel) => {
      const s = current.current;
      const phoneNumber = s.reset?.phoneNumber ?? s.phoneNumber;
      const gen = generation.current;
      if (phoneNumber === undefined || !send(gen, { type: 'reset.confirmRequested' })) return;
      try {
        await client.confirmPasswordReset({ phoneNumber, code: code.trim(), newPassword });
      } catch (err) {
        return onError(gen, err, 'reset-code');
      }
      send(gen, { type: 'reset.confirmed' });
      await signIn(gen, phoneNumber, newPassword, channel);
    },
    [client, onError, signIn, send],
  );

  const cancelPasswordReset = useCallback(() => void send(generation.current, { type: 'reset.canceled' }), [send]);

  const resendCode = useCallback(
    async (channel?: OtpChannel) => {
      const s = current.current;
      const gen = generation.current;
      if (s.user === undefined || !send(gen, { type: 'code.resendRequested' })) return;
      await sendCode(gen, s.user.id, channel ?? s.otp?.channel, s.status);
    },
    [sendCode, send],
  );

  const verifyCode = useCallback(
    async (otp: string) => {
      const s = current.current;
      const gen = generation.current;
      if (s.user === undefined || !send(gen, { type: 'code.verifyRequested' })) return;
      try {
        await client.verifyOtp({ userId: s.user.id, otp: otp.trim() });
        send(gen, { type: 'code.verified' });
      } catch (err) {
        await onError(gen, err, 'otp-sent');
      }
    },
    [client, onError, send],
  );

  const pay = useCallback(async () => {
    const s = current.current;
    const gen = generation.current;
    if (s.intent === undefined || !send(gen, { type: 'charge.started' })) return;
    try {
      const intent = await client.charge(s.intent.id);
      send(gen, { type: 'charge.answered', intent, error: customerError(intent.lastError?.code ?? 'payment_failed') });
    } catch (err) {
      const error = toCheckoutError(err);
      if (error.code === 'otp_token_invalid' || error.code === 'otp_token_missing') {
        send(gen, { type: 'charge.codeRefused', error });
        return;
      }
      if (err instanceof CaisseError && err.status === 402) {
        // Too little in the wallet while the intent still takes attempts: offer the top-up.
        if (error.code === 'insufficient_funds' && client.userId !== undefined) {
          try {
            const intent = await client.retrieveIntent(clientSecret);
            if (intent.status === 'PENDING') {
              send(gen, { type: 'intent.read', intent, whilePending: 'charging' });
              if ((await offerTopUp(gen, error)) === 'short') return;
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
  }, [client, clientSecret, offerTopUp, onError, settle, send]);

  /** Reads the top-up every second until the provider decided, or the wait is over. */
  const awaitTopUp = useCallback(
    async (gen: number, run: number, first: Topup) => {
      const deadline = now() + TOPUP_WAIT_MS;
      const stale = () => gen !== generation.current || run !== topUpRun.current || current.current.status !== 'topup-pending';
      let topup = first;
      while (topup.status === 'PENDING') {
        if (now() >= deadline) {
          send(gen, { type: 'topUp.failed', error: customerError('topup_timeout') });
          return;
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
        const offer = current.current.topUp;
        const providerName = offer?.providers.find((p) => p.provider === offer.provider)?.name ?? topup.provider;
        const error = { ...customerError('topup_failed'), providerName, ...(reason ? { failureReason: reason } : {}) };
        send(gen, { type: 'topUp.failed', error, topup });
        return;
      }
      send(gen, { type: 'topUp.updated', topup });
      await proceed(gen, 'ready');
    },
    [client, onError, proceed, send],
  );

  const startTopUp = useCallback(
    async (phoneNumber?: string, provider?: string) => {
      const s = current.current;
      const gen = generation.current;
      if (s.topUp === undefined) return;
      const number = normalizePhone(phoneNumber ?? s.topUp.phoneNumber);
      if (!send(gen, { type: 'topUp.requested', phoneNumber: number, provider: provider ?? s.topUp.provider })) return;
      const run = ++topUpRun.current;
      const offer = current.current.topUp as CheckoutTopUp;
      let topup: Topup;
      try {
        topup = await client.topUp({ amount: offer.amount, currency: offer.currency, provider: offer.provider, phoneNumber: offer.phoneNumber });
      } catch (err) {
        return onError(gen, err, 'topup-offer');
      }
      send(gen, { type: 'topUp.pending', topup });
      await awaitTopUp(gen, run, topup);
    },
    [awaitTopUp, client, onError, send],
  );

  const chooseTopUpProvider = useCallback((provider: string) => void send(generation.current, { type: 'topUp.providerChosen', provider }), [send]);

  const retryTopUp = useCallback(async () => {
    const s = current.current;
    const gen = generation.current;
    if (s.user === undefined || !send(gen, { type: 'topUp.retryRequested' })) return;
    const wallet = await offerTopUp(gen);
    if (gen !== generation.current || wallet === 'short') return;
    // The money arrived meanwhile: on to the payment. Unknown: offer the same top-up again.
    if (wallet === 'enough') return sendCode(gen, s.user.id, undefined, 'ready');
    send(gen, { type: 'topUp.offeredAgain' });
  }, [offerTopUp, sendCode, send]);

  const cancelTopUp = useCallback(() => {
    if (!send(generation.current, { type: 'topUp.canceled' })) return;
    topUpRun.current++;
    client.logout();
  }, [client, send]);

  const retry = useCallback(async () => {
    const s = current.current;
    const gen = generation.current;
    if (!send(gen, { type: 'retry.requested' })) return;
    if (s.status === 'error' && s.intent === undefined) return settle(gen, 'ready');
    if (s.user === undefined || client.userId === undefined) return settle(gen, 'ready', { error: null });
    await proceed(gen, s.status);
  }, [client, proceed, settle, send]);

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
    chooseTopUpProvider,
    retryTopUp,
    cancelTopUp,
  };
}
