import { CaisseProvider, type CheckoutStatus, OtpCodeInput, useCheckout } from '@caisse/react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { formatMoney } from '../shared/format.ts';

/** What the server embeds in the page's `caisse-checkout` meta tag (dashboard.pages.ts). */
export type CheckoutConfig = { apiKey: string; merchantName: string; livemode: boolean } | { error: 'not_found' };

type Channel = 'sms' | 'email';

const STEPS = ['Sign in', 'Code', 'Pay'];

function stepIndex(status: CheckoutStatus): number {
  if (status === 'otp-sent') return 1;
  if (status === 'otp-verified' || status === 'charging') return 2;
  return 0;
}

/** A heading that takes focus when it appears after the customer acted, so screen readers follow. */
function StepTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (document.activeElement && document.activeElement !== document.body) ref.current?.focus();
  }, []);
  return (
    <h2 tabIndex={-1} ref={ref}>
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
    document.title = intent ? `Pay ${amount} to ${merchantName}` : `Pay ${merchantName}`;
  }, [intent, amount, merchantName]);

  let errorText = error?.message ?? '';
  if (error?.attemptsRemaining !== undefined) errorText += ` ${error.attemptsRemaining} ${error.attemptsRemaining === 1 ? 'try' : 'tries'} left.`;
  if (error?.retryAfter !== undefined) errorText += ` Wait ${error.retryAfter} s.`;
  const alert = errorText && !['failed', 'expired', 'canceled'].includes(status) ? (
    <div className="notice error" role="alert">
      {errorText}
    </div>
  ) : null;

  function signIn(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const phone = String(form.get('phoneNumber') ?? '').replace(/[\s.-]+/g, '');
    void checkout.login(phone, String(form.get('password') ?? ''), channel);
  }

  function verify(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void checkout.verifyCode(String(new FormData(e.currentTarget).get('otp') ?? ''));
  }

  let body: ReactNode;
  switch (status) {
    case 'loading':
      body = <p role="status">Loading the payment…</p>;
      break;
    case 'ready':
    case 'logging-in':
      body = (
        <form onSubmit={signIn} aria-labelledby="signin-step">
          <h2 id="signin-step">Sign in to pay</h2>
          {alert}
          <div className="field">
            <label htmlFor="phone">
              Phone number <span className="hint">With the country code, e.g. +237 6XX XX XX XX</span>
            </label>
            <input id="phone" name="phoneNumber" type="tel" autoComplete="tel" inputMode="tel" required aria-invalid={error ? true : undefined} />
          </div>
          <div className="field">
            <label htmlFor="password">Password</label>
            <input id="password" name="password" type="password" autoComplete="current-password" required aria-invalid={error ? true : undefined} />
          </div>
          <fieldset className="field">
            <legend>Send my code by</legend>
            <label className="check" htmlFor="ch-sms">
              <input id="ch-sms" type="radio" name="channel" value="sms" checked={channel === 'sms'} onChange={() => setChannel('sms')} />
              SMS
            </label>
            <label className="check" htmlFor="ch-email">
              <input id="ch-email" type="radio" name="channel" value="email" checked={channel === 'email'} onChange={() => setChannel('email')} />
              E-mail
            </label>
          </fieldset>
          <button type="submit" disabled={status === 'logging-in'} aria-busy={status === 'logging-in'}>
            {status === 'logging-in' ? 'Signing in…' : 'Continue'}
          </button>
        </form>
      );
      break;
    case 'otp-sent':
      body = (
        <form onSubmit={verify}>
          <StepTitle>Enter your code</StepTitle>
          <p id="code-hint">
            We sent a 6-digit code by {otp?.channel === 'email' ? 'e-mail' : 'SMS'} to <strong>{otp?.destination}</strong>. It names {merchantName} and {amount}.
          </p>
          {alert}
          <div className="field">
            <OtpCodeInput id="otp" label="Code" describedBy="code-hint" invalid={error ? true : undefined} />
          </div>
          <button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? 'Checking…' : 'Verify code'}
          </button>
          <div className="actions">
            <button type="button" className="secondary" disabled={pending} onClick={() => void checkout.resendCode(otp?.channel)}>
              Send a new code
            </button>
            <button type="button" className="secondary" disabled={pending} onClick={() => void checkout.resendCode(otp?.channel === 'email' ? 'sms' : 'email')}>
              Send it by {otp?.channel === 'email' ? 'SMS' : 'e-mail'} instead
            </button>
          </div>
        </form>
      );
      break;
    case 'otp-verified':
    case 'charging':
      body = (
        <div>
          <StepTitle>Confirm the payment</StepTitle>
          <p>
            Your code is verified. Pay <strong>{amount}</strong> to {merchantName} from your wallet.
          </p>
          {alert}
          <button type="button" className="wide" onClick={() => void checkout.pay()} disabled={status === 'charging'} aria-busy={status === 'charging'}>
            {status === 'charging' ? 'Paying…' : `Pay ${amount}`}
          </button>
        </div>
      );
      break;
    case 'succeeded':
      body = (
        <Outcome icon="✓" title="Payment complete">
          <p>
            You paid <strong>{amount}</strong> to {merchantName}.
          </p>
          <p className="hint">
            Reference <code>{intent?.id}</code>. You can close this page.
          </p>
        </Outcome>
      );
      break;
    case 'failed':
      body =
        error?.code === 'insufficient_funds' ? (
          <Outcome icon="!" title="Not enough money in your wallet">
            <p>
              Your wallet does not hold {amount} for this payment. Add money to your wallet{checkout.canRetry ? ', then try again' : ''}.
            </p>
            {checkout.canRetry && (
              <button type="button" className="wide" onClick={() => void checkout.retry()} disabled={pending}>
                Try again
              </button>
            )}
          </Outcome>
        ) : (
          <Outcome icon="✕" title="The payment did not go through">
            <p>{error?.message ?? 'The payment was declined.'}</p>
            {checkout.canRetry ? (
              <button type="button" className="wide" onClick={() => void checkout.retry()} disabled={pending}>
                Try again
              </button>
            ) : (
              <p>This payment can no longer be made. Return to {merchantName} to start again.</p>
            )}
          </Outcome>
        );
      break;
    case 'expired':
      body = (
        <Outcome icon="⏱" title="This payment has expired">
          <p>The time to pay has run out and no money was taken. Return to {merchantName} to start a new payment.</p>
        </Outcome>
      );
      break;
    case 'canceled':
      body = (
        <Outcome icon="✕" title="This payment was canceled">
          <p>{merchantName} canceled this payment and no money was taken. Return to the shop if you still want to pay.</p>
        </Outcome>
      );
      break;
    default:
      body = (
        <Outcome icon="!" title="We could not load this payment">
          <p>{errorText || 'The payment service could not be reached.'}</p>
          <button type="button" className="wide" onClick={() => void checkout.retry()}>
            Try again
          </button>
        </Outcome>
      );
  }

  const inFlow = ['ready', 'logging-in', 'otp-sent', 'otp-verified', 'charging'].includes(status);
  const current = stepIndex(status);
  return (
    <>
      <header>
        <p className="merchant">Pay {merchantName}</p>
        {intent && (
          <>
            <p className="amount">{amount}</p>
            {intent.description && <p>{intent.description}</p>}
          </>
        )}
      </header>
      {inFlow && (
        <ol className="steps" aria-label="Steps">
          {STEPS.map((s, i) => (
            <li key={s} className={i < current ? 'done' : undefined} aria-current={i === current ? 'step' : undefined}>
              {s}
            </li>
          ))}
        </ol>
      )}
      {/* One element per step: no field of one step is reused for the next (a typed password must never become the code field's value). */}
      <div key={current === 0 && inFlow ? 'sign-in' : inFlow ? `step-${current}` : status} aria-busy={status === 'loading' || status === 'charging' || pending}>
        {body}
      </div>
    </>
  );
}

/** The hosted checkout page: the intent of the session token in the URL, paid with @caisse/react. */
export function HostedCheckout({ config, sessionToken }: { config: CheckoutConfig; sessionToken: string }) {
  return (
    <div className="center-page">
      <main className="panel" aria-label="Checkout">
        {'error' in config ? (
          <Outcome icon="?" title="This payment link is not valid">
            <p>Check the link you were given, or return to the shop to start the payment again.</p>
          </Outcome>
        ) : (
          <>
            {!config.livemode && (
              <p className="test-ribbon" role="note">
                Test mode: no real money moves.
              </p>
            )}
            <CaisseProvider apiKey={config.apiKey} clientSecret={sessionToken} environment={window.location.origin}>
              <Flow merchantName={config.merchantName} />
            </CaisseProvider>
          </>
        )}
        <p className="hint" style={{ marginTop: '1.5rem', textAlign: 'center' }}>
          Secured by Caisse
        </p>
      </main>
    </div>
  );
}
