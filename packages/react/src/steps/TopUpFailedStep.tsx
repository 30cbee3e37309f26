import type { ReactNode } from 'react';
import { SecondaryActions } from './SecondaryActions.tsx';
import type { StepProps } from './step.ts';

export interface TopUpFailedStepProps extends Pick<StepProps, 'checkout' | 'title' | 'alert'> {
  texts: {
    /** Says nothing was taken, when given. */
    nothingTaken?: ReactNode;
    tryAgain: string;
    cancel: string;
  };
}

/** The top-up was refused or not approved in time (`topup-failed`): offer it again, or sign out. */
export function TopUpFailedStep({ checkout, title, alert, texts }: TopUpFailedStepProps) {
  const { pending } = checkout;
  return (
    <div>
      {title}
      {alert}
      {texts.nothingTaken ? <p>{texts.nothingTaken}</p> : null}
      <button type="button" className="caisse-primary wide" disabled={pending} aria-busy={pending} onClick={() => void checkout.retryTopUp()}>
        {texts.tryAgain}
      </button>
      <SecondaryActions disabled={pending} actions={[{ text: texts.cancel, onClick: () => checkout.cancelTopUp() }]} />
    </div>
  );
}
