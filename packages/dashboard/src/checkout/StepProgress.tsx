import type { CheckoutStatus, CheckoutTopUp } from '@caisse/react';
import { type MessageId, useI18n } from '../shared/intl.tsx';

/** The steps shown above the form; with a "Top up" step once the wallet was found short. */
const STEPS: MessageId[] = ['hosted.stepSignIn', 'hosted.stepCode', 'hosted.stepPay'];
const STEPS_WITH_TOP_UP: MessageId[] = ['hosted.stepSignIn', 'hosted.stepTopUp', 'hosted.stepCode', 'hosted.stepPay'];

export const RESET: CheckoutStatus[] = ['reset-phone', 'reset-code'];
export const TOP_UP: CheckoutStatus[] = ['topup-offer', 'topup-pending', 'topup-failed'];

/** Where the customer is in `steps` (with a "Top up" step once the wallet was found short). */
function stepIndex(status: CheckoutStatus, withTopUp: boolean): number {
  const after = withTopUp ? 1 : 0;
  if (TOP_UP.includes(status)) return 1;
  if (status === 'otp-sent') return 1 + after;
  if (status === 'otp-verified' || status === 'charging') return 2 + after;
  return 0;
}

/** Where the payer is in the wallet's steps, and the news of a top-up. */
export function StepProgress({ status, topUp }: { status: CheckoutStatus; topUp: CheckoutTopUp | undefined }) {
  const { t, money } = useI18n();
  const steps = topUp ? STEPS_WITH_TOP_UP : STEPS;
  const current = stepIndex(status, topUp !== undefined);
  // Polite and kept across the steps of a top-up, so each change is read out: the wait for the
  // payer's approval, then the money received.
  let topUpNews = '';
  if (status === 'topup-pending') topUpNews = t('hosted.topUpWaiting', { phone: topUp?.topup?.phoneNumber ?? topUp?.phoneNumber ?? '' });
  else if (topUp?.topup?.status === 'SUCCEEDED' && ['otp-sent', 'otp-verified', 'charging'].includes(status))
    topUpNews = t('hosted.topUpReceived', { amount: money(topUp.topup.amount, topUp.topup.currency) });
  return (
    <>
      <ol className="steps" aria-label={t('hosted.stepsLabel')}>
        {steps.map((s, i) => (
          <li key={s} className={i < current ? 'done' : undefined} aria-current={i === current ? 'step' : undefined}>
            {t(s)}
          </li>
        ))}
      </ol>
      {topUp && (
        <p role="status" id="topup-news" className={topUpNews ? `notice ${status === 'topup-pending' ? 'info' : 'success'}` : undefined}>
          {topUpNews}
        </p>
      )}
    </>
  );
}
