import {
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
import { type MessageId, useI18n } from '../shared/intl.tsx';
import { RESET, StepProgress, TOP_UP } from './StepProgress.tsx';
import { acted, StepTitle } from './StepTitle.tsx';

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

/**
 * The payment of the intent, in the page's texts: mobile money first, else the wallet's steps, all
 * of them @caisse/react's, with the page's headings, progress and top-up news around them.
 */
export function Flow({
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
