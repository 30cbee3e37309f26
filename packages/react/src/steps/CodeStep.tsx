import type { OtpChannel } from '@caisse/browser';
import type { FormEvent, ReactNode } from 'react';
import { OtpCodeInput } from '../OtpCodeInput.tsx';
import { SecondaryActions } from './SecondaryActions.tsx';
import { describedBy, fieldOf, invalidWhen, type StepProps } from './step.ts';

export interface CodeTexts {
  /** Where the code went. */
  hint: ReactNode;
  code: string;
  checking: string;
  verify: string;
  sendNewCode: string;
  /** Sends the next code the other way (SMS or e-mail), when given. */
  switchChannel?: string;
}

export interface CodeStepProps extends StepProps {
  texts: CodeTexts;
  ids: { hint: string; code: string };
  /** Said before the hint (the hosted page's "password changed"). */
  notice?: ReactNode;
}

/** The payment code sent by SMS or e-mail (`otp-sent`). */
export function CodeStep(props: CodeStepProps) {
  const { checkout, texts, ids, title, alert } = props;
  const { pending, otp } = checkout;
  const other: OtpChannel = otp?.channel === 'email' ? 'sms' : 'email';
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void checkout.verifyCode(fieldOf(e.currentTarget, 'otp'));
  };
  return (
    <form onSubmit={onSubmit}>
      {title}
      {props.notice}
      <p id={ids.hint} className="caisse-hint">
        {texts.hint}
      </p>
      {alert}
      <div className="caisse-field field">
        <OtpCodeInput id={ids.code} label={texts.code} invalid={invalidWhen(props, checkout.error !== undefined)} describedBy={describedBy(props, ids.hint)} />
      </div>
      <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
        {pending ? texts.checking : texts.verify}
      </button>
      <SecondaryActions
        disabled={pending}
        actions={[
          { text: texts.sendNewCode, onClick: () => void checkout.resendCode(otp?.channel) },
          texts.switchChannel !== undefined && { text: texts.switchChannel, onClick: () => void checkout.resendCode(other) },
        ]}
      />
    </form>
  );
}
