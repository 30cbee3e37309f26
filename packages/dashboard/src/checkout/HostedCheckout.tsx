import { chooseLanguage, type Language, type LanguageChoice } from '@caisse/intl';
import { CaisseProvider, type CheckoutStatus, MobileMoneySteps, OtpCodeInput, useCheckout, useCheckoutText, useMobileMoney } from '@caisse/react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { type MessageId, type Messages, TextsIntl, useDocumentLanguage, useI18n } from '../shared/intl.tsx';

/**
 * What the server embeds in the page's `caisse-checkout` meta tag (dashboard.pages.ts), with the
 * language it chose from Accept-Language and the merchant's default.
 */
export type CheckoutConfig = LanguageChoice &
  Catalogues &
  ({ apiKey: string; merchantName: string; livemode: boolean; returnUrl?: string | null } | { error: 'not_found' });

/**
 * The page's texts: the catalogue of `language` (the hosted page's and @caisse/react's texts in
 * one), which the server puts in the HTML so none is fetched before the first screen, and where
 * the others are, fetched only if the customer's saved language differs.
 */
export type Catalogues = { messages: Messages; catalogues: Partial<Record<Language, string>> };

type Channel = 'sms' | 'email';

/** The steps shown above the form; with a "Top up" step once the wallet was found short. */
const STEPS: MessageId[] = ['hosted.stepSignIn', 'hosted.stepCode', 'hosted.stepPay'];
const STEPS_WITH_TOP_UP: MessageId[] = ['hosted.stepSignIn', 'hosted.stepTopUp', 'hosted.stepCode', 'hosted.stepPay'];

const RESET: CheckoutStatus[] = ['reset-phone', 'reset-code'];
const TOP_UP: CheckoutStatus[] = ['topup-offer', 'topup-pending', 'topup-failed'];

/** Where the customer is in `steps` (with a "Top up" step once the wallet was found short). */
function stepIndex(status: CheckoutStatus, withTopUp: boolean): number {
  const after = withTopUp ? 1 : 0;
  if (TOP_UP.includes(status)) return 1;
  if (status === 'otp-sent') return 1 + after;
  if (status === 'otp-verified' || status === 'charging') return 2 + after;
  return 0;
}

/** One element per form: no field of one step is reused for the next (a typed password must never become the code field's value). */
function stepKey(status: CheckoutStatus): string {
  if (status === 'ready' || status === 'logging-in') return 'sign-in';
  if (RESET.includes(status) || status === 'otp-sent') return status;
  if (status === 'otp-verified' || status === 'charging') return 'pay';
  return status;
}

/** Set once the customer clicked or submitted something on the page: from then on, new steps take focus. */
let customerActed = false;
const acted = () => {
  customerActed = true;
};

/** A heading that takes focus when it appears after the customer acted, so screen readers follow. */
function StepTitle({ children, id }: { children: ReactNode; id?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (customerActed || (document.activeElement && document.activeElement !== document.body)) ref.current?.focus();
  }, []);
  return (
    <h2 tabIndex={-1} ref={ref} id={id}>
      {children}
    </h2>
  );
}

function Outcome({ icon, title, children }: { icon: string; title: string; children: ReactNode }) {
  return (
    <div className="outcome">
      <div className="icon" aria-hidden="true">
        {icon}
      </div>
      <StepTitle>{title}</StepTitle>
      {children}
    </div>
  );
}

/**
 * The step to show. An `error` whose intent has meanwhile reached an end (a charge answered 409
 * `intent_expired`, and the intent read again says EXPIRED) shows that end, not a generic error.
 */
function shownStatus(status: CheckoutStatus, intentStatus: string | undefined, errorCode: string | undefined): CheckoutStatus {
  if (status !== 'error') return status;
  if (intentStatus === 'EXPIRED' || errorCode === 'intent_expired') return 'expired';
  if (intentStatus === 'CANCELED') return 'canceled';
  if (intentStatus === 'SUCCEEDED' || intentStatus === 'PARTIALLY_REFUNDED' || intentStatus === 'REFUNDED') return 'succeeded';
  return status;
}

