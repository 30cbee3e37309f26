import type { PublicPaymentIntent } from '@caisse/browser';
import { type CSSProperties, type FormEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { OtpCodeInput } from './OtpCodeInput.tsx';
import { type CheckoutStatus, useCheckout } from './useCheckout.ts';

/** Colours, radius and font of <Checkout/>; each maps to a CSS variable you may also set in CSS. */
export interface CheckoutTheme {
  /** Buttons and focus ring (`--caisse-accent`). */
  accent?: string;
  /** Text on the accent colour (`--caisse-accent-text`). */
  accentText?: string;
  /** Text (`--caisse-text`). */
  text?: string;
  /** Secondary text (`--caisse-muted`). */
  muted?: string;
  /** Background (`--caisse-background`). */
  background?: string;
  /** Borders of the box and the fields (`--caisse-border`). */
  border?: string;
  /** Error messages (`--caisse-danger`). */
  danger?: string;
  /** Success message (`--caisse-success`). */
  success?: string;
  /** Corner radius (`--caisse-radius`). */
  radius?: string;
  /** Font family (`--caisse-font`). */
  fontFamily?: string;
}

const THEME_VARS: Record<keyof CheckoutTheme, string> = {
  accent: '--caisse-accent',
  accentText: '--caisse-accent-text',
  text: '--caisse-text',
  muted: '--caisse-muted',
  background: '--caisse-background',
  border: '--caisse-border',
  danger: '--caisse-danger',
  success: '--caisse-success',
  radius: '--caisse-radius',
  fontFamily: '--caisse-font',
};

export function themeStyle(theme: CheckoutTheme | undefined): CSSProperties {
  const style: Record<string, string> = {};
  for (const [key, value] of Object.entries(theme ?? {})) {
    const name = THEME_VARS[key as keyof CheckoutTheme];
    if (name && typeof value === 'string') style[name] = value;
  }
  return style as CSSProperties;
}

/**
 * Default look. Every rule sits in :where() so it has no specificity: a merchant's own CSS wins
 * without !important. The contrast of the defaults meets WCAG AA.
 */
export const CHECKOUT_CSS = `
:where(.caisse-checkout){--caisse-accent:#1d4ed8;--caisse-accent-text:#fff;--caisse-text:#111827;--caisse-muted:#4b5563;--caisse-background:#fff;--caisse-border:#6b7280;--caisse-danger:#b91c1c;--caisse-success:#15803d;--caisse-radius:8px;--caisse-font:system-ui,sans-serif;
font-family:var(--caisse-font);color:var(--caisse-text);background:var(--caisse-background);border:1px solid var(--caisse-border);border-radius:var(--caisse-radius);padding:1.25rem;max-width:24rem}
:where(.caisse-checkout) :where(h2){font-size:1.25rem;margin:0 0 .25rem}
:where(.caisse-checkout) :where(.caisse-description,.caisse-hint){color:var(--caisse-muted);margin:0 0 1rem}
:where(.caisse-checkout) :where(input+.caisse-hint){margin:.25rem 0 0}
:where(.caisse-checkout) :where(label){display:block;font-weight:600;margin:.75rem 0 .25rem}
:where(.caisse-checkout) :where(input){box-sizing:border-box;width:100%;font:inherit;padding:.5rem .625rem;border:1px solid var(--caisse-border);border-radius:calc(var(--caisse-radius)/2);color:inherit;background:var(--caisse-background)}
:where(.caisse-checkout) :where(input[aria-invalid=true]){border-color:var(--caisse-danger)}
:where(.caisse-checkout) :where(button){font:inherit;font-weight:600;margin-top:1rem;padding:.625rem 1rem;border-radius:calc(var(--caisse-radius)/2);border:1px solid var(--caisse-accent);cursor:pointer}
:where(.caisse-checkout) :where(button.caisse-primary){width:100%;background:var(--caisse-accent);color:var(--caisse-accent-text)}
:where(.caisse-checkout) :where(button.caisse-secondary){background:transparent;color:var(--caisse-accent)}
:where(.caisse-checkout) :where(button.caisse-link){display:block;background:transparent;border-color:transparent;color:var(--caisse-accent);font-weight:400;text-decoration:underline;margin-top:.5rem;padding:.5rem 0}
:where(.caisse-checkout) :where(button:disabled){opacity:.6;cursor:progress}
:where(.caisse-checkout) :where(input:focus-visible,button:focus-visible){outline:3px solid var(--caisse-accent);outline-offset:2px}
:where(.caisse-checkout) :where(.caisse-error:not(:empty)){color:var(--caisse-danger);margin:.75rem 0 0}
:where(.caisse-checkout) :where(.caisse-success){color:var(--caisse-success);font-weight:600}
:where(.caisse-checkout) :where(.caisse-visually-hidden){position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

export interface CheckoutProps {
  theme?: CheckoutTheme;
  className?: string;
  /** Locale for amounts (default: the browser's). */
  locale?: string;
  /** Leave out the default stylesheet (style .caisse-checkout yourself). */
  unstyled?: boolean;
  /** Called once the payment succeeded. Fulfil the order on the webhook, not here. */
  onSuccess?: (intent: PublicPaymentIntent) => void;
  /** Called on every step change. */
  onStatusChange?: (status: CheckoutStatus) => void;
}

export function formatAmount(intent: Pick<PublicPaymentIntent, 'amount' | 'currency'>, locale?: string): string {
  try {
    // The amount stays a decimal string: Intl formats it without going through a float.
    return new Intl.NumberFormat(locale, { style: 'currency', currency: intent.currency }).format(intent.amount as `${number}`);
  } catch {
    return `${intent.amount} ${intent.currency}`;
  }
}

/**
 * Every text <Checkout/> shows, in one place (for a translation to replace). Amounts arrive
 * formatted; a function takes what the sentence needs.
 */
export const CHECKOUT_TEXT = {
  title: 'Payment',
  pay: (amount: string) => `Pay ${amount}`,
  paid: (amount: string) => `Paid ${amount}`,
  loading: 'Loading the payment…',
  signingIn: 'Signing you in…',
  paying: 'Paying…',
  succeeded: 'Payment complete.',
  failed: 'The payment did not go through.',
  expired: 'This payment has expired.',
  canceled: 'This payment was canceled.',
  codeSent: (destination: string) => `A code was sent to ${destination}.`,
  codeVerified: 'Code verified.',
  triesLeft: (n: number) => `${n} ${n === 1 ? 'try' : 'tries'} left.`,
  everyShop: 'Your Caisse account works at every shop that uses Caisse.',
  phoneNumber: 'Phone number',
  phonePlaceholder: '+237 6XX XX XX XX',
  password: 'Password',
  signInBusy: 'Signing in…',
  continue: 'Continue',
  forgotPassword: 'Forgot password?',
  resetTitle: 'Reset your password.',
  resetIntro: 'We will send a code by SMS to this number, to choose a new password.',
  sendResetCode: 'Send code',
  sending: 'Sending…',
  backToSignIn: 'Back to sign in',
  resetSent: (phoneNumber: string) => `If ${phoneNumber} has a Caisse account, a code is on its way by SMS.`,
  resetHint: 'Enter the 6-digit code from the SMS, then choose a new password.',
  resetCode: 'Reset code',
  newPassword: 'New password',
  newPasswordHint: 'At least 8 characters, not a common one and not your phone number.',
  setPassword: 'Set password and continue',
  settingPassword: 'Saving…',
  passwordChanged: 'Your new password is set.',
  enterCode: (destination: string | undefined) => `Enter the 6-digit code sent to ${destination ?? 'your phone'}.`,
  verificationCode: 'Verification code',
  verify: 'Verify code',
  checking: 'Checking…',
  sendNewCode: 'Send a new code',
  thankYou: (amount: string) => `Thank you: your payment of ${amount} is complete.`,
  tryAgain: 'Try again',
  noLongerPayable: 'This payment can no longer be made. Please return to the shop.',
  returnToShop: 'Please return to the shop to start a new payment.',
  topUpShort: (missing: string) => `Your wallet is ${missing} short of this payment.`,
  topUpIntro: 'Top up the missing amount from your MTN MoMo account, then pay.',
  topUpPhone: 'MTN MoMo number',
  topUpPhoneHint: 'You approve the top-up on this phone.',
  topUp: (amount: string) => `Top up ${amount} with MTN MoMo`,
  topUpStarting: 'Asking MTN MoMo…',
  topUpAwaiting: (amount: string, phoneNumber: string) => `Approve the top-up of ${amount} on your phone (${phoneNumber}). Waiting for MTN MoMo…`,
  topUpKeepOpen: 'Keep this page open: the payment goes on once you approve.',
  topUpReceived: (amount: string) => `Your wallet was topped up with ${amount}.`,
  topUpFailed: (code: string, reason: string | undefined) => {
    if (code === 'topup_timeout') return 'MTN MoMo did not confirm the top-up in time. If you still approve it, the money will reach your wallet.';
    if (reason === 'APPROVAL_REJECTED') return 'The top-up was declined on the phone.';
    if (reason === 'TIMEOUT') return 'The top-up was not approved in time.';
    return `The top-up did not go through${reason ? ` (${reason})` : ''}.`;
  },
  topUpTryAgain: 'Try the top-up again',
  cancel: 'Cancel',
};

const STATUS_TEXT: Partial<Record<CheckoutStatus, string>> = {
  loading: CHECKOUT_TEXT.loading,
  'reset-phone': CHECKOUT_TEXT.resetTitle,
  'logging-in': CHECKOUT_TEXT.signingIn,
  charging: CHECKOUT_TEXT.paying,
  succeeded: CHECKOUT_TEXT.succeeded,
  failed: CHECKOUT_TEXT.failed,
  expired: CHECKOUT_TEXT.expired,
  canceled: CHECKOUT_TEXT.canceled,
};

/** Which form a status shows: a new form gets new fields, so nothing typed in one step lingers in the next. */
function stepOf(status: CheckoutStatus): string {
  if (status === 'ready' || status === 'logging-in') return 'sign-in';
  if (status === 'otp-verified' || status === 'charging') return 'pay';
  return status;
}

/**
 * The whole checkout: sign in with phone number and password (or reset a forgotten password with
 * a code by SMS), enter the code sent by SMS, pay. Every field has a label, forms submit with
 * Enter, focus moves to the next step's first field, progress is announced politely and errors
 * assertively.
 */
export function Checkout({ theme, className, locale, unstyled, onSuccess, onStatusChange }: CheckoutProps) {
  const checkout = useCheckout();
  const { status, intent, error, pending, otp } = checkout;
  const T = CHECKOUT_TEXT;
  const id = useId();
  const ids = {
    title: `${id}-title`,
    error: `${id}-error`,
    phone: `${id}-phone`,
    password: `${id}-password`,
    code: `${id}-code`,
    hint: `${id}-hint`,
    newPassword: `${id}-new-password`,
    newPasswordHint: `${id}-new-password-hint`,
    topUpPhone: `${id}-topup-phone`,
    topUpHint: `${id}-topup-hint`,
  };
  const stepRef = useRef<HTMLDivElement>(null);
  const previous = useRef<CheckoutStatus>(status);

  useEffect(() => {
    const before = previous.current;
    previous.current = status;
    if (before === status) return;
    onStatusChange?.(status);
    if (status === 'succeeded' && intent) onSuccess?.(intent);
    // Move focus to the new step when the customer caused the change (not on first load).
    if (before !== 'loading') stepRef.current?.querySelector<HTMLElement>('input:not([hidden]), button, [data-caisse-focus]')?.focus();
  }, [status, intent, onStatusChange, onSuccess]);

  const amount = intent ? formatAmount(intent, locale) : '';
  const invalid = error !== undefined;
  const describedBy = (...extra: string[]) => [...extra, ...(invalid ? [ids.error] : [])].join(' ') || undefined;
  const field = (form: HTMLFormElement | null, name: string) => (form ? String(new FormData(form).get(name) ?? '') : '');

  const onLogin = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void checkout.login(field(e.currentTarget, 'phoneNumber'), field(e.currentTarget, 'password'));
  };
  const onVerify = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void checkout.verifyCode(field(e.currentTarget, 'otp'));
  };
  const onRequestReset = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void checkout.requestPasswordReset(field(e.currentTarget, 'phoneNumber'));
  };
  const onConfirmReset = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void checkout.confirmPasswordReset(field(e.currentTarget, 'otp'), field(e.currentTarget, 'newPassword'));
  };
  const onTopUp = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void checkout.startTopUp(field(e.currentTarget, 'phoneNumber'));
  };
  const topUp = checkout.topUp;
  const topUpAmount = topUp ? formatAmount(topUp, locale) : '';

  let message = STATUS_TEXT[status] ?? '';
  if (status === 'otp-sent' && otp) {
    const before = [checkout.passwordChanged ? T.passwordChanged : '', topUp?.topup?.status === 'SUCCEEDED' ? T.topUpReceived(formatAmount(topUp.topup, locale)) : ''];
    message = [...before.filter(Boolean), T.codeSent(otp.destination)].join(' ');
  }
  if (status === 'topup-offer' && topUp) message = T.topUpShort(topUpAmount);
  if (status === 'topup-pending' && topUp) message = T.topUpAwaiting(topUpAmount, topUp.topup?.phoneNumber ?? topUp.phoneNumber);
  if (status === 'otp-verified') message = T.codeVerified;
  if (status === 'reset-code' && checkout.reset) message = T.resetSent(checkout.reset.phoneNumber);
  let errorText = error?.message ?? '';
  if (error?.attemptsRemaining !== undefined) errorText += ` ${T.triesLeft(error.attemptsRemaining)}`;
  if (error && (error.code === 'topup_failed' || error.code === 'topup_timeout')) errorText = T.topUpFailed(error.code, error.failureReason);

  let step: ReactNode = null;
  if (status === 'ready' || status === 'logging-in') {
    const busy = status === 'logging-in';
    step = (
      <form onSubmit={onLogin} aria-describedby={describedBy()}>
        <p className="caisse-hint">
          {T.everyShop}
        </p>
        <label htmlFor={ids.phone}>{T.phoneNumber}</label>
        <input
          id={ids.phone}
          name="phoneNumber"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          required
          defaultValue={checkout.phoneNumber}
          aria-invalid={invalid}
          aria-describedby={describedBy()}
          placeholder={T.phonePlaceholder}
        />
        <label htmlFor={ids.password}>{T.password}</label>
        <input id={ids.password} name="password" type="password" autoComplete="current-password" required aria-invalid={invalid} aria-describedby={describedBy()} />
        <button type="submit" className="caisse-primary" disabled={busy} aria-busy={busy}>
          {busy ? T.signInBusy : T.continue}
        </button>
        <button type="button" className="caisse-link" disabled={busy} onClick={(e) => checkout.forgotPassword(field(e.currentTarget.form, 'phoneNumber'))}>
          {T.forgotPassword}
        </button>
      </form>
    );
  } else if (status === 'reset-phone') {
    step = (
      <form onSubmit={onRequestReset}>
        <p id={ids.hint} className="caisse-hint">
          {T.resetIntro}
        </p>
        <label htmlFor={ids.phone}>{T.phoneNumber}</label>
        <input
          id={ids.phone}
          name="phoneNumber"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          required
          defaultValue={checkout.phoneNumber}
          aria-invalid={invalid}
          aria-describedby={describedBy(ids.hint)}
          placeholder={T.phonePlaceholder}
        />
        <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
          {pending ? T.sending : T.sendResetCode}
        </button>
        <button type="button" className="caisse-secondary" onClick={() => checkout.cancelPasswordReset()} disabled={pending}>
          {T.backToSignIn}
        </button>
      </form>
    );
  } else if (status === 'reset-code') {
    const phoneNumber = checkout.reset?.phoneNumber ?? checkout.phoneNumber ?? '';
    // A refused password is the password field's fault; anything else, the code's.
    const weak = error?.code === 'password_weak';
    step = (
      <form onSubmit={onConfirmReset}>
        <p id={ids.hint} className="caisse-hint">
          {T.resetHint}
        </p>
        {/* For password managers: whose new password this is. */}
        <input type="text" name="username" autoComplete="username" value={phoneNumber} readOnly hidden />
        <OtpCodeInput id={ids.code} label={T.resetCode} invalid={invalid && !weak} describedBy={describedBy(ids.hint)} />
        <label htmlFor={ids.newPassword}>{T.newPassword}</label>
        <input
          id={ids.newPassword}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          aria-invalid={weak}
          aria-describedby={describedBy(ids.newPasswordHint)}
        />
        <p id={ids.newPasswordHint} className="caisse-hint">
          {T.newPasswordHint}
        </p>
        <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
          {pending ? T.settingPassword : T.setPassword}
        </button>
        <button type="button" className="caisse-secondary" onClick={() => void checkout.requestPasswordReset()} disabled={pending}>
          {T.sendNewCode}
        </button>
        <button type="button" className="caisse-link" onClick={() => checkout.cancelPasswordReset()} disabled={pending}>
          {T.backToSignIn}
        </button>
      </form>
    );
  } else if (status === 'topup-offer' && topUp) {
    step = (
      <form onSubmit={onTopUp}>
        <p className="caisse-hint">{T.topUpIntro}</p>
        <label htmlFor={ids.topUpPhone}>{T.topUpPhone}</label>
        <input
          id={ids.topUpPhone}
          name="phoneNumber"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          required
          defaultValue={topUp.phoneNumber}
          aria-invalid={invalid && error.code !== 'insufficient_funds'}
          aria-describedby={describedBy(ids.topUpHint)}
          placeholder={T.phonePlaceholder}
        />
        <p id={ids.topUpHint} className="caisse-hint">
          {T.topUpPhoneHint}
        </p>
        <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
          {pending ? T.topUpStarting : T.topUp(topUpAmount)}
        </button>
        <button type="button" className="caisse-secondary" onClick={() => checkout.cancelTopUp()} disabled={pending}>
          {T.cancel}
        </button>
      </form>
    );
  } else if (status === 'topup-pending') {
    step = (
      <p className="caisse-hint" tabIndex={-1} data-caisse-focus="">
        {T.topUpKeepOpen}
      </p>
    );
  } else if (status === 'topup-failed') {
    step = (
      <>
        <button type="button" className="caisse-primary" onClick={() => void checkout.retryTopUp()} disabled={pending} aria-busy={pending}>
          {T.topUpTryAgain}
        </button>
        <button type="button" className="caisse-secondary" onClick={() => checkout.cancelTopUp()} disabled={pending}>
          {T.cancel}
        </button>
      </>
    );
  } else if (status === 'otp-sent') {
    step = (
      <form onSubmit={onVerify}>
        <p id={ids.hint} className="caisse-hint">
          {T.enterCode(otp?.destination)}
        </p>
        <OtpCodeInput id={ids.code} label={T.verificationCode} invalid={invalid} describedBy={describedBy(ids.hint)} />
        <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
          {pending ? T.checking : T.verify}
        </button>
        <button type="button" className="caisse-secondary" onClick={() => void checkout.resendCode()} disabled={pending}>
          {T.sendNewCode}
        </button>
      </form>
    );
  } else if (status === 'otp-verified' || status === 'charging') {
    const busy = status === 'charging';
    step = (
      <button type="button" className="caisse-primary" onClick={() => void checkout.pay()} disabled={busy} aria-busy={busy} aria-describedby={describedBy()}>
        {busy ? T.paying : T.pay(amount)}
      </button>
    );
  } else if (status === 'succeeded') {
    step = <p className="caisse-success">{T.thankYou(amount)}</p>;
  } else if (status === 'failed') {
    step = checkout.canRetry ? (
      <button type="button" className="caisse-primary" onClick={() => void checkout.retry()} disabled={pending}>
        {T.tryAgain}
      </button>
    ) : (
      <p>{T.noLongerPayable}</p>
    );
  } else if (status === 'expired' || status === 'canceled') {
    step = <p>{T.returnToShop}</p>;
  } else if (status === 'error') {
    step = (
      <button type="button" className="caisse-primary" onClick={() => void checkout.retry()}>
        {T.tryAgain}
      </button>
    );
  }

  return (
    <section
      className={['caisse-checkout', className].filter(Boolean).join(' ')}
      style={themeStyle(theme)}
      aria-labelledby={ids.title}
      aria-busy={status === 'loading' || status === 'logging-in' || status === 'charging' || pending}
      data-status={status}
    >
      {unstyled ? null : <style>{CHECKOUT_CSS}</style>}
      <h2 id={ids.title}>{intent ? (status === 'succeeded' ? T.paid(amount) : T.pay(amount)) : T.title}</h2>
      {intent?.description ? <p className="caisse-description">{intent.description}</p> : null}
      <p role="status" aria-live="polite" className={status === 'succeeded' ? 'caisse-visually-hidden' : 'caisse-status'}>
        {message}
      </p>
      <div ref={stepRef} key={stepOf(status)}>
        {step}
      </div>
      <p id={ids.error} role="alert" aria-live="assertive" className="caisse-error">
        {errorText}
      </p>
    </section>
  );
}
