import type { FormEvent, ReactNode } from 'react';
import { type CheckoutMessageId, useCheckoutText } from '../i18n.tsx';
import { CARDHOLDER_FIELDS, type CardholderField, type CardholderFieldError, type MobileMoney } from '../useMobileMoney.ts';

/** The card holder's countries offered first: those Caisse sells in, then a few where payers often live. */
const HOLDER_COUNTRIES = ['CI', 'CM', 'SN', 'BJ', 'BF', 'ML', 'TG', 'NE', 'GN', 'GA', 'CG', 'CD', 'FR', 'BE', 'CH', 'CA', 'US', 'GB', 'DE', 'IT', 'ES'];

/** How each field is typed and filled in by the browser. */
const HOLDER_INPUTS: Record<Exclude<CardholderField, 'country'>, { type: string; autoComplete: string; label: CheckoutMessageId }> = {
  name: { type: 'text', autoComplete: 'given-name', label: 'card.name' },
  surname: { type: 'text', autoComplete: 'family-name', label: 'card.surname' },
  email: { type: 'email', autoComplete: 'email', label: 'card.email' },
  phoneNumber: { type: 'tel', autoComplete: 'tel', label: 'card.phoneNumber' },
  address: { type: 'text', autoComplete: 'street-address', label: 'card.address' },
  city: { type: 'text', autoComplete: 'address-level2', label: 'card.city' },
  zipCode: { type: 'text', autoComplete: 'postal-code', label: 'card.zipCode' },
};

/** What a card holder's field error says (each key named whole, as the catalogues' check reads them). */
const HOLDER_ERRORS: Record<CardholderFieldError, CheckoutMessageId> = {
  required: 'card.error.required',
  email: 'card.error.email',
  phone_invalid: 'card.error.phone_invalid',
  cardholder_invalid: 'card.error.cardholder_invalid',
};

export interface CardholderStepProps {
  mm: MobileMoney;
  /** The prefix of the fields' ids. */
  id: string;
  /** The id of the heading, which labels the form. */
  heading: string;
  title: ReactNode;
  alert: ReactNode;
  /** The amount as the page writes it. */
  amount: string;
  busy: boolean;
  onPay: (e: FormEvent<HTMLFormElement>) => void;
  /** Mobile money or card, above the fields. */
  methodChoice?: ReactNode;
  /** Pay with the Caisse wallet instead, below the button. */
  wallet?: ReactNode;
}

/** The card holder's details the card provider asks, before its own page takes the card (never here). */
export function CardholderStep({ mm, id, heading, title, alert, amount, busy, onPay, methodChoice, wallet }: CardholderStepProps) {
  const { t, locale } = useCheckoutText();
  const card = mm.card;
  if (!card) return null;
  const countries = (() => {
    try {
      return new Intl.DisplayNames([locale], { type: 'region' });
    } catch {
      return undefined;
    }
  })();
  const fieldError = (field: CardholderField) => {
    const problem = mm.fieldErrors[field];
    return problem ? (
      <p id={`${id}-${field}-error`} className="caisse-error error-text">
        {t(HOLDER_ERRORS[problem])}
      </p>
    ) : null;
  };
  const invalid = (field: CardholderField) =>
    mm.fieldErrors[field] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-error` } : ({} as Record<string, never>);
  return (
    <form onSubmit={onPay} aria-labelledby={heading} noValidate>
      {title}
      {methodChoice}
      {alert}
      <p className="caisse-hint hint">{t('card.hint', { brands: card.name })}</p>
      {CARDHOLDER_FIELDS.map((field) =>
        field === 'country' ? (
          <div className="caisse-field field" key={field}>
            <label htmlFor={`${id}-card-${field}`}>{t('card.country')}</label>
            <select
              id={`${id}-card-${field}`}
              name={field}
              autoComplete="country"
              required
              value={mm.cardholder.country}
              onChange={(e) => mm.setCardholder('country', e.currentTarget.value)}
              {...invalid(field)}
            >
              <option value="">{t('card.chooseCountry')}</option>
              {HOLDER_COUNTRIES.map((code) => (
                <option key={code} value={code}>
                  {countries?.of(code) ?? code}
                </option>
              ))}
            </select>
            {fieldError(field)}
          </div>
        ) : (
          <div className="caisse-field field" key={field}>
            <label htmlFor={`${id}-card-${field}`}>{t(HOLDER_INPUTS[field].label)}</label>
            <input
              id={`${id}-card-${field}`}
              name={field}
              type={HOLDER_INPUTS[field].type}
              autoComplete={HOLDER_INPUTS[field].autoComplete}
              required
              value={mm.cardholder[field]}
              onChange={(e) => mm.setCardholder(field, e.currentTarget.value)}
              {...invalid(field)}
            />
            {fieldError(field)}
          </div>
        ),
      )}
      <button type="submit" className="caisse-primary wide" disabled={busy || !card.available} aria-busy={busy}>
        {busy ? t('mm.sending') : t('card.pay', { amount })}
      </button>
      {card.available ? null : <p className="caisse-hint hint">{t('card.unavailable')}</p>}
      {wallet}
    </form>
  );
}
