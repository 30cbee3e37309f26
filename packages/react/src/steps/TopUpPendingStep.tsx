import type { ReactNode } from 'react';

export interface TopUpPendingStepProps {
  title?: ReactNode;
  texts: {
    /** What was asked of whose phone (the hosted page says it here; `<Checkout/>` in its status line). */
    asked?: ReactNode;
    keepOpen: ReactNode;
  };
}

/** The payer approves the top-up on their phone (`topup-pending`); the page reads it until the provider decided. */
export function TopUpPendingStep({ title, texts }: TopUpPendingStepProps) {
  return (
    <div>
      {title}
      {texts.asked ? <p>{texts.asked}</p> : null}
      <p className="caisse-hint hint" tabIndex={-1} data-caisse-focus="">
        {texts.keepOpen}
      </p>
    </div>
  );
}
