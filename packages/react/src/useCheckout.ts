import { type AuthenticatedUser, CaisseError, type OtpChannel, type PublicPaymentIntent, type Timers } from '@caisse/browser';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Checkout, CheckoutOptions, CheckoutRuntime } from './checkoutController.ts';
import {
  CLOSED,
  type CheckoutError,
  type CheckoutEvent,
  type CheckoutState,
  type CheckoutStatus,
  checkoutReducer,
  INITIAL,
  normalizePhone,
  shortfall,
} from './checkoutMachine.ts';
import { customerError, toCheckoutError } from './i18n.tsx';
import { useCaisse } from './provider.tsx';
import { usePasswordReset } from './usePasswordReset.ts';
import { useTopUpActions, useTopUpOffer } from './useTopUp.ts';

export { shortfall };
export { TOPUP_POLL_INTERVAL_MS, TOPUP_WAIT_MS, topUpProviders } from './useTopUp.ts';
export type { Checkout, CheckoutOptions } from './checkoutController.ts';
export type { CheckoutError, CheckoutState, CheckoutStatus, CheckoutTopUp, TopUpProvider } from './checkoutMachine.ts';

/**
 * The hook runs the requests and timers of the checkout's state machine (`checkoutMachine.ts`,
 * where the steps are drawn) and dispatches what they answered; the password reset
 * (`usePasswordReset.ts`) and the wallet's top-up (`useTopUp.ts`) are their own parts.
 */

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

  /** Dispatches `event` unless its generation is over; false when the machine did not take it. */
  const send = useCallback((gen: number, event: CheckoutEvent): boolean => {
    if (gen !== generation.current) return false;
    const next = checkoutReducer(current.current, event);
    if (next === current.current) return false;
    current.current = next;
    setState(next);
    return true;
  }, []);
  const { offerTopUp, forgetProviders } = useTopUpOffer({ client, clientSecret, current, send });

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
    forgetProviders();
    void settle(gen, 'ready');
    return () => {
      generation.current++;
    };
  }, [settle, send, forgetProviders]);

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
      // The intent moved on (expired, paid, or waiting on a phone from another tab): read it to decide.
      if (error.code === 'intent_expired' || error.code === 'intent_state_invalid' || error.code === 'attempt_in_progress') return settle(gen, stay, { error });
      send(gen, { type: 'request.failed', error, stay, now: clock.current.now() });
    },
    [settle, send],
  );
  const rt: CheckoutRuntime = { client, clientSecret, current, generation, clock, send, onError };

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

  const reset = usePasswordReset(rt, signIn);

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

  const topUps = useTopUpActions(rt, { offerTopUp, proceed, sendCode });

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
    ...reset,
    ...topUps,
  };
}
