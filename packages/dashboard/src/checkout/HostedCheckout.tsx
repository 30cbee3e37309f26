import { CaisseProvider, type CheckoutStatus, OtpCodeInput, useCheckout } from '@caisse/react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { formatMoney } from '../shared/format.ts';

/** What the server embeds in the page's `caisse-checkout` meta tag (dashboard.pages.ts). */
export type CheckoutConfig = { apiKey: string; merchantName: string; livemode: boolean } | { error: 'not_found' };

type Channel = 'sms' | 'email';

/**
 * Every text of the hosted checkout page, in one place (for a translation to replace). A function
 * takes what its sentence needs; amounts and numbers arrive as nodes, already emphasised.
 */
const TEXT = {
  steps: ['Sign in', 'Code', 'Pay'],
  /** The steps once the wallet was found short. */
  stepsWithTopUp: ['Sign in', 'Top up', 'Code', 'Pay'],
  stepsLabel: 'Steps',
  docTitle: (amount: string | undefined, merchant: string) => (amount ? `Pay ${amount} to ${merchant}` : `Pay ${merchant}`),
  payMerchant: (merchant: string) => `Pay ${merchant}`,
  testMode: 'Test mode: no real money moves.',
  securedBy: 'Secured by Caisse',
  checkoutLabel: 'Checkout',
  triesLeft: (n: number) => `${n} ${n === 1 ? 'try' : 'tries'} left.`,
  waitSeconds: (s: number) => `Wait ${s} s.`,
  loading: 'Loading the payment…',
  signInTitle: 'Sign in to pay',
  everyShop: 'Your Caisse account works at every shop that uses Caisse.',
  phoneNumber: 'Phone number',
  phoneHint: 'With the country code, e.g. +237 6XX XX XX XX',
  password: 'Password',
  sendCodeBy: 'Send my code by',
  sms: 'SMS',
  email: 'E-mail',
  signingIn: 'Signing in…',
  continue: 'Continue',
  forgotPassword: 'Forgot password?',
  resetTitle: 'Reset your password',
  resetIntro: 'We will send a 6-digit code by SMS to your phone number. With it you choose a new password for your Caisse account.',
  sending: 'Sending…',
  sendResetCode: 'Send code',
  backToSignIn: 'Back to sign in',
  newPasswordTitle: 'Choose a new password',
  resetSent: (phone: ReactNode) => <>If {phone} has a Caisse account, we sent it a 6-digit code by SMS.</>,
  resetCode: 'Code from the SMS',
  newPassword: 'New password',
  newPasswordHint: 'At least 8 characters, not a common one and not your phone number.',
  savingPassword: 'Saving…',
  setPassword: 'Set password and continue',
  sendNewCode: 'Send a new code',
  passwordChanged: 'Your new password is set and you are signed in.',
  codeTitle: 'Enter your code',
  codeSent: (channel: Channel | undefined, destination: ReactNode, merchant: string, amount: string) => (
    <>
      We sent a 6-digit code by {channel === 'email' ? 'e-mail' : 'SMS'} to {destination}. It names {merchant} and {amount}.
    </>
  ),
  code: 'Code',
  checking: 'Checking…',
  verify: 'Verify code',
  sendInstead: (channel: Channel | undefined) => `Send it by ${channel === 'email' ? 'SMS' : 'e-mail'} instead`,
  confirmTitle: 'Confirm the payment',
  confirmText: (amount: ReactNode, merchant: string) => (
    <>
      Your code is verified. Pay {amount} to {merchant} from your wallet.
    </>
  ),
  paying: 'Paying…',
  pay: (amount: string) => `Pay ${amount}`,
  succeededTitle: 'Payment complete',
  succeededText: (amount: ReactNode, merchant: string) => (
    <>
      You paid {amount} to {merchant}.
    </>
  ),
  reference: (id: ReactNode) => <>Reference {id}. You can close this page.</>,
  noFundsTitle: 'Not enough money in your wallet',
  noFundsText: (amount: string, canRetry: boolean) => `Your wallet does not hold ${amount} for this payment. Add money to your wallet${canRetry ? ', then try again' : ''}.`,
  tryAgain: 'Try again',
  failedTitle: 'The payment did not go through',
  declined: 'The payment was declined.',
  noLongerPayable: (merchant: string) => `This payment can no longer be made. Return to ${merchant} to start again.`,
  expiredTitle: 'This payment has expired',
  expiredText: (merchant: string) => `The time to pay has run out and no money was taken. Return to ${merchant} to start a new payment.`,
  canceledTitle: 'This payment was canceled',
  canceledText: (merchant: string) => `${merchant} canceled this payment and no money was taken. Return to the shop if you still want to pay.`,
  errorTitle: 'We could not load this payment',
  unreachable: 'The payment service could not be reached.',
  invalidLinkTitle: 'This payment link is not valid',
  invalidLinkText: 'Check the link you were given, or return to the shop to start the payment again.',
  topUpTitle: 'Top up your wallet',
  topUpShort: (missing: ReactNode, amount: ReactNode) => (
    <>
      Your wallet holds less than {amount}: {missing} is missing. Top it up from your MTN MoMo account, then pay.
    </>
  ),
  topUpPhone: 'MTN MoMo number',
  topUpPhoneHint: 'The phone that approves the top-up',
  topUp: (amount: string) => `Top up ${amount} with MTN MoMo`,
  topUpStarting: 'Asking MTN MoMo…',
  cancel: 'Cancel',
  topUpPendingTitle: 'Approve on your phone',
  topUpAsked: (amount: ReactNode, phone: ReactNode) => (
    <>
      MTN MoMo asked {phone} for {amount}. Approve the request on that phone with your MoMo PIN.
    </>
  ),
  topUpKeepOpen: 'Keep this page open: the payment goes on by itself once you approve.',
  topUpWaiting: (phone: string) => `Waiting for your approval on ${phone}…`,
  topUpReceived: (amount: string) => `Your wallet was topped up with ${amount}.`,
  topUpFailedTitle: 'The top-up did not go through',
  topUpFailed: (code: string, reason: string | undefined) => {
    if (code === 'topup_timeout') return 'MTN MoMo did not confirm the top-up in time. If you still approve it, the money will reach your wallet.';
    if (reason === 'APPROVAL_REJECTED') return 'The top-up was declined on the phone.';
    if (reason === 'TIMEOUT') return 'The top-up was not approved in time.';
    return `MTN MoMo did not accept the top-up${reason ? ` (${reason})` : ''}.`;
  },
  topUpNothingTaken: 'Try again, perhaps from another MTN MoMo number, or cancel.',
  topUpTryAgain: 'Try again',
};

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

