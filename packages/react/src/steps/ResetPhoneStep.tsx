import type { FormEvent, ReactNode } from 'react';
import { PhoneField } from './PhoneField.tsx';
import { SecondaryActions } from './SecondaryActions.tsx';
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
      <PhoneField
        id={ids.phone}
        label={texts.phoneNumber}
        defaultValue={checkout.phoneNumber}
        invalid={invalidWhen(props, checkout.error !== undefined)}
        describedBy={describedBy(props, ids.intro)}
        placeholder={texts.phonePlaceholder}
      />
      <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
        {pending ? texts.sending : texts.sendResetCode}
      </button>
      <SecondaryActions disabled={pending} actions={[{ text: texts.backToSignIn, onClick: () => checkout.cancelPasswordReset() }]} />
    </form>
  );
}
