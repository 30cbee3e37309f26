import { ApiError } from './errors.ts';

/** Supported currencies and their ISO 4217 minor-unit exponents (docs/spec/payment-intents.md). */
export const CURRENCIES = { XAF: 0, XOF: 0, EUR: 2, USD: 2 } as const;
export type Currency = keyof typeof CURRENCIES;

/** Largest amount, in minor units. */
export const MAX_MINOR_UNITS = 999_999_999_999n as MinorUnits;

/**
 * An amount in a currency's minor units: a whole count, never negative. Branded so that a bigint
 * read from somewhere else (a row, a sum, a count of something) does not pass for one unnoticed:
 * it is made by `parseAmount` (the API's decimal strings) or `minorUnits` (database values and
 * literals), which both check it. A signed change (a posting, a balance that may go below zero)
 * is a plain `bigint`.
 */
export type MinorUnits = bigint & { readonly __brand: 'MinorUnits' };

/**
 * A database value or a literal as an amount: a bigint, a safe integer or a string of digits (as
 * the driver may answer a `bigint` column). A negative value, a fraction or an integer too large
 * for a number to hold exactly is a bug upstream, so it throws rather than rounds.
 */
export function minorUnits(value: bigint | number | string): MinorUnits {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is not a whole number of minor units`);
    n = BigInt(value);
  } else {
    if (!/^-?[0-9]+$/.test(value)) throw new RangeError(`"${value}" is not a whole number of minor units`);
    n = BigInt(value);
  }
  if (n < 0n) throw new RangeError(`${n} minor units: an amount is never negative`);
  return n as MinorUnits;
}

/** The sum of amounts. */
export function addMinor(...amounts: MinorUnits[]): MinorUnits {
  return amounts.reduce<bigint>((sum, a) => sum + a, 0n) as MinorUnits;
}

/** `a - b`, which must not be negative (a net after a fee, what is left to refund). */
export function subtractMinor(a: MinorUnits, b: MinorUnits): MinorUnits {
  return minorUnits(a - b);
}

export function isCurrency(value: string): value is Currency {
  return Object.hasOwn(CURRENCIES, value);
}

export function assertCurrency(value: string, param = 'currency'): Currency {
  if (!isCurrency(value)) {
    throw new ApiError('currency_unsupported', `Currency "${value}" is not supported; use one of ${Object.keys(CURRENCIES).join(', ')}`, { param });
  }
  return value;
}

/**
 * A decimal string in major units → bigint minor units. Plain digits only, no sign, no exponent,
 * no spaces, no leading zeros, at most the currency's number of decimals, positive and at most
 * MAX_MINOR_UNITS.
 */
export function parseAmount(value: unknown, currency: Currency, param = 'amount'): MinorUnits {
  const exponent = CURRENCIES[currency];
  const invalid = (why: string) => new ApiError('amount_invalid', why, { param });
  if (typeof value !== 'string') throw invalid('amount must be a string of digits, e.g. "5000"');
  const match = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/.exec(value);
  if (!match) throw invalid(`amount "${value}" is not a plain decimal number`);
  const whole = match[1] as string;
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) {
    throw invalid(exponent === 0 ? `${currency} has no minor unit: send a whole amount such as "5000"` : `${currency} takes at most ${exponent} decimals`);
  }
  if (whole.length > 13) throw invalid(`amount is larger than the maximum of ${formatAmount(MAX_MINOR_UNITS, currency)} ${currency}`);
  const minor = BigInt(whole) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, '0') || '0');
  if (minor <= 0n) throw invalid('amount must be greater than zero');
  if (minor > MAX_MINOR_UNITS) throw invalid(`amount is larger than the maximum of ${formatAmount(MAX_MINOR_UNITS, currency)} ${currency}`);
  return minor as MinorUnits;
}

/**
 * Minor units → decimal string in major units ("5000", "12.50"). Takes any bigint, a `MinorUnits`
 * amount or a signed change (a statement row, a ledger movement: "-12.50"): its output is the
 * API's string, so a brand here would only move casts to every row it formats.
 */
export function formatAmount(minor: bigint, currency: Currency): string {
  const exponent = CURRENCIES[currency];
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  if (exponent === 0) return `${negative ? '-' : ''}${abs}`;
  const scale = 10n ** BigInt(exponent);
  return `${negative ? '-' : ''}${abs / scale}.${(abs % scale).toString().padStart(exponent, '0')}`;
}
