import type { OtpChannel } from '@caisse/browser';
import type { FormEvent, ReactNode } from 'react';
import { PhoneField } from './PhoneField.tsx';
import { SecondaryActions } from './SecondaryActions.tsx';
import { describedBy, fieldOf, invalidWhen, type StepProps } from './step.ts';

export interface SignInTexts {
  /** Says the account is the payer's at every shop using Caisse. */
  everyShop: ReactNode;
  phoneNumber: ReactNode;
  phonePlaceholder?: string;
  password: ReactNode;
  continue: string;
  signingIn: string;
  forgotPassword: string;
  /** The way back to mobile money, when the intent takes it. */
  payAnotherWay?: string;
}

export interface SignInStepProps extends StepProps {
  texts: SignInTexts;
  ids: { phone: string; password: string };
  /** Where the payment code goes (default: the controller's, SMS). */
  channel?: OtpChannel;
  /** Shown after the password (the hosted page's choice of SMS or e-mail). */
  children?: ReactNode;
  /** Back to the mobile-money screens (shown when `texts.payAnotherWay` is given). */
  onPayAnotherWay?: () => void;
}

/** Sign in with the phone number and password of the payer's Caisse account (`ready`, `logging-in`). */
export function SignInStep(props: SignInStepProps) {
  const { checkout, texts, ids, channel, title, titleId, alert } = props;
  const busy = checkout.status === 'logging-in';
  const invalid = invalidWhen(props, checkout.error !== undefined);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void checkout.login(fieldOf(e.currentTarget, 'phoneNumber'), fieldOf(e.currentTarget, 'password'), channel);
  };
  return (
    <form onSubmit={onSubmit} aria-labelledby={titleId} aria-describedby={describedBy(props)}>
      {title}
      <p className="caisse-hint hint">{texts.everyShop}</p>
      {alert}
      <PhoneField
        id={ids.phone}
        label={texts.phoneNumber}
        defaultValue={checkout.phoneNumber}
        invalid={invalid}
        describedBy={describedBy(props)}
        placeholder={texts.phonePlaceholder}
      />
      <div className="caisse-field field">
        <label htmlFor={ids.password}>{texts.password}</label>
        <input
          id={ids.password}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={invalid}
          aria-describedby={describedBy(props)}
        />
      </div>
      {props.children}
      <button type="submit" className="caisse-primary" disabled={busy} aria-busy={busy}>
        {busy ? texts.signingIn : texts.continue}
      </button>
      {/* A div, not a paragraph: no default margins around the link for a page that brings its own styles. */}
      <div className="forgot caisse-forgot">
        <button
          type="button"
          className="caisse-link link"
          disabled={busy}
          onClick={(e) => checkout.forgotPassword(fieldOf(e.currentTarget.form, 'phoneNumber'))}
        >
          {texts.forgotPassword}
        </button>
      </div>
      {texts.payAnotherWay && <SecondaryActions disabled={busy} actions={[{ text: texts.payAnotherWay, onClick: () => props.onPayAnotherWay?.() }]} />}
    </form>
  );
}
