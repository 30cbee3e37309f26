import { COUNTRIES, type Country } from '../../platform/countries.ts';

/**
 * The numbering table: which mobile network a number's prefix belongs to, in every country
 * Caisse serves. It is the only place that knows prefixes (docs/spec/providers.md, "Operator routing").
 * Plain data, so the browser gets the same table through `GET /payment-methods` (`prefixes`).
 *
 * Sources: Cameroon as the specification gives it; Senegal (ARTP allocations: Orange 77 and 78, Free
 * 76, Expresso 70, Promobile 75); Côte d'Ivoire (ARTCI's 10-digit plan of 31 January 2021:
 * Moov 01, MTN 05, Orange 07). Numbers move between networks (portability), so a prefix only
 * suggests: the payer can always choose another provider. Wave is a wallet, not a network: any
 * number of its countries may hold an account, so it has no prefix.
 */

export type Operator = 'mtn' | 'orange' | 'moov' | 'free' | 'expresso' | 'promobile' | 'nexttel' | 'camtel';

export interface NumberingEntry {
  country: Country;
  operator: Operator;
  /** National prefixes (after the calling code), e.g. `67` or `650`. */
  prefixes: readonly string[];
}

/** Digits of a mobile number after the calling code. */
export const NATIONAL_LENGTH: Readonly<Record<Country, number>> = { CM: 9, SN: 9, CI: 10 };

export const NUMBERING_PLAN: readonly NumberingEntry[] = [
  { country: 'CM', operator: 'mtn', prefixes: ['650', '651', '652', '653', '654', '67', '680', '681', '682', '683'] },
  { country: 'CM', operator: 'orange', prefixes: ['655', '656', '657', '658', '659', '69'] },
  { country: 'CM', operator: 'nexttel', prefixes: ['66'] },
  { country: 'CM', operator: 'camtel', prefixes: ['62'] },
  { country: 'SN', operator: 'orange', prefixes: ['77', '78'] },
  { country: 'SN', operator: 'free', prefixes: ['76'] },
  { country: 'SN', operator: 'expresso', prefixes: ['70'] },
  { country: 'SN', operator: 'promobile', prefixes: ['75'] },
  { country: 'CI', operator: 'moov', prefixes: ['01'] },
  { country: 'CI', operator: 'mtn', prefixes: ['05'] },
  { country: 'CI', operator: 'orange', prefixes: ['07'] },
];

/** The E.164 prefixes (`+23767`) of a network in these countries, longest first. */
export function prefixesOf(operator: Operator, countries: readonly Country[]): string[] {
  return NUMBERING_PLAN.filter((e) => e.operator === operator && countries.includes(e.country))
    .flatMap((e) => e.prefixes.map((p) => `+${COUNTRIES[e.country].callingCode}${p}`))
    .sort((a, b) => b.length - a.length || a.localeCompare(b));
}

export interface NumberInfo {
  country: Country;
  /** Undefined when the number is well formed but its prefix is in no network of the table. */
  operator: Operator | undefined;
}

/**
 * What the table says about an E.164 number (`+237677123456`): its country and network, or
 * undefined when it is not a mobile number of a country served (wrong length, other country).
 */
export function lookupNumber(e164: string): NumberInfo | undefined {
  const match = /^\+([0-9]{8,15})$/.exec(e164);
  if (match === null) return undefined;
  const digits = match[1] as string;
  for (const [country, { callingCode }] of Object.entries(COUNTRIES) as [Country, (typeof COUNTRIES)[Country]][]) {
    if (!digits.startsWith(callingCode)) continue;
    const national = digits.slice(callingCode.length);
    if (national.length !== NATIONAL_LENGTH[country]) return undefined;
    let best: { operator: Operator; length: number } | undefined;
    for (const entry of NUMBERING_PLAN) {
      if (entry.country !== country) continue;
      for (const p of entry.prefixes) {
        if (national.startsWith(p) && (best === undefined || p.length > best.length)) best = { operator: entry.operator, length: p.length };
      }
    }
    return { country, operator: best?.operator };
  }
  return undefined;
}
