import type { CaisseClient, OtpChannel, Timers } from '@caisse/browser';
import type { RefObject } from 'react';
import type { CheckoutEvent, CheckoutState, CheckoutStatus } from './checkoutMachine.ts';

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

/**
 * What the hook's parts share (`useCheckout.ts`, `usePasswordReset.ts`, `useTopUp.ts`): the
 * client, the latest state and its generation, and the ways to change it.
 */
export interface CheckoutRuntime {
  client: CaisseClient;
  clientSecret: string;
  /** The latest state, for the actions to read between renders. */
  current: RefObject<CheckoutState>;
  /** Answers of an older generation (the intent changed, the component left) are dropped. */
  generation: RefObject<number>;
  clock: RefObject<{ timers: Timers; now: () => number }>;
  /** Dispatches `event` unless its generation is over; false when the machine did not take it. */
  send(gen: number, event: CheckoutEvent): boolean;
  /** What an error from a step means for the checkout as a whole. */
  onError(gen: number, err: unknown, stay: CheckoutStatus): Promise<void>;
}
