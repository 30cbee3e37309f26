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
:where(.caisse-checkout) :where(label){display:block;font-weight:600;margin:.75rem 0 .25rem}
:where(.caisse-checkout) :where(input){box-sizing:border-box;width:100%;font:inherit;padding:.5rem .625rem;border:1px solid var(--caisse-border);border-radius:calc(var(--caisse-radius)/2);color:inherit;background:var(--caisse-background)}
:where(.caisse-checkout) :where(input[aria-invalid=true]){border-color:var(--caisse-danger)}
:where(.caisse-checkout) :where(button){font:inherit;font-weight:600;margin-top:1rem;padding:.625rem 1rem;border-radius:calc(var(--caisse-radius)/2);border:1px solid var(--caisse-accent);cursor:pointer}
:where(.caisse-checkout) :where(button.caisse-primary){width:100%;background:var(--caisse-accent);color:var(--caisse-accent-text)}
:where(.caisse-checkout) :where(button.caisse-secondary){background:transparent;color:var(--caisse-accent)}
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

const STATUS_TEXT: Partial<Record<CheckoutStatus, string>> = {
  loading: 'Loading the payment…',
  'logging-in': 'Signing you in…',
  charging: 'Paying…',
  succeeded: 'Payment complete.',
  failed: 'The payment did not go through.',
  expired: 'This payment has expired.',
  canceled: 'This payment was canceled.',
};

/**
 * The whole checkout: sign in with phone number and password, enter the code sent by SMS, pay.
 * Every field has a label, forms submit with Enter, focus moves to the next step's first field,
 * progress is announced politely and errors assertively.
 */
export function Checkout({ theme, className, locale, unstyled, onSuccess, onStatusChange }: CheckoutProps) {
  const checkout = useCheckout();
  const { status, intent, error, pending, otp } = checkout;
  const id = useId();
  const ids = { title: `${id}-title`, error: `${id}-error`, phone: `${id}-phone`, password: `${id}-password`, code: `${id}-code`, hint: `${id}-hint` };
  const stepRef = useRef<HTMLDivElement>(null);
  const previous = useRef<CheckoutStatus>(status);

  useEffect(() => {
    const before = previous.current;
    previous.current = status;
    if (before === status) return;
    onStatusChange?.(status);
    if (status === 'succeeded' && intent) onSuccess?.(intent);
    // Move focus to the new step when the customer caused the change (not on first load).
    if (before !== 'loading') stepRef.current?.querySelector<HTMLElement>('input, button')?.focus();
  }, [status, intent, onStatusChange, onSuccess]);

  const amount = intent ? formatAmount(intent, locale) : '';
  const invalid = error !== undefined;
  const describedBy = (...extra: string[]) => [...extra, ...(invalid ? [ids.error] : [])].join(' ') || undefined;

  const onLogin = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    void checkout.login(String(form.get('phoneNumber') ?? ''), String(form.get('password') ?? ''));
  };
  const onVerify = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void checkout.verifyCode(String(new FormData(e.currentTarget).get('otp') ?? ''));
  };

  let message = STATUS_TEXT[status] ?? '';
  if (status === 'otp-sent' && otp) message = `A code was sent to ${otp.destination}.`;
  if (status === 'otp-verified') message = 'Code verified.';
  let errorText = error?.message ?? '';
  if (error?.attemptsRemaining !== undefined) errorText += ` ${error.attemptsRemaining} ${error.attemptsRemaining === 1 ? 'try' : 'tries'} left.`;

  let step: ReactNode = null;
  if (status === 'ready' || status === 'logging-in') {
    const busy = status === 'logging-in';
    step = (
      <form onSubmit={onLogin} aria-describedby={describedBy()}>
        <label htmlFor={ids.phone}>Phone number</label>
        <input id={ids.phone} name="phoneNumber" type="tel" autoComplete="tel" inputMode="tel" required aria-invalid={invalid} aria-describedby={describedBy()} placeholder="+237 6XX XX XX XX" />
        <label htmlFor={ids.password}>Password</label>
        <input id={ids.password} name="password" type="password" autoComplete="current-password" required aria-invalid={invalid} aria-describedby={describedBy()} />
        <button type="submit" className="caisse-primary" disabled={busy} aria-busy={busy}>
          {busy ? 'Signing in…' : 'Continue'}
        </button>
      </form>
    );
  } else if (status === 'otp-sent') {
    step = (
      <form onSubmit={onVerify}>
        <p id={ids.hint} className="caisse-hint">
          Enter the 6-digit code sent to {otp?.destination ?? 'your phone'}.
        </p>
        <OtpCodeInput id={ids.code} invalid={invalid} describedBy={describedBy(ids.hint)} />
        <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
          {pending ? 'Checking…' : 'Verify code'}
        </button>
        <button type="button" className="caisse-secondary" onClick={() => void checkout.resendCode()} disabled={pending}>
          Send a new code
        </button>
      </form>
    );
  } else if (status === 'otp-verified' || status === 'charging') {
    const busy = status === 'charging';
    step = (
      <button type="button" className="caisse-primary" onClick={() => void checkout.pay()} disabled={busy} aria-busy={busy} aria-describedby={describedBy()}>
        {busy ? 'Paying…' : `Pay ${amount}`}
      </button>
    );
  } else if (status === 'succeeded') {
    step = <p className="caisse-success">Thank you: your payment of {amount} is complete.</p>;
  } else if (status === 'failed') {
    step = checkout.canRetry ? (
      <button type="button" className="caisse-primary" onClick={() => void checkout.retry()} disabled={pending}>
        Try again
      </button>
    ) : (
      <p>This payment can no longer be made. Please return to the shop.</p>
    );
  } else if (status === 'expired' || status === 'canceled') {
    step = <p>Please return to the shop to start a new payment.</p>;
  } else if (status === 'error') {
    step = (
      <button type="button" className="caisse-primary" onClick={() => void checkout.retry()}>
        Try again
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
      <h2 id={ids.title}>{intent ? `${status === 'succeeded' ? 'Paid' : 'Pay'} ${amount}` : 'Payment'}</h2>
      {intent?.description ? <p className="caisse-description">{intent.description}</p> : null}
      <p role="status" aria-live="polite" className={status === 'succeeded' ? 'caisse-visually-hidden' : 'caisse-status'}>
        {message}
      </p>
      <div ref={stepRef}>{step}</div>
      <p id={ids.error} role="alert" aria-live="assertive" className="caisse-error">
        {errorText}
      </p>
    </section>
  );
}
