import type { PublicPaymentIntent } from '@caisse/browser';
import { type CSSProperties, type ReactNode, useEffect, useId, useRef } from 'react';
import { type CheckoutMessageId, CheckoutIntl, checkoutLanguage, useCheckoutText } from './i18n.tsx';
import { MobileMoneySteps } from './MobileMoney.tsx';
import { CodeStep } from './steps/CodeStep.tsx';
import { FailedStep } from './steps/FailedStep.tsx';
import { PayStep } from './steps/PayStep.tsx';
import { ResetCodeStep } from './steps/ResetCodeStep.tsx';
import { ResetPhoneStep } from './steps/ResetPhoneStep.tsx';
import { SignInStep } from './steps/SignInStep.tsx';
import { SucceededStep } from './steps/SucceededStep.tsx';
import { TopUpFailedStep } from './steps/TopUpFailedStep.tsx';
import { TopUpOfferStep } from './steps/TopUpOfferStep.tsx';
import { TopUpPendingStep } from './steps/TopUpPendingStep.tsx';
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
:where(.caisse-checkout) :where(.caisse-forgot,.caisse-actions){margin:0}
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
  /** Leave out the default stylesheet: style `.caisse-checkout` and its `caisse-*` classes yourself (the README lists them). */
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
  const common = { checkout, errorId: invalid ? ids.error : undefined, explicitValid: true };
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
  const phonePlaceholder = t('checkout.phonePlaceholder');
  let step: ReactNode = null;
  if (mobile) {
    step = <MobileMoneySteps mm={mm} amount={amount} merchantName={merchantName} returnUrl={backUrl} />;
  } else if (status === 'ready' || status === 'logging-in') {
    step = (
      <SignInStep
        {...common}
        ids={ids}
        onPayAnotherWay={() => mm.payAnotherWay()}
        texts={{
          everyShop: t('checkout.everyShop'),
          phoneNumber: t('checkout.phoneNumber'),
          phonePlaceholder,
          password: t('checkout.password'),
          continue: t('checkout.continue'),
          signingIn: t('checkout.signInBusy'),
          forgotPassword: t('checkout.forgotPassword'),
          ...(mm.mobileMoney.length > 0 ? { payAnotherWay: t('mm.payAnotherWay') } : {}),
        }}
      />
    );
  } else if (status === 'reset-phone') {
    const texts = { intro: t('checkout.resetIntro'), phoneNumber: t('checkout.phoneNumber'), phonePlaceholder };
    step = (
      <ResetPhoneStep
        {...common}
        ids={{ intro: ids.hint, phone: ids.phone }}
        texts={{ ...texts, sending: t('checkout.sending'), sendResetCode: t('checkout.sendResetCode'), backToSignIn: t('checkout.backToSignIn') }}
      />
    );
  } else if (status === 'reset-code') {
    step = (
      <ResetCodeStep
        {...common}
        ids={{ hint: ids.hint, code: ids.code, newPassword: ids.newPassword, newPasswordHint: ids.newPasswordHint }}
        texts={{
          hint: t('checkout.resetHint'),
          code: t('checkout.resetCode'),
          newPassword: t('checkout.newPassword'),
          newPasswordHint: t('checkout.newPasswordHint'),
          settingPassword: t('checkout.settingPassword'),
          setPassword: t('checkout.setPassword'),
          sendNewCode: t('checkout.sendNewCode'),
          backToSignIn: t('checkout.backToSignIn'),
        }}
      />
    );
  } else if (status === 'topup-offer' && topUp) {
    step = (
      <TopUpOfferStep
        {...common}
        ids={{ intro: `${id}-topup-intro`, phone: ids.topUpPhone, phoneHint: ids.topUpHint, provider: (p) => `${id}-topup-${p}` }}
        texts={{
          intro: t('checkout.topUpIntro'),
          provider: t('checkout.topUpProvider'),
          phoneNumber: t('checkout.topUpPhone', { provider }),
          phoneHint: t('checkout.topUpPhoneHint'),
          phonePlaceholder,
          starting: t('checkout.topUpStarting', { provider }),
          topUp: t('checkout.topUp', { amount: topUpAmount, provider }),
          cancel: t('checkout.cancel'),
        }}
      />
    );
  } else if (status === 'topup-pending') {
    step = <TopUpPendingStep texts={{ keepOpen: t('checkout.topUpKeepOpen') }} />;
  } else if (status === 'topup-failed') {
    step = <TopUpFailedStep checkout={checkout} texts={{ tryAgain: t('checkout.topUpTryAgain'), cancel: t('checkout.cancel') }} />;
  } else if (status === 'otp-sent') {
    step = (
      <CodeStep
        {...common}
        ids={{ hint: ids.hint, code: ids.code }}
        texts={{
          hint: otp?.destination ? t('checkout.enterCode', { destination: otp.destination }) : t('checkout.enterCodeToPhone'),
          code: t('checkout.verificationCode'),
          checking: t('checkout.checking'),
          verify: t('checkout.verify'),
          sendNewCode: t('checkout.sendNewCode'),
        }}
      />
    );
  } else if (status === 'otp-verified' || status === 'charging') {
    step = <PayStep {...common} texts={{ paying: t('checkout.paying'), pay: t('checkout.pay', { amount }) }} />;
  } else if (status === 'succeeded') {
    step = (
      <SucceededStep
        returnUrl={backUrl}
        texts={{
          message: merchantName ? t('mm.paidTo', { amount, merchant: merchantName }) : t('checkout.thankYou', { amount }),
          ...(intent ? { reference: t('checkout.reference', { id: intent.id }) } : {}),
          returnTo: merchantName ? t('checkout.returnTo', { merchant: merchantName }) : t('mm.backToShop'),
        }}
      />
    );
  } else if (status === 'failed') {
    step = <FailedStep checkout={checkout} texts={{ tryAgain: t('checkout.tryAgain'), noLonger: t('checkout.noLongerPayable') }} />;
  } else if (status === 'expired' || status === 'canceled') {
    step = <p>{t('checkout.returnToShop')}</p>;
  } else if (status === 'error') {
    step = <FailedStep checkout={checkout} canRetry texts={{ tryAgain: t('checkout.tryAgain') }} />;
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
