import { chooseLanguage, type Language, type LanguageChoice } from '@caisse/intl';
import {
  CaisseProvider,
  type CheckoutStatus,
  CodeStep,
  FailedStep,
  MobileMoneySteps,
  OutcomeStep,
  PayStep,
  ResetCodeStep,
  ResetPhoneStep,
  SignInStep,
  SucceededStep,
  TopUpFailedStep,
  TopUpOfferStep,
  TopUpPendingStep,
  useCheckout,
  useCheckoutText,
  useMobileMoney,
} from '@caisse/react';
import { type ReactNode, useEffect, useState } from 'react';
import { type MessageId, type Messages, TextsIntl, useDocumentLanguage, useI18n } from '../shared/intl.tsx';
import { RESET, StepProgress, TOP_UP } from './StepProgress.tsx';
import { acted, StepTitle } from './StepTitle.tsx';

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

/** Each step's heading. */
const TITLES: Partial<Record<CheckoutStatus, MessageId>> = {
  ready: 'hosted.signInTitle',
  'logging-in': 'hosted.signInTitle',
  'reset-phone': 'hosted.resetTitle',
  'reset-code': 'hosted.newPasswordTitle',
  'topup-offer': 'hosted.topUpTitle',
  'topup-pending': 'hosted.topUpPendingTitle',
  'topup-failed': 'hosted.topUpFailedTitle',
  'otp-sent': 'hosted.codeTitle',
  'otp-verified': 'hosted.confirmTitle',
  charging: 'hosted.confirmTitle',
  succeeded: 'hosted.succeededTitle',
  expired: 'hosted.expiredTitle',
  canceled: 'hosted.canceledTitle',
};