function Flow({ merchantName }: { merchantName: string }) {
  const checkout = useCheckout();
  const { intent, error, pending, otp } = checkout;
  const status = shownStatus(checkout.status, intent?.status, error?.code);
  const [channel, setChannel] = useState<Channel>('sms');
  const amount = intent ? formatMoney(intent.amount, intent.currency) : '';

  useEffect(() => {
    document.title = TEXT.docTitle(intent ? amount : undefined, merchantName);
  }, [intent, amount, merchantName]);

  let errorText = error?.message ?? '';
  if (error?.attemptsRemaining !== undefined) errorText += ` ${TEXT.triesLeft(error.attemptsRemaining)}`;
  if (error?.retryAfter !== undefined) errorText += ` ${TEXT.waitSeconds(error.retryAfter)}`;
  if (error?.code === 'topup_failed' || error?.code === 'topup_timeout') errorText = TEXT.topUpFailed(error.code, error.failureReason);
  const topUp = checkout.topUp;
  const topUpAmount = topUp ? formatMoney(topUp.amount, topUp.currency) : '';
  const topUpPhone = topUp?.topup?.phoneNumber ?? topUp?.phoneNumber ?? '';
  const alert = errorText && !['failed', 'expired', 'canceled'].includes(status) ? (
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
    void checkout.startTopUp(phoneOf(e.currentTarget));
  }

  function verify(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void checkout.verifyCode(String(new FormData(e.currentTarget).get('otp') ?? ''));
  }

  let body: ReactNode;
  switch (status) {
    case 'loading':
      body = <p role="status">{TEXT.loading}</p>;
      break;
    case 'ready':
    case 'logging-in':
      body = (
        <form onSubmit={signIn} aria-labelledby="signin-step">
          <StepTitle id="signin-step">{TEXT.signInTitle}</StepTitle>
          <p className="hint">{TEXT.everyShop}</p>
          {alert}
          <div className="field">
            <label htmlFor="phone">
              {TEXT.phoneNumber} <span className="hint">{TEXT.phoneHint}</span>
            </label>
            <input id="phone" name="phoneNumber" type="tel" autoComplete="tel" inputMode="tel" required defaultValue={checkout.phoneNumber} aria-invalid={invalid} aria-describedby={describedBy()} />
          </div>
          <div className="field">
            <label htmlFor="password">{TEXT.password}</label>
            <input id="password" name="password" type="password" autoComplete="current-password" required aria-invalid={invalid} aria-describedby={describedBy()} />
          </div>
          <fieldset className="field">
            <legend>{TEXT.sendCodeBy}</legend>
            <label className="check" htmlFor="ch-sms">
              <input id="ch-sms" type="radio" name="channel" value="sms" checked={channel === 'sms'} onChange={() => setChannel('sms')} />
              {TEXT.sms}
            </label>
            <label className="check" htmlFor="ch-email">
              <input id="ch-email" type="radio" name="channel" value="email" checked={channel === 'email'} onChange={() => setChannel('email')} />
              {TEXT.email}
            </label>
          </fieldset>
          <button type="submit" disabled={status === 'logging-in'} aria-busy={status === 'logging-in'}>
            {status === 'logging-in' ? TEXT.signingIn : TEXT.continue}
          </button>
          <p className="forgot">
            <button type="button" className="link" disabled={status === 'logging-in'} onClick={(e) => checkout.forgotPassword(phoneOf(e.currentTarget.form))}>
              {TEXT.forgotPassword}
            </button>
          </p>
        </form>
      );
      break;
    case 'reset-phone':
      body = (
        <form onSubmit={requestReset} aria-labelledby="reset-step">
          <StepTitle id="reset-step">{TEXT.resetTitle}</StepTitle>
          <p id="reset-intro">{TEXT.resetIntro}</p>
          {alert}
          <div className="field">
            <label htmlFor="reset-phone">
              {TEXT.phoneNumber} <span className="hint">{TEXT.phoneHint}</span>
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
            {pending ? TEXT.sending : TEXT.sendResetCode}
          </button>
          <div className="actions">
            <button type="button" className="secondary" disabled={pending} onClick={() => checkout.cancelPasswordReset()}>
              {TEXT.backToSignIn}
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
          <StepTitle id="new-password-step">{TEXT.newPasswordTitle}</StepTitle>
          <p id="reset-hint">{TEXT.resetSent(<strong>{phone}</strong>)}</p>
          {alert}
          {/* For password managers: whose new password this is. */}
          <input type="text" name="username" autoComplete="username" value={phone} readOnly hidden />
          <div className="field">
            <OtpCodeInput id="reset-code" label={TEXT.resetCode} describedBy={describedBy('reset-hint')} invalid={error && !weak ? true : undefined} />
          </div>
          <div className="field">
            <label htmlFor="new-password">
              {TEXT.newPassword} <span className="hint">{TEXT.newPasswordHint}</span>
            </label>
            <input id="new-password" name="newPassword" type="password" autoComplete="new-password" required minLength={8} aria-invalid={weak || undefined} aria-describedby={describedBy()} />
          </div>
          <button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? TEXT.savingPassword : TEXT.setPassword}
          </button>
          <div className="actions">
            <button type="button" className="secondary" disabled={pending} onClick={() => void checkout.requestPasswordReset()}>
              {TEXT.sendNewCode}
            </button>
            <button type="button" className="secondary" disabled={pending} onClick={() => checkout.cancelPasswordReset()}>
              {TEXT.backToSignIn}
            </button>
          </div>
        </form>
      );
      break;
    }
    case 'topup-offer':
      body = (
        <form onSubmit={startTopUp} aria-labelledby="topup-step">
          <StepTitle id="topup-step">{TEXT.topUpTitle}</StepTitle>
          <p id="topup-intro">{TEXT.topUpShort(<strong>{topUpAmount}</strong>, <strong>{amount}</strong>)}</p>
          {alert}
          <div className="field">
            <label htmlFor="topup-phone">
              {TEXT.topUpPhone} <span className="hint">{TEXT.topUpPhoneHint}</span>
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
            {pending ? TEXT.topUpStarting : TEXT.topUp(topUpAmount)}
          </button>
          <div className="actions">
            <button type="button" className="secondary" disabled={pending} onClick={() => checkout.cancelTopUp()}>
              {TEXT.cancel}
            </button>
          </div>
        </form>
      );
      break;
    case 'topup-pending':
      body = (
        <div>
          <StepTitle>{TEXT.topUpPendingTitle}</StepTitle>
          <p>{TEXT.topUpAsked(<strong>{topUpAmount}</strong>, <strong>{topUpPhone}</strong>)}</p>
          <p className="hint">{TEXT.topUpKeepOpen}</p>
        </div>
      );
      break;
    case 'topup-failed':
      body = (
        <div>
          <StepTitle>{TEXT.topUpFailedTitle}</StepTitle>
          {alert}
          <p>{TEXT.topUpNothingTaken}</p>
          <button type="button" className="wide" disabled={pending} aria-busy={pending} onClick={() => void checkout.retryTopUp()}>
            {TEXT.topUpTryAgain}
          </button>
          <div className="actions">
            <button type="button" className="secondary" disabled={pending} onClick={() => checkout.cancelTopUp()}>
              {TEXT.cancel}
            </button>
          </div>
        </div>
      );
      break;
    case 'otp-sent':
      body = (
        <form onSubmit={verify}>
          <StepTitle>{TEXT.codeTitle}</StepTitle>
          {checkout.passwordChanged && (
            <p className="notice success" role="status">
              {TEXT.passwordChanged}
            </p>
          )}
          <p id="code-hint">{TEXT.codeSent(otp?.channel, <strong>{otp?.destination}</strong>, merchantName, amount)}</p>
          {alert}
          <div className="field">
            <OtpCodeInput id="otp" label={TEXT.code} describedBy={describedBy('code-hint')} invalid={invalid} />
          </div>
          <button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? TEXT.checking : TEXT.verify}
          </button>
          <div className="actions">
            <button type="button" className="secondary" disabled={pending} onClick={() => void checkout.resendCode(otp?.channel)}>
              {TEXT.sendNewCode}
            </button>
            <button type="button" className="secondary" disabled={pending} onClick={() => void checkout.resendCode(otp?.channel === 'email' ? 'sms' : 'email')}>
              {TEXT.sendInstead(otp?.channel)}
            </button>
          </div>
        </form>
      );
      break;
    case 'otp-verified':
    case 'charging':
      body = (
        <div>
          <StepTitle>{TEXT.confirmTitle}</StepTitle>
          <p>{TEXT.confirmText(<strong>{amount}</strong>, merchantName)}</p>
          {alert}
          <button type="button" className="wide" onClick={() => void checkout.pay()} disabled={status === 'charging'} aria-busy={status === 'charging'}>
            {status === 'charging' ? TEXT.paying : TEXT.pay(amount)}
          </button>
        </div>
      );
      break;
    case 'succeeded':
      body = (
        <Outcome icon="✓" title={TEXT.succeededTitle}>
          <p>{TEXT.succeededText(<strong>{amount}</strong>, merchantName)}</p>
          <p className="hint">{TEXT.reference(<code>{intent?.id}</code>)}</p>
        </Outcome>
      );
      break;
    case 'failed':
      body =
        error?.code === 'insufficient_funds' ? (
          <Outcome icon="!" title={TEXT.noFundsTitle}>
            <p>{TEXT.noFundsText(amount, checkout.canRetry)}</p>
            {checkout.canRetry && (
              <button type="button" className="wide" onClick={() => void checkout.retry()} disabled={pending}>
                {TEXT.tryAgain}
              </button>
            )}
          </Outcome>
        ) : (
          <Outcome icon="✕" title={TEXT.failedTitle}>
            <p>{error?.message ?? TEXT.declined}</p>
            {checkout.canRetry ? (
              <button type="button" className="wide" onClick={() => void checkout.retry()} disabled={pending}>
                {TEXT.tryAgain}
              </button>
            ) : (
              <p>{TEXT.noLongerPayable(merchantName)}</p>
            )}
          </Outcome>
        );
      break;
    case 'expired':
      body = (
        <Outcome icon="⏱" title={TEXT.expiredTitle}>
          <p>{TEXT.expiredText(merchantName)}</p>
        </Outcome>
      );
      break;
    case 'canceled':
      body = (
        <Outcome icon="✕" title={TEXT.canceledTitle}>
          <p>{TEXT.canceledText(merchantName)}</p>
        </Outcome>
      );
      break;
    default:
      body = (
        <Outcome icon="!" title={TEXT.errorTitle}>
          <p>{errorText || TEXT.unreachable}</p>
          <button type="button" className="wide" onClick={() => void checkout.retry()}>
            {TEXT.tryAgain}
          </button>
        </Outcome>
      );
  }

  const inFlow = ['ready', 'logging-in', ...RESET, ...TOP_UP, 'otp-sent', 'otp-verified', 'charging'].includes(status);
  const steps = topUp ? TEXT.stepsWithTopUp : TEXT.steps;
  const current = stepIndex(status, topUp !== undefined);
  // Polite and kept across the steps of a top-up, so each change is read out: the wait for the
  // payer's approval, then the money received.
  let topUpNews = '';
  if (status === 'topup-pending') topUpNews = TEXT.topUpWaiting(topUpPhone);
  else if (topUp?.topup?.status === 'SUCCEEDED' && ['otp-sent', 'otp-verified', 'charging'].includes(status)) topUpNews = TEXT.topUpReceived(formatMoney(topUp.topup.amount, topUp.topup.currency));
  return (
    <>
      <header>
        <p className="merchant">{TEXT.payMerchant(merchantName)}</p>
        {intent && (
          <>
            <p className="amount">{amount}</p>
            {intent.description && <p>{intent.description}</p>}
          </>
        )}
      </header>
      {inFlow && (
        <ol className="steps" aria-label={TEXT.stepsLabel}>
          {steps.map((s, i) => (
            <li key={s} className={i < current ? 'done' : undefined} aria-current={i === current ? 'step' : undefined}>
              {s}
            </li>
          ))}
        </ol>
      )}
      {inFlow && topUp && (
        <p role="status" id="topup-news" className={topUpNews ? `notice ${status === 'topup-pending' ? 'info' : 'success'}` : undefined}>
          {topUpNews}
        </p>
      )}
      <div key={stepKey(status)} aria-busy={status === 'loading' || status === 'charging' || pending} onClickCapture={acted} onSubmitCapture={acted}>
        {body}
      </div>
    </>
  );
}

/** The hosted checkout page: the intent of the session token in the URL, paid with @caisse/react. */
export function HostedCheckout({ config, sessionToken }: { config: CheckoutConfig; sessionToken: string }) {
  return (
    <div className="center-page">
      <main className="panel" aria-label={TEXT.checkoutLabel}>
        {'error' in config ? (
          <Outcome icon="?" title={TEXT.invalidLinkTitle}>
            <p>{TEXT.invalidLinkText}</p>
          </Outcome>
        ) : (
          <>
            {!config.livemode && (
              <p className="test-ribbon" role="note">
                {TEXT.testMode}
              </p>
            )}
            <CaisseProvider apiKey={config.apiKey} clientSecret={sessionToken} baseUrl={window.location.origin}>
              <Flow merchantName={config.merchantName} />
            </CaisseProvider>
          </>
        )}
        <p className="hint" style={{ marginTop: '1.5rem', textAlign: 'center' }}>
          {TEXT.securedBy}
        </p>
      </main>
    </div>
  );
}
