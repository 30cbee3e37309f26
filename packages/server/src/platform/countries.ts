import type { Currency } from './money.ts';

/**
 * The countries merchants may sell in (docs/spec/providers.md), each with the currency its payers hold and
 * its E.164 calling code. A merchant's country selects the providers and the currency offered.
 */
export const COUNTRIES = {
  CM: { currency: 'XAF', callingCode: '237' },
  SN: { currency: 'XOF', callingCode: '221' },
  CI: { currency: 'XOF', callingCode: '225' },
  BJ: { currency: 'XOF', callingCode: '229' },
  BF: { currency: 'XOF', callingCode: '226' },
  ML: { currency: 'XOF', callingCode: '223' },
  TG: { currency: 'XOF', callingCode: '228' },
} as const satisfies Record<string, { currency: Currency; callingCode: string }>;

export type Country = keyof typeof COUNTRIES;
export const COUNTRY_CODES = Object.keys(COUNTRIES) as Country[];
export const DEFAULT_COUNTRY: Country = 'CM';

export function isCountry(value: string): value is Country {
  return Object.hasOwn(COUNTRIES, value);
}

/** The currency a country's payers pay in (XAF in CM, XOF in the West African countries). */
export function currencyOf(country: Country): Currency {
  return COUNTRIES[country].currency;
}
