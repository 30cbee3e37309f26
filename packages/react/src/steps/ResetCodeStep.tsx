import type { OtpChannel } from '@caisse/browser';
import type { FormEvent, ReactNode } from 'react';
import { OtpCodeInput } from '../OtpCodeInput.tsx';
import { SecondaryActions } from './SecondaryActions.tsx';
import { describedBy, fieldOf, invalidWhen, type StepProps } from './step.ts';

export interface ResetCodeTexts {
  /** Where the reset code went. */
  hint: ReactNode;
  code: string;
  newPassword: ReactNode;
  /** Said under the new password when given (else say it in `newPassword`). */
  newPasswordHint?: ReactNode;
  settingPassword: string;
  setPassword: string;
  sendNewCode: string;
  backToSignIn: string;
}

export interface ResetCodeStepProps extends StepProps {
  texts: ResetCodeTexts;
  ids: { hint: string; code: string; newPassword: string; newPasswordHint?: string };
  /** Where the payment code goes once the password is set (default: SMS). */
  channel?: OtpChannel;
}

/** The reset code sent by SMS and the new password (`reset-code`); then the customer is signed in with it. */
export function ResetCodeStep(props: ResetCodeStepProps) {
  const { checkout, texts, ids, title, titleId, alert } = props;
  const { pending, error } = checkout;
  const phoneNumber = checkout.reset?.phoneNumber ?? checkout.phoneNumber ?? '';
  // A refused password is the password field's fault; anything else, the code's.
  const weak = error?.code === 'password_weak';
  const hintId = texts.newPasswordHint ? ids.newPasswordHint : undefined;
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void checkout.confirmPasswordReset(fieldOf(e.currentTarget, 'otp'), fieldOf(e.currentTarget, 'newPassword'), props.channel);
  };
  return (
    <form onSubmit={onSubmit} aria-labelledby={titleId}>
      {title}
      <p id={ids.hint} className="caisse-hint">
        {texts.hint}
      </p>
      {alert}
      {/* For password managers: whose new password this is. */}
      <input type="text" name="username" autoComplete="username" value={phoneNumber} readOnly hidden />
      <div className="caisse-field field">
        <OtpCodeInput id={ids.code} label={texts.code} invalid={invalidWhen(props, error !== undefined && !weak)} describedBy={describedBy(props, ids.hint)} />
      </div>
      <div className="caisse-field field">
        <label htmlFor={ids.newPassword}>{texts.newPassword}</label>
        <input
          id={ids.newPassword}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          aria-invalid={invalidWhen(props, weak)}
          aria-describedby={describedBy(props, ...(hintId ? [hintId] : []))}
        />
        {texts.newPasswordHint ? (
          <p id={hintId} className="caisse-hint hint">
            {texts.newPasswordHint}
          </p>
        ) : null}
      </div>
      <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
        {pending ? texts.settingPassword : texts.setPassword}
      </button>
      <SecondaryActions
        disabled={pending}
        actions={[
          { text: texts.sendNewCode, onClick: () => void checkout.requestPasswordReset() },
          { text: texts.backToSignIn, onClick: () => checkout.cancelPasswordReset(), look: 'caisse-link' },
        ]}
      />
    </form>
  );
}
