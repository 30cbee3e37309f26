import type { ReactNode } from 'react';
import { describedBy, type StepProps } from './step.ts';

export interface PayStepProps extends Pick<StepProps, 'checkout' | 'title' | 'alert' | 'errorId'> {
  texts: {
    /** What paying does (who is paid how much), when given. */
    confirm?: ReactNode;
    paying: string;
    pay: string;
  };
}

/** The code checked: pay from the wallet (`otp-verified`, then `charging`). */
export function PayStep(props: PayStepProps) {
  const { checkout, title, alert, texts } = props;
  const busy = checkout.status === 'charging';
  return (
    <div>
      {title}
      {texts.confirm ? <p>{texts.confirm}</p> : null}
      {alert}
      <button
        type="button"
        className="caisse-primary wide"
        onClick={() => void checkout.pay()}
        disabled={busy}
        aria-busy={busy}
        aria-describedby={describedBy(props)}
      >
        {busy ? texts.paying : texts.pay}
      </button>
    </div>
  );
}
