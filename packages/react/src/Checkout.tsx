import type { PublicPaymentIntent } from '@caisse/browser';
import { type CSSProperties, type FormEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { type CheckoutMessageId, CheckoutIntl, checkoutLanguage, useCheckoutText } from './i18n.tsx';
import { MobileMoneySteps } from './MobileMoney.tsx';
import { OtpCodeInput } from './OtpCodeInput.tsx';
import { type Checkout as CheckoutController, type CheckoutStatus, useCheckout } from './useCheckout.ts';
import { type MobileMoney, type MobileMoneyOptions, type MobileMoneyStatus, useMobileMoney } from './useMobileMoney.ts';

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
:where(.caisse-checkout) :where(a.caisse-return){display:block;text-align:center;font-weight:600;margin-top:1rem;padding:.625rem 1rem;border-radius:calc(var(--caisse-radius)/2);background:var(--caisse-accent);color:var(--caisse-accent-text);text-decoration:none}
:where(.caisse-checkout) :where(fieldset){border:0;padding:0;margin:.75rem 0 0}
:where(.caisse-checkout) :where(legend){font-weight:600;padding:0}
:where(.caisse-checkout) :where(.caisse-visually-hidden){position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

export interface CheckoutProps {
  theme?: CheckoutTheme;
  className?: string;
  /**
   * The language of the texts and the locale of amounts, a BCP 47 tag such as `fr-CM` or `en`
   * (default: the browser's languages). French and English exist; when neither is asked for, the
   * merchant's default language (sent with the intent), else French. Once the customer signs in,
   * their saved language wins.
   */
  locale?: string;
  /** Leave out the default stylesheet (style .caisse-checkout yourself). */
  unstyled?: boolean;
  /** Called once the payment succeeded. Fulfil the order on the webhook, not here. */
  onSuccess?: (intent: PublicPaymentIntent) => void;
  /** Called on every step change. */
  onStatusChange?: (status: CheckoutStatus) => void;
  /** Your shop's name, shown once the payment succeeded. */
  merchantName?: string;
  /** Where "back to the shop" leads once the payment is over (default: the intent's `returnUrl`). */
  returnUrl?: string;
  /** The mobile-money flow's redirect and timers (tests). */
  mobileMoney?: MobileMoneyOptions;
}

/** The mobile-money screens that stand for a step of the wallet flow (for `onStatusChange`). */
const MOBILE_MONEY_STEP: Partial<Record<MobileMoneyStatus, CheckoutStatus>> = {
  choose: 'ready',
  submitting: 'charging',
  waiting: 'charging',
  redirecting: 'charging',
  failed: 'failed',
  succeeded: 'succeeded',
  ended: 'failed',
};

/**
 * Whether the mobile-money screens show: from the methods screen on, unless the intent was already
 * over (or not readable) when the page opened, or the payer chose the wallet.
 */
function mobileMoneyShown(mm: MobileMoney, status: CheckoutStatus): boolean {
  if (mm.status === 'loading' || mm.status === 'wallet') return false;
  // Back from a provider's page still open, the intent is still PROCESSING while the payer chooses again.
  if (mm.status === 'choose') return status === 'ready' || (status === 'charging' && mm.choosingAgain === true);
  return true;
}

/** What the polite status line says at each step that has nothing more to say. */
const STATUS_TEXT: Partial<Record<CheckoutStatus, CheckoutMessageId>> = {
  loading: 'checkout.loading',
  'reset-phone': 'checkout.resetTitle',
  'logging-in': 'checkout.signingIn',
  charging: 'checkout.paying',
  succeeded: 'checkout.succeeded',
  failed: 'checkout.failed',
  expired: 'checkout.expired',
  canceled: 'checkout.canceled',
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
 * assertively. Its texts are in French or English (`locale`).
 */
export function Checkout(props: CheckoutProps) {
  const checkout = useCheckout();
  const mm = useMobileMoney(checkout.intent, props.mobileMoney);
  const choice = checkoutLanguage({ saved: checkout.user?.language, locale: props.locale, merchantDefault: checkout.intent?.merchantLanguage });
  return (
    <CheckoutIntl choice={choice}>
      <CheckoutSteps {...props} checkout={checkout} mm={mm} />
    </CheckoutIntl>
  );
}

function CheckoutSteps({
  theme,
  className,
  unstyled,
  onSuccess,
  onStatusChange,
  checkout,
  mm,
  merchantName,
  returnUrl,
}: CheckoutProps & { checkout: CheckoutController; mm: MobileMoney }) {
  const { error, pending, otp } = checkout;
  const mobile = mobileMoneyShown(mm, checkout.status);
  // The page waits for the methods before offering any.
  const status: CheckoutStatus = mobile
    ? (MOBILE_MONEY_STEP[mm.status] ?? checkout.status)
    : mm.status === 'loading' && checkout.status === 'ready'
      ? 'loading'
      : checkout.status;
  const intent = (mobile && mm.intent ? mm.intent : checkout.intent) as PublicPaymentIntent | undefined;
  const { t, amount: money, error: describe, locale } = useCheckoutText();
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

  const amount = intent ? money(intent) : '';
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
    void checkout.startTopUp(field(e.currentTarget, 'phoneNumber'), field(e.currentTarget, 'provider') || undefined);
  };
  const topUp = checkout.topUp;
  const topUpAmount = topUp ? money(topUp) : '';
  const provider = topUp?.providers.find((p) => p.provider === topUp.provider)?.name ?? '';

  const statusText = STATUS_TEXT[status];
  let message = statusText ? t(statusText) : '';
  if (status === 'otp-sent' && otp) {
    // Whole sentences, one after the other: what just happened, then where the code went.
    const before = [
      checkout.passwordChanged ? t('checkout.passwordChanged') : '',
      topUp?.topup?.status === 'SUCCEEDED' ? t('checkout.topUpReceived', { amount: money(topUp.topup) }) : '',
    ];
    message = [...before.filter(Boolean), t('checkout.codeSent', { destination: otp.destination })].join(' ');
  }
  if (status === 'otp-sent' && error?.code === 'otp_rate_limited') message = t('checkout.codeStillValid');
  if (status === 'topup-offer' && topUp) message = t('checkout.topUpShort', { missing: topUpAmount });
  if (status === 'topup-pending' && topUp)
    message = t('checkout.topUpAwaiting', { amount: topUpAmount, phoneNumber: topUp.topup?.phoneNumber ?? topUp.phoneNumber, provider });
  if (status === 'otp-verified') message = t('checkout.codeVerified');
  if (status === 'reset-code' && checkout.reset) message = t('checkout.resetSent', { phoneNumber: checkout.reset.phoneNumber });
  const errorText = mobile ? '' : describe(error);

  if (mobile) message = mm.status === 'succeeded' || mm.status === 'failed' ? message : '';

  // The intent's own returnUrl unless the page gives one (a wallet payment never reads mm.intent).
  const backUrl = returnUrl ?? mm.intent?.returnUrl ?? (checkout.intent as { returnUrl?: string | null } | undefined)?.returnUrl ?? undefined;
  let step: ReactNode = null;
  if (mobile) {
    step = <MobileMoneySteps mm={mm} amount={amount} merchantName={merchantName} returnUrl={backUrl} />;
  } else if (status === 'ready' || status === 'logging-in') {
    const busy = status === 'logging-in';
    step = (
      <form onSubmit={onLogin} aria-describedby={describedBy()}>
        <p className="caisse-hint">{t('checkout.everyShop')}</p>
        <label htmlFor={ids.phone}>{t('checkout.phoneNumber')}</label>
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
          placeholder={t('checkout.phonePlaceholder')}
        />
        <label htmlFor={ids.password}>{t('checkout.password')}</label>
        <input
          id={ids.password}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={invalid}
          aria-describedby={describedBy()}
        />
        <button type="submit" className="caisse-primary" disabled={busy} aria-busy={busy}>
          {busy ? t('checkout.signInBusy') : t('checkout.continue')}
        </button>
        <button type="button" className="caisse-link" disabled={busy} onClick={(e) => checkout.forgotPassword(field(e.currentTarget.form, 'phoneNumber'))}>
          {t('checkout.forgotPassword')}
        </button>
        {mm.mobileMoney.length > 0 && (
          <button type="button" className="caisse-secondary" disabled={busy} onClick={() => mm.payAnotherWay()}>
            {t('mm.payAnotherWay')}
          </button>
        )}
      </form>
    );
  } else if (status === 'reset-phone') {
    step = (
      <form onSubmit={onRequestReset}>
        <p id={ids.hint} className="caisse-hint">
          {t('checkout.resetIntro')}
        </p>
        <label htmlFor={ids.phone}>{t('checkout.phoneNumber')}</label>
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
          placeholder={t('checkout.phonePlaceholder')}
        />
        <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
          {pending ? t('checkout.sending') : t('checkout.sendResetCode')}
        </button>
        <button type="button" className="caisse-secondary" onClick={() => checkout.cancelPasswordReset()} disabled={pending}>
          {t('checkout.backToSignIn')}
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
          {t('checkout.resetHint')}
        </p>
        {/* For password managers: whose new password this is. */}
        <input type="text" name="username" autoComplete="username" value={phoneNumber} readOnly hidden />
        <OtpCodeInput id={ids.code} label={t('checkout.resetCode')} invalid={invalid && !weak} describedBy={describedBy(ids.hint)} />
        <label htmlFor={ids.newPassword}>{t('checkout.newPassword')}</label>
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
          {t('checkout.newPasswordHint')}
        </p>
        <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
          {pending ? t('checkout.settingPassword') : t('checkout.setPassword')}
        </button>
        <button type="button" className="caisse-secondary" onClick={() => void checkout.requestPasswordReset()} disabled={pending}>
          {t('checkout.sendNewCode')}
        </button>
        <button type="button" className="caisse-link" onClick={() => checkout.cancelPasswordReset()} disabled={pending}>
          {t('checkout.backToSignIn')}
        </button>
      </form>
    );
  } else if (status === 'topup-offer' && topUp) {
    step = (
      <form onSubmit={onTopUp}>
        <p className="caisse-hint">{t('checkout.topUpIntro')}</p>
        {topUp.providers.length > 1 && (
          <fieldset>
            <legend>{t('checkout.topUpProvider')}</legend>
            {topUp.providers.map((p) => (
              <label key={p.provider} htmlFor={`${id}-topup-${p.provider}`}>
                <input
                  id={`${id}-topup-${p.provider}`}
                  type="radio"
                  name="provider"
                  value={p.provider}
                  defaultChecked={p.provider === topUp.provider}
                  onChange={() => checkout.chooseTopUpProvider(p.provider)}
                />{' '}
                {p.name}
              </label>
            ))}
          </fieldset>
        )}
        <label htmlFor={ids.topUpPhone}>{t('checkout.topUpPhone', { provider })}</label>
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
          placeholder={t('checkout.phonePlaceholder')}
        />
        <p id={ids.topUpHint} className="caisse-hint">
          {t('checkout.topUpPhoneHint')}
        </p>
        <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
          {pending ? t('checkout.topUpStarting', { provider }) : t('checkout.topUp', { amount: topUpAmount, provider })}
        </button>
        <button type="button" className="caisse-secondary" onClick={() => checkout.cancelTopUp()} disabled={pending}>
          {t('checkout.cancel')}
        </button>
      </form>
    );
  } else if (status === 'topup-pending') {
    step = (
      <p className="caisse-hint" tabIndex={-1} data-caisse-focus="">
        {t('checkout.topUpKeepOpen')}
      </p>
    );
  } else if (status === 'topup-failed') {
    step = (
      <>
        <button type="button" className="caisse-primary" onClick={() => void checkout.retryTopUp()} disabled={pending} aria-busy={pending}>
          {t('checkout.topUpTryAgain')}
        </button>
        <button type="button" className="caisse-secondary" onClick={() => checkout.cancelTopUp()} disabled={pending}>
          {t('checkout.cancel')}
        </button>
      </>
    );
  } else if (status === 'otp-sent') {
    step = (
      <form onSubmit={onVerify}>
        <p id={ids.hint} className="caisse-hint">
          {otp?.destination ? t('checkout.enterCode', { destination: otp.destination }) : t('checkout.enterCodeToPhone')}
        </p>
        <OtpCodeInput id={ids.code} label={t('checkout.verificationCode')} invalid={invalid} describedBy={describedBy(ids.hint)} />
        <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
          {pending ? t('checkout.checking') : t('checkout.verify')}
        </button>
        <button type="button" className="caisse-secondary" onClick={() => void checkout.resendCode()} disabled={pending}>
          {t('checkout.sendNewCode')}
        </button>
      </form>
    );
  } else if (status === 'otp-verified' || status === 'charging') {
    const busy = status === 'charging';
    step = (
      <button type="button" className="caisse-primary" onClick={() => void checkout.pay()} disabled={busy} aria-busy={busy} aria-describedby={describedBy()}>
        {busy ? t('checkout.paying') : t('checkout.pay', { amount })}
      </button>
    );
  } else if (status === 'succeeded') {
    step = (
      <>
        <p className="caisse-success" tabIndex={-1} data-caisse-focus="">
          {merchantName ? t('mm.paidTo', { amount, merchant: merchantName }) : t('checkout.thankYou', { amount })}
        </p>
        {intent ? <p className="caisse-hint caisse-reference">{t('checkout.reference', { id: intent.id })}</p> : null}
        {backUrl ? (
          <p>
            <a href={backUrl} className="caisse-return">
              {merchantName ? t('checkout.returnTo', { merchant: merchantName }) : t('mm.backToShop')}
            </a>
          </p>
        ) : null}
      </>
    );
  } else if (status === 'failed') {
    step = checkout.canRetry ? (
      <button type="button" className="caisse-primary" onClick={() => void checkout.retry()} disabled={pending}>
        {t('checkout.tryAgain')}
      </button>
    ) : (
      <p>{t('checkout.noLongerPayable')}</p>
    );
  } else if (status === 'expired' || status === 'canceled') {
    step = <p>{t('checkout.returnToShop')}</p>;
  } else if (status === 'error') {
    step = (
      <button type="button" className="caisse-primary" onClick={() => void checkout.retry()}>
        {t('checkout.tryAgain')}
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
      lang={locale}
    >
      {unstyled ? null : <style>{CHECKOUT_CSS}</style>}
      <h2 id={ids.title}>{intent ? (status === 'succeeded' ? t('checkout.paid', { amount }) : t('checkout.pay', { amount })) : t('checkout.title')}</h2>
      {intent?.description ? <p className="caisse-description">{intent.description}</p> : null}
      <p role="status" aria-live="polite" className={status === 'succeeded' ? 'caisse-visually-hidden' : 'caisse-status'}>
        {message}
      </p>
      <div ref={stepRef} key={mobile ? 'mobile-money' : stepOf(status)}>
        {step}
      </div>
      <p id={ids.error} role="alert" aria-live="assertive" className="caisse-error">
        {errorText}
      </p>
    </section>
  );
}
