import type { ReactNode } from 'react';

export interface PhoneFieldProps {
  id: string;
  label: ReactNode;
  defaultValue?: string;
  invalid: boolean | undefined;
  describedBy: string | undefined;
  placeholder?: string;
  /** Said under the field (its hint). */
  children?: ReactNode;
}

/** A phone number field of the wallet's steps (`phoneNumber` in its form), with the telephone keypad. */
export function PhoneField({ id, label, defaultValue, invalid, describedBy, placeholder, children }: PhoneFieldProps) {
  return (
    <div className="caisse-field field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name="phoneNumber"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        required
        defaultValue={defaultValue}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        placeholder={placeholder}
      />
      {children}
    </div>
  );
}
