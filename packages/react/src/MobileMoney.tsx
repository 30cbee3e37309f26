import { type FormEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { type CheckoutMessageId, useCheckoutText } from './i18n.tsx';
import { ReturnLink } from './steps/ReturnLink.tsx';
import type { CheckoutError } from './useCheckout.ts';
import { CardholderStep } from './steps/CardholderStep.tsx';
import { MethodChoice } from './steps/MethodChoice.tsx';
import type { MobileMoney } from './useMobileMoney.ts';

/** Failure codes of a mobile-money attempt, in the payer's words (others: the checkout's error texts). */
const MOBILE_MONEY_ERRORS: Record<string, CheckoutMessageId> = {
  payer_not_found: 'mm.error.payer_not_found',
  insufficient_funds: 'mm.error.insufficient_funds',
  approval_rejected: 'mm.error.approval_rejected',
  approval_timeout: 'mm.error.approval_timeout',
  provider_page_lost: 'mm.error.provider_page_lost',
  provider_unavailable: 'mm.error.provider_unavailable',
  provider_unsupported: 'mm.error.provider_unsupported',
  amount_out_of_bounds: 'mm.error.amount_out_of_bounds',
  attempt_in_progress: 'mm.error.attempt_in_progress',
  rate_limited: 'mm.error.rate_limited',
  pre_authorisation_code_invalid: 'mm.error.pre_authorisation_code_invalid',
  pre_authorisation_code_expired: 'mm.error.pre_authorisation_code_expired',
  pre_authorisation_code_required: 'mm.error.pre_authorisation_code_required',
};

/** 272 → "4:32". */
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

export interface MobileMoneyStepsProps {
  mm: MobileMoney;
  /** The amount as the page writes it ("5 000 FCFA"). */
  amount: string;
  merchantName?: string;
  /** Where "back to the shop" goes once the payment is over (the intent's `returnUrl`). */
  returnUrl?: string | null;
  /** Renders a step's heading (the hosted page has its own); it receives the id to label the step with. */
  title?: (text: string, id: string) => ReactNode;
}

/**
 * The screens of a direct mobile-money payment, for `<Checkout/>` and the hosted checkout: the
 * methods with the number and operator, the wait for the payer's approval (what to do, the USSD
 * code, the time left), the failure (send again, pay another way) and the outcome. Buttons carry
 * both checkouts' classes so each page's stylesheet applies.
 */
export function MobileMoneySteps({ mm, amount, merchantName, returnUrl, title }: MobileMoneyStepsProps) {
  const { t, error: describe } = useCheckoutText();
  const id = useId();
  const heading = `${id}-title`;
  const stepRef = useRef<HTMLDivElement>(null);
  const first = useRef(true);
  // Focus follows the step for screen readers, except on the first screen.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    stepRef.current?.querySelector<HTMLElement>('[data-caisse-focus]')?.focus();
  }, [mm.status]);

  const byCard = mm.method === 'card';
  const method = mm.mobileMoney.find((m) => m.provider === mm.provider);
  const providerName = byCard ? (mm.card?.name ?? '') : (method?.name ?? mm.provider ?? '');
  const describeError = (error: CheckoutError | undefined) => {
    // A valid number of another operator than the one picked: not "not a valid number".
    const id = error?.code === 'phone_invalid' && error.operator !== undefined ? 'mm.error.other_operator' : error && MOBILE_MONEY_ERRORS[error.code];
    return id ? t(id, { provider: providerName }) : describe(error);
  };
  const errorText = describeError(mm.error);
  const renderTitle = (text: string) =>
    title ? (
      title(text, heading)
    ) : (
      <h3 id={heading} tabIndex={-1} data-caisse-focus="">
        {text}
      </h3>
    );
  const alert = errorText ? (
    <p id={`${id}-error`} role="alert" className="caisse-error notice error">
      {errorText}
    </p>
  ) : null;
  const back = <ReturnLink href={returnUrl}>{merchantName ? t('mm.backTo', { merchant: merchantName }) : t('mm.backToShop')}</ReturnLink>;

  const onPay = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void mm.pay();
  };
  const onSendAgain = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void mm.sendAgain();
  };

  // An operator that prompts nobody (pawaPay's Orange in Burkina Faso): the payer makes a one-time code first and types it here.
  const needsCode = method?.approval === 'pre_authorisation_code';
  const codeField = needsCode ? (
    <div className="caisse-field field">
      <label htmlFor={`${id}-code`}>{t('mm.code', { provider: providerName })}</label>
      <input
        id={`${id}-code`}
        name="preAuthorisationCode"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        maxLength={36}
        value={mm.preAuthorisationCode}
        onChange={(e) => mm.setPreAuthorisationCode(e.currentTarget.value)}
        aria-invalid={mm.error?.code.startsWith('pre_authorisation_code') ? true : undefined}
        aria-describedby={[`${id}-code-hint`, ...(alert ? [`${id}-error`] : [])].join(' ')}
      />
      <p id={`${id}-code-hint`} className="caisse-hint hint">
        {method?.preAuthorisationUssd
          ? t('mm.codeHint', { ussd: method.preAuthorisationUssd, provider: providerName })
          : t('mm.codeHintNoUssd', { provider: providerName })}
      </p>
    </div>
  ) : null;

  let body: ReactNode;
  switch (mm.status) {
    case 'choose':
    case 'submitting': {
      const busy = mm.status === 'submitting';
      const methodChoice = <MethodChoice mm={mm} id={id} busy={busy} />;
      const wallet = mm.walletOffered ? (
        <button type="button" className="caisse-secondary secondary" disabled={busy} onClick={() => mm.chooseWallet()}>
          {t('mm.payWithWallet')}
        </button>
      ) : null;
      if (byCard && mm.card) {
        body = (
          <CardholderStep
            mm={mm}
            id={id}
            heading={heading}
            title={renderTitle(t('card.title'))}
            alert={alert}
            amount={amount}
            busy={busy}
            onPay={onPay}
            methodChoice={methodChoice}
            wallet={wallet}
          />
        );
        break;
      }
      body = (
        <form onSubmit={onPay} aria-labelledby={heading}>
          {renderTitle(t('mm.title'))}
          {methodChoice}
          {alert}
          <div className="caisse-field field">
            <label htmlFor={`${id}-phone`}>{t('mm.phoneNumber')}</label>
            <input
              id={`${id}-phone`}
              name="phoneNumber"
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              required
              value={mm.phoneNumber}
              onChange={(e) => mm.setPhoneNumber(e.currentTarget.value)}
              placeholder={t('checkout.phonePlaceholder')}
              aria-invalid={mm.error ? true : undefined}
              aria-describedby={[`${id}-phone-hint`, ...(alert ? [`${id}-error`] : [])].join(' ')}
            />
            <p id={`${id}-phone-hint`} className="caisse-hint hint">
              {t('mm.phoneHint')}
            </p>
          </div>
          <fieldset className="caisse-field field">
            <legend>{t('mm.operator')}</legend>
            {mm.mobileMoney.map((m) => (
              <label key={m.provider} className="check" htmlFor={`${id}-${m.provider}`}>
                <input
                  id={`${id}-${m.provider}`}
                  type="radio"
                  name="provider"
                  value={m.provider}
                  checked={mm.provider === m.provider}
                  disabled={!m.available}
                  onChange={() => mm.chooseProvider(m.provider)}
                />
                {m.available ? m.name : t('mm.unavailable', { provider: m.name })}
              </label>
            ))}
          </fieldset>
          {codeField}
          <button type="submit" className="caisse-primary wide" disabled={busy || !method?.available} aria-busy={busy}>
            {busy ? t('mm.sending') : t('mm.pay', { amount, provider: providerName })}
          </button>
          {wallet}
        </form>
      );
      break;
    }
    case 'waiting': {
      const action = mm.nextAction?.type === 'approve_on_phone' ? mm.nextAction : undefined;
      const over = mm.secondsLeft === 0 || mm.secondsLeft === undefined;
      const phone = action?.phoneNumber ?? mm.phoneNumber;
      const ussd = action?.ussd ?? method?.ussd;
      body = (
        <div>
          {renderTitle(t('mm.waitingTitle'))}
          {needsCode ? (
            <p>{t('mm.codeChecking', { amount, provider: providerName })}</p>
          ) : (
            <p>{phone ? t('mm.approve', { amount, provider: providerName, phone }) : t('mm.approveNoNumber', { amount })}</p>
          )}
          {ussd && !needsCode ? <p className="caisse-ussd">{t('mm.dial', { ussd })}</p> : null}
          {mm.secondsLeft !== undefined && mm.secondsLeft > 0 ? (
            <p role="timer" aria-label={t('mm.timeLeftLabel')}>
              {t('mm.timeLeft', { time: clock(mm.secondsLeft) })}
            </p>
          ) : null}
          <p className="caisse-hint hint">{over ? t('mm.stillChecking', { provider: providerName }) : t('mm.keepOpen')}</p>
          {over ? (
            <button type="button" className="caisse-secondary secondary" onClick={() => mm.payAnotherWay()}>
              {t('mm.payAnotherWay')}
            </button>
          ) : null}
        </div>
      );
      break;
    }
    case 'redirecting': {
      const url = mm.nextAction?.type === 'redirect' ? mm.nextAction.url : undefined;
      body = (
        <div>
          {renderTitle(t('mm.redirecting', { provider: providerName }))}
          {url ? <a href={url}>{t('mm.redirectLink', { provider: providerName })}</a> : null}
        </div>
      );
      break;
    }
    case 'failed':
      // With a code: a new one to type, sent with the request again.
      body = needsCode ? (
        <form onSubmit={onSendAgain} aria-labelledby={heading}>
          {renderTitle(t('mm.failedTitle'))}
          {alert}
          {codeField}
          <button type="submit" className="caisse-primary wide">
            {t('mm.sendAgain')}
          </button>
          <button type="button" className="caisse-secondary secondary" onClick={() => mm.payAnotherWay()}>
            {t('mm.payAnotherWay')}
          </button>
        </form>
      ) : (
        <div>
          {renderTitle(t('mm.failedTitle'))}
          {alert}
          <button type="button" className="caisse-primary wide" onClick={() => void mm.sendAgain()}>
            {t('mm.sendAgain')}
          </button>
          <button type="button" className="caisse-secondary secondary" onClick={() => mm.payAnotherWay()}>
            {t('mm.payAnotherWay')}
          </button>
        </div>
      );
      break;
    case 'succeeded':
      body = (
        <div>
          {renderTitle(t('mm.succeededTitle'))}
          <p className="caisse-success">{merchantName ? t('mm.paidTo', { amount, merchant: merchantName }) : t('checkout.thankYou', { amount })}</p>
          {back}
        </div>
      );
      break;
    case 'ended':
      body = (
        <div>
          {renderTitle(t('mm.endedTitle'))}
          <p>{t('checkout.noLongerPayable')}</p>
          {back}
        </div>
      );
      break;
    default:
      body = null;
  }
  return (
    <div ref={stepRef} key={mm.status === 'submitting' ? 'choose' : mm.status} className="caisse-mobile-money" data-mm-status={mm.status}>
      {body}
    </div>
  );
}
