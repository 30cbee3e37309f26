import type { FormEvent, ReactNode } from 'react';
import { PhoneField } from './PhoneField.tsx';
import { SecondaryActions } from './SecondaryActions.tsx';
import { describedBy, fieldOf, invalidWhen, type StepProps } from './step.ts';

export interface TopUpOfferTexts {
  /** What is missing and what topping up does. */
  intro: ReactNode;
  provider: string;
  /** The number's label, naming the chosen provider. */
  phoneNumber: ReactNode;
  /** Said under the number when given (else say it in `phoneNumber`). */
  phoneHint?: ReactNode;
  phonePlaceholder?: string;
  starting: string;
  topUp: string;
  cancel: string;
}

export interface TopUpOfferStepProps extends StepProps {
  texts: TopUpOfferTexts;
  /** `provider(p)` is the id of provider p's choice. */
  ids: { intro: string; phone: string; phoneHint?: string; provider: (provider: string) => string };
}

/** The wallet holds too little: top it up by mobile money with what is missing (`topup-offer`). */
export function TopUpOfferStep(props: TopUpOfferStepProps) {
  const { checkout, texts, ids, title, titleId, alert } = props;
  const { pending, error, topUp } = checkout;
  if (topUp === undefined) return null;
  const hintId = texts.phoneHint ? ids.phoneHint : undefined;
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void checkout.startTopUp(fieldOf(e.currentTarget, 'phoneNumber'), fieldOf(e.currentTarget, 'provider') || undefined);
  };
  return (
    <form onSubmit={onSubmit} aria-labelledby={titleId}>
      {title}
      <p id={ids.intro} className="caisse-hint">
        {texts.intro}
      </p>
      {alert}
      {topUp.providers.length > 1 && (
        <fieldset className="caisse-field field">
          <legend>{texts.provider}</legend>
          {topUp.providers.map((p) => (
            <label key={p.provider} className="check" htmlFor={ids.provider(p.provider)}>
              <input
                id={ids.provider(p.provider)}
                type="radio"
                name="provider"
                value={p.provider}
                checked={p.provider === topUp.provider}
                onChange={() => checkout.chooseTopUpProvider(p.provider)}
              />{' '}
              {p.name}
            </label>
          ))}
        </fieldset>
      )}
      <PhoneField
        id={ids.phone}
        label={texts.phoneNumber}
        defaultValue={topUp.phoneNumber}
        invalid={invalidWhen(props, error !== undefined && error.code !== 'insufficient_funds')}
        describedBy={describedBy(props, hintId ?? ids.intro)}
        placeholder={texts.phonePlaceholder}
      >
        {texts.phoneHint ? (
          <p id={hintId} className="caisse-hint hint">
            {texts.phoneHint}
          </p>
        ) : null}
      </PhoneField>
      <button type="submit" className="caisse-primary" disabled={pending} aria-busy={pending}>
        {pending ? texts.starting : texts.topUp}
      </button>
      <SecondaryActions disabled={pending} actions={[{ text: texts.cancel, onClick: () => checkout.cancelTopUp() }]} />
    </form>
  );
}