function Flow({
  merchantName,
  returnUrl: configured,
  onSavedLanguage,
}: {
  merchantName: string;
  returnUrl?: string | null;
  onSavedLanguage: (language: string | null) => void;
}) {
  const checkout = useCheckout();
  const mm = useMobileMoney(checkout.intent);
  const { t, rich, money } = useI18n();
  const { error: describe, t: text } = useCheckoutText();
  const { intent, error, pending, otp } = checkout;
  const status = shownStatus(checkout.status, intent?.status, error?.code);
  // Mobile money first (from the methods screen on), unless the intent was over when the page opened or the payer chose the wallet.
  const mobile = mm.status !== 'loading' && mm.status !== 'wallet' && (mm.status !== 'choose' || status === 'ready');
  // The intent's own returnUrl when the page was not given one (a wallet payment never reads mm.intent).
  const returnUrl = configured ?? mm.intent?.returnUrl ?? (intent as { returnUrl?: string | null } | undefined)?.returnUrl ?? undefined;
  const back = returnUrl ? (
    <p>
      <a className="button" href={returnUrl}>
        {t('hosted.returnTo', { merchant: merchantName })}
      </a>
    </p>
  ) : null;
  const [channel, setChannel] = useState<Channel>('sms');
  const amount = intent ? money(intent.amount, intent.currency) : '';
  const merchant = merchantName;
  const savedLanguage = checkout.user?.language ?? null;

  // Once signed in, the customer's saved language is the page's.
  useEffect(() => onSavedLanguage(savedLanguage), [savedLanguage, onSavedLanguage]);

  const docTitle = intent ? t('hosted.docTitle', { amount, merchant }) : t('hosted.payMerchant', { merchant });
  useEffect(() => {
    document.title = docTitle;
  }, [docTitle]);

  const errorText = describe(error);
  const topUp = checkout.topUp;
  const topUpAmount = topUp ? money(topUp.amount, topUp.currency) : '';
  const topUpPhone = topUp?.topup?.phoneNumber ?? topUp?.phoneNumber ?? '';
  const provider = topUp?.providers.find((p) => p.provider === topUp.provider)?.name ?? '';
  const alert =
    errorText && !['failed', 'expired', 'canceled'].includes(status) ? (
      <div className="notice error" role="alert" id="step-error">
        {errorText}
      </div>
    ) : null;
  const invalid = error ? true : undefined;
  const describedBy = (...ids: string[]) => [...ids, ...(alert ? ['step-error'] : [])].join(' ') || undefined;
  const phoneOf = (form: HTMLFormElement | null) => String((form && new FormData(form).get('phoneNumber')) ?? '').replace(/[\s.-]+/g, '');

  function signIn(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void checkout.login(phoneOf(e.currentTarget), String(new FormData(e.currentTarget).get('password') ?? ''), channel);
  }

  function requestReset(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void checkout.requestPasswordReset(phoneOf(e.currentTarget));
  }

  function confirmReset(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    void checkout.confirmPasswordReset(String(form.get('otp') ?? ''), String(form.get('newPassword') ?? ''), channel);
  }

  function startTopUp(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void checkout.startTopUp(phoneOf(e.currentTarget), String(new FormData(e.currentTarget).get('provider') ?? '') || undefined);
  }

  function verify(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void checkout.verifyCode(String(new FormData(e.currentTarget).get('otp') ?? ''));
  }

  let body: ReactNode;
  switch (status) {
    case 'loading':
      body = <p role="status">{t('hosted.loading')}</p>;
      break;
    case 'ready':
    case 'logging-in':
      body = (
        <form onSubmit={signIn} aria-labelledby="signin-step">
          <StepTitle id="signin-step">{t('hosted.signInTitle')}</StepTitle>
          <p className="hint">{t('hosted.everyShop')}</p>
          {alert}
          <div className="field">
            <label htmlFor="phone">
              {t('hosted.phoneNumber')} <span className="hint">{t('hosted.phoneHint')}</span>
            </label>
            <input
              id="phone"
              name="phoneNumber"
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              required
              defaultValue={checkout.phoneNumber}
              aria-invalid={invalid}
              aria-describedby={describedBy()}
            />
          </div>
          <div className="field">
            <label htmlFor="password">{t('hosted.password')}</label>
            <input
              id="password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              aria-invalid={invalid}
              aria-describedby={describedBy()}
            />
          </div>
          <fieldset className="field">
            <legend>{t('hosted.sendCodeBy')}</legend>
            <label className="check" htmlFor="ch-sms">
              <input id="ch-sms" type="radio" name="channel" value="sms" checked={channel === 'sms'} onChange={() => setChannel('sms')} />
              {t('hosted.sms')}
            </label>
            <label className="check" htmlFor="ch-email">
              <input id="ch-email" type="radio" name="channel" value="email" checked={channel === 'email'} onChange={() => setChannel('email')} />
              {t('hosted.email')}
            </label>
          </fieldset>
          <button type="submit" disabled={status === 'logging-in'} aria-busy={status === 'logging-in'}>
            {status === 'logging-in' ? t('hosted.signingIn') : t('hosted.continue')}
          </button>
          <p className="forgot">
            <button type="button" className="link" disabled={status === 'logging-in'} onClick={(e) => checkout.forgotPassword(phoneOf(e.currentTarget.form))}>
              {t('hosted.forgotPassword')}
            </button>
          </p>
          {mm.mobileMoney.length > 0 && (
            <div className="actions">
              <button type="button" className="secondary" disabled={status === 'logging-in'} onClick={() => mm.payAnotherWay()}>
                {text('mm.payAnotherWay')}
              </button>
            </div>
          )}
        </form>
      );
      break;
    case 'reset-phone':
      body = (
        <form onSubmit={requestReset} aria-labelledby="reset-step">
          <StepTitle id="reset-step">{t('hosted.resetTitle')}</StepTitle>
          <p id="reset-intro">{t('hosted.resetIntro')}</p>
          {alert}
          <div className="field">
            <label htmlFor="reset-phone">
              {t('hosted.phoneNumber')} <span className="hint">{t('hosted.phoneHint')}</span>
            </label>
            <input
              id="reset-phone"
              name="phoneNumber"
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              required
              defaultValue={checkout.phoneNumber}
              aria-invalid={invalid}
              aria-describedby={describedBy('reset-intro')}
            />
          </div>
          <button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? t('hosted.sending') : t('hosted.sendResetCode')}
          </button>
          <div className="actions">
            <button type="button" className="secondary" disabled={pending} onClick={() => checkout.cancelPasswordReset()}>
              {t('hosted.backToSignIn')}
            </button>
          </div>
        </form>
      );
      break;
    case 'reset-code': {
      const phone = checkout.reset?.phoneNumber ?? checkout.phoneNumber ?? '';
      // A refused password is the password field's fault; anything else, the code's.
      const weak = error?.code === 'password_weak';
      body = (
        <form onSubmit={confirmReset} aria-labelledby="new-password-step">
          <StepTitle id="new-password-step">{t('hosted.newPasswordTitle')}</StepTitle>
          <p id="reset-hint">{rich('hosted.resetSent', { phone })}</p>
          {alert}
          {/* For password managers: whose new password this is. */}
          <input type="text" name="username" autoComplete="username" value={phone} readOnly hidden />
          <div className="field">
            <OtpCodeInput id="reset-code" label={t('hosted.resetCode')} describedBy={describedBy('reset-hint')} invalid={error && !weak ? true : undefined} />
          </div>
          <div className="field">
            <label htmlFor="new-password">
              {t('hosted.newPassword')} <span className="hint">{t('hosted.newPasswordHint')}</span>
            </label>
            <input
              id="new-password"
              name="newPassword"
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              aria-invalid={weak || undefined}
              aria-describedby={describedBy()}
            />
          </div>
          <button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? t('hosted.savingPassword') : t('hosted.setPassword')}
          </button>
          <div className="actions">
            <button type="button" className="secondary" disabled={pending} onClick={() => void checkout.requestPasswordReset()}>
              {t('hosted.sendNewCode')}
            </button>
            <button type="button" className="secondary" disabled={pending} onClick={() => checkout.cancelPasswordReset()}>
              {t('hosted.backToSignIn')}
            </button>
          </div>
        </form>
      );
      break;
    }
    case 'topup-offer':
      body = (
        <form onSubmit={startTopUp} aria-labelledby="topup-step">
          <StepTitle id="topup-step">{t('hosted.topUpTitle')}</StepTitle>
          <p id="topup-intro">{rich('hosted.topUpShort', { missing: topUpAmount, amount })}</p>
          {alert}
          {topUp && topUp.providers.length > 1 && (
            <fieldset className="field">
              <legend>{t('hosted.topUpProvider')}</legend>
              {topUp.providers.map((p) => (
                <label key={p.provider} className="check" htmlFor={`topup-${p.provider}`}>
                  <input
                    id={`topup-${p.provider}`}
                    type="radio"
                    name="provider"
                    value={p.provider}
                    checked={p.provider === topUp.provider}
                    onChange={() => checkout.chooseTopUpProvider(p.provider)}
                  />
                  {p.name}
                </label>
              ))}
            </fieldset>
          )}
          <div className="field">
            <label htmlFor="topup-phone">
              {t('hosted.topUpPhone', { provider })} <span className="hint">{t('hosted.topUpPhoneHint')}</span>
            </label>
            <input
              id="topup-phone"
              name="phoneNumber"
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              required
              defaultValue={topUp?.phoneNumber}
              aria-invalid={error && error.code !== 'insufficient_funds' ? true : undefined}
              aria-describedby={describedBy('topup-intro')}
            />
          </div>
          <button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? t('hosted.topUpStarting', { provider }) : t('hosted.topUp', { amount: topUpAmount, provider })}
          </button>
          <div className="actions">
            <button type="button" className="secondary" disabled={pending} onClick={() => checkout.cancelTopUp()}>
              {t('hosted.cancel')}
            </button>
          </div>
        </form>
      );
      break;
    case 'topup-pending':
      body = (
        <div>
          <StepTitle>{t('hosted.topUpPendingTitle')}</StepTitle>
          <p>{rich('hosted.topUpAsked', { amount: topUpAmount, phone: topUpPhone, provider })}</p>
          <p className="hint">{t('hosted.topUpKeepOpen')}</p>
        </div>
      );
      break;
    case 'topup-failed':
      body = (
        <div>
          <StepTitle>{t('hosted.topUpFailedTitle')}</StepTitle>
          {alert}
          <p>{t('hosted.topUpNothingTaken')}</p>
          <button type="button" className="wide" disabled={pending} aria-busy={pending} onClick={() => void checkout.retryTopUp()}>
            {t('hosted.topUpTryAgain')}
          </button>
          <div className="actions">
            <button type="button" className="secondary" disabled={pending} onClick={() => checkout.cancelTopUp()}>
              {t('hosted.cancel')}
            </button>
          </div>
        </div>
      );
      break;
    case 'otp-sent':
      body = (
        <form onSubmit={verify}>
          <StepTitle>{t('hosted.codeTitle')}</StepTitle>
          {checkout.passwordChanged && (
            <p className="notice success" role="status">
              {t('hosted.passwordChanged')}
            </p>
          )}
          <p id="code-hint">
            {/* Signed in again moments after a code was sent: no new one went out; the last one may still work. */}
            {otp === undefined || error?.code === 'otp_rate_limited'
              ? t('hosted.codeStillValid')
              : rich(otp.channel === 'email' ? 'hosted.codeSentEmail' : 'hosted.codeSentSms', { destination: otp.destination, merchant, amount })}
          </p>
          {alert}
          <div className="field">
            <OtpCodeInput id="otp" label={t('hosted.code')} describedBy={describedBy('code-hint')} invalid={invalid} />
          </div>
          <button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? t('hosted.checking') : t('hosted.verify')}
          </button>
          <div className="actions">
            <button type="button" className="secondary" disabled={pending} onClick={() => void checkout.resendCode(otp?.channel)}>
              {t('hosted.sendNewCode')}
            </button>
            <button type="button" className="secondary" disabled={pending} onClick={() => void checkout.resendCode(otp?.channel === 'email' ? 'sms' : 'email')}>
              {otp?.channel === 'email' ? t('hosted.sendBySms') : t('hosted.sendByEmail')}
            </button>
          </div>
        </form>
      );
      break;
    case 'otp-verified':
    case 'charging':
      body = (
        <div>
          <StepTitle>{t('hosted.confirmTitle')}</StepTitle>
          <p>{rich('hosted.confirmText', { amount, merchant })}</p>
          {alert}
          <button type="button" className="wide" onClick={() => void checkout.pay()} disabled={status === 'charging'} aria-busy={status === 'charging'}>
            {status === 'charging' ? t('hosted.paying') : t('hosted.pay', { amount })}
          </button>
        </div>
      );
      break;
    case 'succeeded':
      body = (
        <Outcome icon="✓" title={t('hosted.succeededTitle')}>
          <p>{rich('hosted.succeededText', { amount, merchant })}</p>
          <p className="hint">{rich('hosted.reference', { id: intent?.id ?? '' })}</p>
          {back}
        </Outcome>
      );
      break;
    case 'failed':
      body =
        error?.code === 'insufficient_funds' ? (
          <Outcome icon="!" title={t('hosted.noFundsTitle')}>
            <p>{checkout.canRetry ? t('hosted.noFundsRetry', { amount }) : t('hosted.noFunds', { amount })}</p>
            {checkout.canRetry && (
              <button type="button" className="wide" onClick={() => void checkout.retry()} disabled={pending}>
                {t('hosted.tryAgain')}
              </button>
            )}
          </Outcome>
        ) : (
          <Outcome icon="✕" title={t('hosted.failedTitle')}>
            <p>{errorText || t('hosted.declined')}</p>
            {checkout.canRetry ? (
              <button type="button" className="wide" onClick={() => void checkout.retry()} disabled={pending}>
                {t('hosted.tryAgain')}
              </button>
            ) : (
              <p>{t('hosted.noLongerPayable', { merchant })}</p>
            )}
          </Outcome>
        );
      break;
    case 'expired':
      body = (
        <Outcome icon="⏱" title={t('hosted.expiredTitle')}>
          <p>{t('hosted.expiredText', { merchant })}</p>
        </Outcome>
      );
      break;
    case 'canceled':
      body = (
        <Outcome icon="✕" title={t('hosted.canceledTitle')}>
          <p>{t('hosted.canceledText', { merchant })}</p>
        </Outcome>
      );
      break;
    default:
      body = (
        <Outcome icon="!" title={t('hosted.errorTitle')}>
          <p>{errorText || t('hosted.unreachable')}</p>
          <button type="button" className="wide" onClick={() => void checkout.retry()}>
            {t('hosted.tryAgain')}
          </button>
        </Outcome>
      );
  }

  if (mm.status === 'loading' && status === 'ready') body = <p role="status">{t('hosted.loading')}</p>;
  if (mobile) {
    body = (
      <MobileMoneySteps mm={mm} amount={amount} merchantName={merchant} returnUrl={returnUrl} title={(text, id) => <StepTitle id={id}>{text}</StepTitle>} />
    );
  }
  const inFlow = !mobile && ['ready', 'logging-in', ...RESET, ...TOP_UP, 'otp-sent', 'otp-verified', 'charging'].includes(status);
  const steps = topUp ? STEPS_WITH_TOP_UP : STEPS;
  const current = stepIndex(status, topUp !== undefined);
  // Polite and kept across the steps of a top-up, so each change is read out: the wait for the
  // payer's approval, then the money received.
  let topUpNews = '';
  if (status === 'topup-pending') topUpNews = t('hosted.topUpWaiting', { phone: topUpPhone });
  else if (topUp?.topup?.status === 'SUCCEEDED' && ['otp-sent', 'otp-verified', 'charging'].includes(status))
    topUpNews = t('hosted.topUpReceived', { amount: money(topUp.topup.amount, topUp.topup.currency) });
  return (
    <>
      <header>
        <p className="merchant">{t('hosted.payMerchant', { merchant })}</p>
        {intent && (
          <>
            <p className="amount">{amount}</p>
            {intent.description && <p>{intent.description}</p>}
          </>
        )}
      </header>
      {inFlow && (
        <ol className="steps" aria-label={t('hosted.stepsLabel')}>
          {steps.map((s, i) => (
            <li key={s} className={i < current ? 'done' : undefined} aria-current={i === current ? 'step' : undefined}>
              {t(s)}
            </li>
          ))}
        </ol>
      )}
      {inFlow && topUp && (
        <p role="status" id="topup-news" className={topUpNews ? `notice ${status === 'topup-pending' ? 'info' : 'success'}` : undefined}>
          {topUpNews}
        </p>
      )}
      <div
        key={mobile ? 'mobile-money' : stepKey(status)}
        aria-busy={status === 'loading' || status === 'charging' || pending}
        onClickCapture={acted}
        onSubmitCapture={acted}
      >
        {body}
      </div>
    </>
  );
}

