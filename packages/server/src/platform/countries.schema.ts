import { Type } from 'typebox';

/**
 * The schema of a country code (platform/countries.ts) in requests and answers; apart from the
 * countries themselves, so that the CLI reads those without loading TypeBox. The same list as
 * COUNTRIES (a test compares them): a literal tuple, so that the static type is `Country`.
 */
export const CountrySchema = Type.Union(
  [Type.Literal('CM'), Type.Literal('SN'), Type.Literal('CI'), Type.Literal('BJ'), Type.Literal('BF'), Type.Literal('ML'), Type.Literal('TG')],
  { description: 'Where the merchant sells (ISO 3166-1 alpha-2): CM (XAF); SN, CI, BJ, BF, ML or TG (XOF)' },
);
