import { ApiError } from './errors.ts';

/** Supported currencies and their ISO 4217 minor-unit exponents (docs/spec/payment-intents.md). */
export const CURRENCIES = { XAF: 0, XOF: 0, EUR: 2, USD: 2 } as const;
export type Currency = keyof typeof CURRENCIES;

/** Largest amount, in minor units. */
export const MAX_MINOR_UNITS = 999_999_999_999n;

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
export function parseAmount(value: unknown, currency: Currency, param = 'amount'): bigint {
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
  return minor;
}

/** bigint minor units → decimal string in major units ("5000", "12.50"). */
export function formatAmount(minor: bigint, currency: Currency): string {
  const exponent = CURRENCIES[currency];
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  if (exponent === 0) return `${negative ? '-' : ''}${abs}`;
  const scale = 10n ** BigInt(exponent);
  return `${negative ? '-' : ''}${abs / scale}.${(abs % scale).toString().padStart(exponent, '0')}`;
}