/**
 * The hosted checkout page: the intent of the session token in the URL, paid with @caisse/react,
 * in the language the server chose, then in the customer's saved language once they sign in.
 */
export function HostedCheckout({ config, sessionToken }: { config: CheckoutConfig; sessionToken: string }) {
  const [saved, setSaved] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<Partial<Record<Language, Messages>>>({ [config.language]: config.messages });
  const wanted: LanguageChoice = saved ? chooseLanguage({ saved, requested: [config.locale] }) : { language: config.language, locale: config.locale };
  const url = config.catalogues[wanted.language];
  const missing = loaded[wanted.language] === undefined && url !== undefined;
  useEffect(() => {
    if (!missing || url === undefined) return;
    let live = true;
    fetch(url)
      .then((res) => (res.ok ? (res.json() as Promise<Messages>) : undefined))
      .then((messages) => {
        if (live && messages) setLoaded((all) => ({ ...all, [wanted.language]: messages }));
      })
      // Not fetched (the link dropped): the page stays in the language it has.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [missing, url, wanted.language]);
  // Until the saved language's texts arrive, the page stays in the one it has.
  const messages = loaded[wanted.language];
  const choice: LanguageChoice = messages ? wanted : { language: config.language, locale: config.locale };
  useDocumentLanguage(choice.language);
  return (
    <TextsIntl locale={choice.locale} language={choice.language} messages={messages ?? config.messages}>
      <Page config={config} sessionToken={sessionToken} onSavedLanguage={setSaved} />
    </TextsIntl>
  );
}

function Page({ config, sessionToken, onSavedLanguage }: { config: CheckoutConfig; sessionToken: string; onSavedLanguage: (language: string | null) => void }) {
  const { t } = useI18n();
  return (
    <div className="center-page">
      <main className="panel" aria-label={t('hosted.checkoutLabel')}>
        {'error' in config ? (
          <Outcome icon="?" title={t('hosted.invalidLinkTitle')}>
            <p>{t('hosted.invalidLinkText')}</p>
          </Outcome>
        ) : (
          <>
            {!config.livemode && (
              <p className="test-ribbon" role="note">
                {t('hosted.testMode')}
              </p>
            )}
            <CaisseProvider apiKey={config.apiKey} clientSecret={sessionToken} baseUrl={window.location.origin}>
              <Flow merchantName={config.merchantName} returnUrl={config.returnUrl} onSavedLanguage={onSavedLanguage} />
            </CaisseProvider>
          </>
        )}
        <p className="hint" style={{ marginTop: '1.5rem', textAlign: 'center' }}>
          {t('hosted.securedBy')}
        </p>
        {!('error' in config) && (
          // The customer's whole history across merchants lives on the gateway's own page, not in any merchant's.
          <p className="hint" style={{ textAlign: 'center' }}>
            <a href={config.livemode ? '/account' : '/account/test'}>{t('hosted.myAccount')}</a>
          </p>
        )}
      </main>
    </div>
  );
}
