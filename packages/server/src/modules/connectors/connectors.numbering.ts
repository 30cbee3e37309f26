import { COUNTRIES, type Country } from '../../platform/countries.ts';

/**
 * The numbering table: which mobile network a number's prefix belongs to, in every country
 * Caisse serves. It is the only place that knows prefixes (docs/spec/providers.md, "Operator routing").
 * Plain data, so the browser gets the same table through `GET /payment-methods` (`prefixes`).
 *
 * Sources: Cameroon as the specification gives it; Senegal (ARTP allocations: Orange 77 and 78, Free
 * 76, Expresso 70, Promobile 75); Côte d'Ivoire (ARTCI's 10-digit plan of 31 January 2021:
 * Moov 01, MTN 05, Orange 07); Benin (ARCEP's 10-digit plan of 30 November 2024: every mobile
 * number is `01` before its former 8 digits, so the operators' ranges are their former ones behind
 * `01`); Burkina Faso, Mali and Togo (8 digits; the operators' published ranges, checked against
 * libphonenumber's mobile patterns, which the phone reader applies first). Numbers move between
 * networks (portability), so a prefix only suggests: the payer can always choose another
 * provider. Wave is a wallet, not a network: any number of its countries may hold an account, so
 * it has no prefix.
 */

export type Operator = 'mtn' | 'orange' | 'moov' | 'free' | 'expresso' | 'promobile' | 'nexttel' | 'camtel' | 'celtiis' | 'telecel' | 'togocom';

export interface NumberingEntry {
  country: Country;
  operator: Operator;
  /** National prefixes (after the calling code), e.g. `67` or `650`. */
  prefixes: readonly string[];
}

/** Digits of a mobile number after the calling code. */
export const NATIONAL_LENGTH: Readonly<Record<Country, number>> = { CM: 9, SN: 9, CI: 10, BJ: 10, BF: 8, ML: 8, TG: 8 };

/** Benin's mobile ranges of the former 8-digit plan, each now behind `01`. */
const benin = (ranges: readonly string[]) => ranges.map((r) => `01${r}`);

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
  {
    country: 'BJ',
    operator: 'mtn',
    prefixes: benin(['42', '46', '50', '51', '52', '53', '54', '56', '57', '59', '61', '62', '66', '67', '69', '90', '91', '96', '97']),
  },
  { country: 'BJ', operator: 'moov', prefixes: benin(['45', '55', '58', '60', '63', '64', '65', '68', '94', '95', '98', '99']) },
  { country: 'BJ', operator: 'celtiis', prefixes: benin(['40', '41', '43', '44']) },
  { country: 'BF', operator: 'orange', prefixes: ['05', '06', '07', '54', '55', '56', '57', '64', '65', '66', '67', '74', '75', '76', '77'] },
  { country: 'BF', operator: 'moov', prefixes: ['01', '02', '03', '50', '51', '52', '53', '60', '61', '62', '63', '70', '71', '72', '73'] },
  { country: 'BF', operator: 'telecel', prefixes: ['58', '68', '69', '78', '79'] },
  { country: 'ML', operator: 'orange', prefixes: ['7', '82', '83', '90', '91', '92', '93', '94'] },
  { country: 'ML', operator: 'moov', prefixes: ['6', '89', '95', '96', '97', '98', '99'] },
  { country: 'ML', operator: 'telecel', prefixes: ['50', '51', '52', '53'] },
  { country: 'TG', operator: 'togocom', prefixes: ['70', '71', '72', '73', '90', '91', '92', '93'] },
  { country: 'TG', operator: 'moov', prefixes: ['78', '79', '96', '97', '98', '99'] },
];

/** Each mobile network by the name its subscribers know, for errors that name a number's operator. */
export const OPERATOR_NAMES: Readonly<Record<Operator, string>> = {
  mtn: 'MTN',
  orange: 'Orange',
  moov: 'Moov',
  free: 'Free',
  expresso: 'Expresso',
  promobile: 'Promobile',
  nexttel: 'Nexttel',
  camtel: 'Camtel',
  celtiis: 'Celtiis',
  telecel: 'Telecel',
  togocom: 'Togocom',
};

/**
 * The network whose numbers each operator's mobile money serves, by method name (what
 * `paymentMethod.provider` names), for the operators reached only through an aggregator, which
 * have no description of their own; an operator with its own connector says it in its
 * description's `network`. Cards have no network.
 */
export const METHOD_NETWORKS: Readonly<Record<string, Operator | null>> = {
  moov_money: 'moov',
  free_money: 'free',
  t_money: 'togocom',
  celtiis_cash: 'celtiis',
  card: null,
};

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
