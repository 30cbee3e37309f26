import type { ReactNode } from 'react';

export interface OutcomeStepProps {
  /** A sign above the heading (the hosted page's ✓, ✕, ⏱), hidden from screen readers. */
  icon?: string;
  title?: ReactNode;
  children?: ReactNode;
}

/** Where the payment ended up: paid, declined, expired, canceled or not reachable. */
export function OutcomeStep({ icon, title, children }: OutcomeStepProps) {
  return (
    <div className="outcome caisse-outcome">
      {icon ? (
        <div className="icon" aria-hidden="true">
          {icon}
        </div>
      ) : null}
      {title}
      {children}
    </div>
  );
}
