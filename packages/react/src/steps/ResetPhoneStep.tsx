import type { FormEvent, ReactNode } from 'react';
import { describedBy, fieldOf, invalidWhen, type StepProps } from './step.ts';

export interface ResetPhoneTexts {
  intro: ReactNode;
  phoneNumber: ReactNode;
  phonePlaceholder?: string;
  sending: string;
  sendResetCode: string;
  backToSignIn: string;
}

export interface ResetPhoneStepProps extends StepProps {
  texts: ResetPhoneTexts;
  ids: { intro: string; phone: string };
}

/** "Forgot password?": the number to send a reset code to (`reset-phone`). */
export function ResetPhoneStep(props: ResetPhoneStepProps) {
  const { checkout, texts, ids, title, titleId, alert } = props;
  const { pending } = checkout;
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void checkout.requestPasswordReset(fieldOf(e.currentTarget, 'phoneNumber'));
  };
  return (
    <form onSubmit={onSubmit} aria-labelledby={titleId}>
      {title}
      <p id={ids.intro} className="caisse-hint">
        {texts.intro}
      </p>
      {alert}
      <div className="field">
        <label htmlFor={ids.phone}>{texts.phoneNumber}</label>
        <input
          id={ids.phone}
          name="phoneNumber"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          required
          defaultValue={checkout.phoneNumber}
          aria-invalid={invalidWhen(props, checkout.error !== undefined)}
          aria-describedby={describedBy(props, ids.intro)}
          placeholder={texts.phonePlaceholder}
        />
      </div>
      <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
        {pending ? texts.sending : texts.sendResetCode}
      </button>
      <div className="actions caisse-actions">
        <button type="button" className="caisse-secondary secondary" disabled={pending} onClick={() => checkout.cancelPasswordReset()}>
          {texts.backToSignIn}
        </button>
      </div>
    </form>
  );
}
