import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

export interface OtpCodeInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode' | 'autoComplete' | 'pattern' | 'maxLength' | 'minLength' | 'required' | 'children'> {
  /** The visible label (default "Verification code"). */
  label?: ReactNode;
  /** Class of the label (the input takes `className`). */
  labelClassName?: string;
  /** Digits in a code (default 6, as Caisse sends them). */
  length?: number;
  /** Whether the code was refused (`aria-invalid`; undefined leaves the attribute out). */
  invalid?: boolean;
  /** Ids of what describes the field, space-separated: the hint saying where the code went, the error. */
  describedBy?: string;
}

/**
 * The field for the one-time code Caisse sends by SMS or e-mail, as `<Checkout/>` and the hosted
 * checkout page use it: a visible label tied to a text input that phones fill from the message
 * (`autocomplete="one-time-code"`), that opens the numeric keypad (`inputmode="numeric"`, not
 * `type="number"`, which would drop leading zeros and add a spinner), and that takes exactly
 * `length` digits (`pattern`, `maxlength`, `required`). It says when the code was refused and
 * what describes it (`aria-invalid`, `aria-describedby`). It renders the label and the input
 * side by side; wrap them as your layout needs. Named `otp` in its form unless `name` says
 * otherwise; any other input attribute (`value`, `onChange`, `disabled`, …) goes to the input.
 */
export function OtpCodeInput({ id, name = 'otp', label = 'Verification code', labelClassName, length = 6, invalid, describedBy, ...input }: OtpCodeInputProps) {
  const generated = useId();
  const inputId = id ?? `${generated}-otp`;
  return (
    <>
      <label htmlFor={inputId} className={labelClassName}>
        {label}
      </label>
      <input
        {...input}
        id={inputId}
        name={name}
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern={`[0-9]{${length}}`}
        maxLength={length}
        required
        aria-invalid={invalid}
        aria-describedby={describedBy}
      />
    </>
  );
}
