import { Type } from 'typebox';

/**
 * The schema of a country code (platform/countries.ts) in requests and answers; apart from the
 * countries themselves, so that the CLI reads those without loading TypeBox.
 */
export const CountrySchema = Type.Union([Type.Literal('CM'), Type.Literal('SN'), Type.Literal('CI')], {
  description: 'Where the merchant sells (ISO 3166-1 alpha-2): CM (XAF), SN or CI (XOF)',
});