/** One element per form: no field of one step is reused for the next (a typed password must never become the code field's value). */
function stepKey(status: CheckoutStatus): string {
  if (status === 'ready' || status === 'logging-in') return 'sign-in';
  if (RESET.includes(status) || status === 'otp-sent') return status;
  if (status === 'otp-verified' || status === 'charging') return 'pay';
  return status;
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
  const common = { checkout, alert, errorId: alert ? 'step-error' : undefined };
  const phoneLabel = (
    <>
      {t('hosted.phoneNumber')} <span className="hint">{t('hosted.phoneHint')}</span>
    </>
  );
  const heading = TITLES[status];
  const title = (id?: string) => <StepTitle id={id}>{heading ? t(heading) : ''}</StepTitle>;

  let body: ReactNode;
  switch (status) {
    case 'loading':
      body = <p role="status">{t('hosted.loading')}</p>;
      break;
    case 'ready':
    case 'logging-in':
      body = (
        <SignInStep
          {...common}
          title={title('signin-step')}
          titleId="signin-step"
          ids={{ phone: 'phone', password: 'password' }}
          channel={channel}
          onPayAnotherWay={() => mm.payAnotherWay()}
          texts={{
            everyShop: t('hosted.everyShop'),
            phoneNumber: phoneLabel,
            password: t('hosted.password'),
            continue: t('hosted.continue'),
            signingIn: t('hosted.signingIn'),
            forgotPassword: t('hosted.forgotPassword'),
            ...(mm.mobileMoney.length > 0 ? { payAnotherWay: text('mm.payAnotherWay') } : {}),
          }}
        >
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
        </SignInStep>
      );
      break;
    case 'reset-phone':
      body = (
        <ResetPhoneStep
          {...common}
          title={title('reset-step')}
          titleId="reset-step"
          ids={{ intro: 'reset-intro', phone: 'reset-phone' }}
          texts={{
            intro: t('hosted.resetIntro'),
            phoneNumber: phoneLabel,
            sending: t('hosted.sending'),
            sendResetCode: t('hosted.sendResetCode'),
            backToSignIn: t('hosted.backToSignIn'),
          }}
        />
      );
      break;
    case 'reset-code':
      body = (
        <ResetCodeStep
          {...common}
          title={title('new-password-step')}
          titleId="new-password-step"
          ids={{ hint: 'reset-hint', code: 'reset-code', newPassword: 'new-password' }}
          channel={channel}
          texts={{
            hint: rich('hosted.resetSent', { phone: checkout.reset?.phoneNumber ?? checkout.phoneNumber ?? '' }),
            code: t('hosted.resetCode'),
            newPassword: (
              <>
                {t('hosted.newPassword')} <span className="hint">{t('hosted.newPasswordHint')}</span>
              </>
            ),
            settingPassword: t('hosted.savingPassword'),
            setPassword: t('hosted.setPassword'),
            sendNewCode: t('hosted.sendNewCode'),
            backToSignIn: t('hosted.backToSignIn'),
          }}
        />
      );
      break;
    case 'topup-offer':
      body = (
        <TopUpOfferStep
          {...common}
          title={title('topup-step')}
          titleId="topup-step"
          ids={{ intro: 'topup-intro', phone: 'topup-phone', provider: (p) => `topup-${p}` }}
          texts={{
            intro: rich('hosted.topUpShort', { missing: topUpAmount, amount }),
            provider: t('hosted.topUpProvider'),
            phoneNumber: (
              <>
                {t('hosted.topUpPhone', { provider })} <span className="hint">{t('hosted.topUpPhoneHint')}</span>
              </>
            ),
            starting: t('hosted.topUpStarting', { provider }),
            topUp: t('hosted.topUp', { amount: topUpAmount, provider }),
            cancel: t('hosted.cancel'),
          }}
        />
      );
      break;
    case 'topup-pending':
      body = (
        <TopUpPendingStep
          title={title()}
          texts={{ asked: rich('hosted.topUpAsked', { amount: topUpAmount, phone: topUpPhone, provider }), keepOpen: t('hosted.topUpKeepOpen') }}
        />
      );
      break;
    case 'topup-failed':
      body = (
        <TopUpFailedStep
          {...common}
          title={title()}
          texts={{ nothingTaken: t('hosted.topUpNothingTaken'), tryAgain: t('hosted.topUpTryAgain'), cancel: t('hosted.cancel') }}
        />
      );
      break;
    case 'otp-sent':
      body = (
        <CodeStep
          {...common}
          title={title()}
          ids={{ hint: 'code-hint', code: 'otp' }}
          notice={
            checkout.passwordChanged && (
              <p className="notice success" role="status">
                {t('hosted.passwordChanged')}
              </p>
            )
          }
          texts={{
            // Signed in again moments after a code was sent: no new one went out; the last one may still work.
            hint:
              otp === undefined || error?.code === 'otp_rate_limited'
                ? t('hosted.codeStillValid')
                : rich(otp.channel === 'email' ? 'hosted.codeSentEmail' : 'hosted.codeSentSms', { destination: otp.destination, merchant, amount }),
            code: t('hosted.code'),
            checking: t('hosted.checking'),
            verify: t('hosted.verify'),
            sendNewCode: t('hosted.sendNewCode'),
            switchChannel: otp?.channel === 'email' ? t('hosted.sendBySms') : t('hosted.sendByEmail'),
          }}
        />
      );
      break;
    case 'otp-verified':
    case 'charging':
      body = (
        <PayStep
          {...common}
          title={title()}
          texts={{ confirm: rich('hosted.confirmText', { amount, merchant }), paying: t('hosted.paying'), pay: t('hosted.pay', { amount }) }}
        />
      );
      break;
    case 'succeeded':
      body = (
        <SucceededStep
          icon="✓"
          title={title()}
          returnUrl={returnUrl}
          texts={{
            message: rich('hosted.succeededText', { amount, merchant }),
            reference: rich('hosted.reference', { id: intent?.id ?? '' }),
            returnTo: t('hosted.returnTo', { merchant }),
          }}
        />
      );
      break;
    case 'failed': {
      const noFunds = error?.code === 'insufficient_funds';
      const texts = noFunds
        ? { message: checkout.canRetry ? t('hosted.noFundsRetry', { amount }) : t('hosted.noFunds', { amount }) }
        : { message: errorText || t('hosted.declined'), noLonger: t('hosted.noLongerPayable', { merchant }) };
      body = (
        <FailedStep
          checkout={checkout}
          icon={noFunds ? '!' : '✕'}
          title={<StepTitle>{t(noFunds ? 'hosted.noFundsTitle' : 'hosted.failedTitle')}</StepTitle>}
          texts={{ ...texts, tryAgain: t('hosted.tryAgain') }}
        />
      );
      break;
    }
    case 'expired':
    case 'canceled':
      body = (
        <OutcomeStep icon={status === 'expired' ? '⏱' : '✕'} title={title()}>
          <p>{t(status === 'expired' ? 'hosted.expiredText' : 'hosted.canceledText', { merchant })}</p>
        </OutcomeStep>
      );
      break;
    default:
      body = (
        <FailedStep
          checkout={checkout}
          canRetry
          icon="!"
          title={<StepTitle>{t('hosted.errorTitle')}</StepTitle>}
          texts={{ message: errorText || t('hosted.unreachable'), tryAgain: t('hosted.tryAgain') }}
        />
      );
  }

  if (mm.status === 'loading' && status === 'ready') body = <p role="status">{t('hosted.loading')}</p>;
  if (mobile) {
    body = (
      <MobileMoneySteps mm={mm} amount={amount} merchantName={merchant} returnUrl={returnUrl} title={(text, id) => <StepTitle id={id}>{text}</StepTitle>} />
    );
  }
  const inFlow = !mobile && ['ready', 'logging-in', ...RESET, ...TOP_UP, 'otp-sent', 'otp-verified', 'charging'].includes(status);
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
      {inFlow && <StepProgress status={status} topUp={topUp} />}
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
          <OutcomeStep icon="?" title={<StepTitle>{t('hosted.invalidLinkTitle')}</StepTitle>}>
            <p>{t('hosted.invalidLinkText')}</p>
          </OutcomeStep>
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
