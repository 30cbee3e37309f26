import { CURRENCIES, type Currency } from '../../platform/money.ts';

/**
 * A provider's decimal string ("5000", "12.50") → minor units of `currency`, or undefined when it
 * cannot be read exactly. Trailing zeros past the currency's exponent are accepted ("5000.00" XAF);
 * anything that would lose precision is not.
 */
export function decimalToMinor(amount: string, currency: Currency): bigint | undefined {
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(amount);
  if (!match) return undefined;
  const exponent = CURRENCIES[currency];
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > exponent) return undefined;
  return BigInt(match[1] as string) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, '0') || '0');
}
