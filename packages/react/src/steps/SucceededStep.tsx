import type { ReactNode } from 'react';
import { OutcomeStep, type OutcomeStepProps } from './OutcomeStep.tsx';
import { ReturnLink } from './ReturnLink.tsx';

export interface SucceededStepProps extends Omit<OutcomeStepProps, 'children'> {
  texts: {
    /** Who was paid how much. */
    message: ReactNode;
    /** The intent's reference, when known. */
    reference?: ReactNode;
    /** The way back to the shop's words. */
    returnTo: ReactNode;
  };
  /** Where "back to the shop" leads (no link without one). */
  returnUrl?: string | null;
}

/** Paid: the thanks, the reference and the way back to the shop (`succeeded`). */
export function SucceededStep({ icon, title, texts, returnUrl }: SucceededStepProps) {
  return (
    <OutcomeStep icon={icon} title={title}>
      <p className="caisse-success" tabIndex={-1} data-caisse-focus="">
        {texts.message}
      </p>
      {texts.reference ? <p className="caisse-hint caisse-reference hint">{texts.reference}</p> : null}
      <ReturnLink href={returnUrl}>{texts.returnTo}</ReturnLink>
    </OutcomeStep>
  );
}
