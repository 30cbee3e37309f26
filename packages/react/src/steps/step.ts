import type { ReactNode } from 'react';
import type { Checkout } from '../useCheckout.ts';

/**
 * What every wallet step takes. `<Checkout/>` and the hosted checkout page render the same steps
 * with their own texts, heading and error placement; each element carries both pages' classes
 * (`caisse-*` and the hosted page's), so either stylesheet applies.
 */
export interface StepProps {
  checkout: Checkout;
  /** The step's heading (the hosted page's own, which takes focus); none in `<Checkout/>`, whose heading is the amount. */
  title?: ReactNode;
  /** The id `title` carries, which labels the step's form. */
  titleId?: string;
  /** The error shown inside the step (the hosted page's); `<Checkout/>` shows its errors below every step. */
  alert?: ReactNode;
  /** The id of the element saying the error, while there is one: the fields point at it. */
  errorId?: string;
  /**
   * Whether the fields say `aria-invalid="false"` when valid (`<Checkout/>`) rather than leaving
   * the attribute out (the hosted page).
   */
  explicitValid?: boolean;
}

/** The ids of what describes a field: its own hints, then the error while there is one. */
export function describedBy(props: Pick<StepProps, 'errorId'>, ...ids: string[]): string | undefined {
  return [...ids, ...(props.errorId ? [props.errorId] : [])].join(' ') || undefined;
}

/** A field's `aria-invalid`: true when refused, else false or left out (`explicitValid`). */
export function invalidWhen(props: Pick<StepProps, 'explicitValid'>, refused: boolean): boolean | undefined {
  return refused ? true : props.explicitValid ? false : undefined;
}

/** A form's field as typed (empty when absent). */
export function fieldOf(form: HTMLFormElement | null | undefined, name: string): string {
  return form ? String(new FormData(form).get(name) ?? '') : '';
}
