import type { ReactNode } from 'react';
import { OutcomeStep, type OutcomeStepProps } from './OutcomeStep.tsx';
import type { StepProps } from './step.ts';

export interface FailedStepProps extends Omit<OutcomeStepProps, 'children'>, Pick<StepProps, 'checkout'> {
  /** Whether the intent still takes an attempt (default: the controller's `canRetry`). */
  canRetry?: boolean;
  texts: {
    /** What went wrong, when given. */
    message?: ReactNode;
    tryAgain: string;
    /** Said when no attempt is left, when given. */
    noLonger?: ReactNode;
  };
}

/** Declined, or the gateway not reached (`failed`, `error`): try again while the intent takes attempts. */
export function FailedStep({ checkout, icon, title, texts, canRetry = checkout.canRetry }: FailedStepProps) {
  return (
    <OutcomeStep icon={icon} title={title}>
      {texts.message ? <p>{texts.message}</p> : null}
      {canRetry ? (
        <button type="button" className="caisse-primary wide" onClick={() => void checkout.retry()} disabled={checkout.pending}>
          {texts.tryAgain}
        </button>
      ) : texts.noLonger ? (
        <p>{texts.noLonger}</p>
      ) : null}
    </OutcomeStep>
  );
}
