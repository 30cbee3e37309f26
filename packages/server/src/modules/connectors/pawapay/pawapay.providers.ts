/**
 * pawaPay's operators ("providers" in its API: `MTN_MOMO_CMR`, …) for the countries Caisse sells
 * in, as pawaPay's provider list documents them (docs.pawapay.io, v2, "Providers"), and which
 * payment method each one is for us. The account's active configuration (`GET /v2/active-conf`)
 * says which of them an account actually has; this table only maps names.
 */

/** How the payer authorises a deposit with this operator (pawaPay's `authType`). */
export type PawapayAuthType = 'PROVIDER_AUTH' | 'PREAUTH' | 'REDIRECT_AUTH';

export interface PawapayProvider {
  /** pawaPay's code (`MTN_MOMO_CMR`). */
  code: string;
  /** Our payment method (`mtn_momo`). */
  method: string;
  /** ISO 3166 alpha-2, as Caisse writes countries. */
  country: string;
  /** ISO 3166 alpha-3, as pawaPay writes them. */
  country3: string;
  currency: 'XAF' | 'XOF';
  authType: PawapayAuthType;
  /** The E.164 calling code of the country. */
  prefix: string;
  /** PREAUTH: what the payer dials to make the code (pawaPay's `authTokenInstructions`), when documented. */
  codeUssd?: string;
}

function p(
  code: string,
  method: string,
  country: string,
  country3: string,
  currency: 'XAF' | 'XOF',
  prefix: string,
  authType: PawapayAuthType = 'PROVIDER_AUTH',
  codeUssd?: string,
): PawapayProvider {
  return { code, method, country, country3, currency, authType, prefix, ...(codeUssd !== undefined ? { codeUssd } : {}) };
}

/**
 * Orange in Burkina Faso takes a one-time code the payer makes in Orange's USSD menu before the
 * deposit (PREAUTH: pawaPay's deposit guide gives `*144*4*6#`, then the amount and the PIN; the
 * code comes by SMS); Wave is approved on Wave's page (REDIRECT_AUTH). Mali and Togo are not in
 * pawaPay's list (docs/decisions/0080-pawapay.md).
 */
export const PAWAPAY_PROVIDERS: readonly PawapayProvider[] = [
  p('MTN_MOMO_CMR', 'mtn_momo', 'CM', 'CMR', 'XAF', '237'),
  p('ORANGE_CMR', 'orange_money', 'CM', 'CMR', 'XAF', '237'),
  p('ORANGE_SEN', 'orange_money', 'SN', 'SEN', 'XOF', '221'),
  p('FREE_SEN', 'free_money', 'SN', 'SEN', 'XOF', '221'),
  p('WAVE_SEN', 'wave', 'SN', 'SEN', 'XOF', '221', 'REDIRECT_AUTH'),
  p('MTN_MOMO_CIV', 'mtn_momo', 'CI', 'CIV', 'XOF', '225'),
  p('ORANGE_CIV', 'orange_money', 'CI', 'CIV', 'XOF', '225'),
  p('WAVE_CIV', 'wave', 'CI', 'CIV', 'XOF', '225', 'REDIRECT_AUTH'),
  p('MTN_MOMO_BEN', 'mtn_momo', 'BJ', 'BEN', 'XOF', '229'),
  p('MOOV_BEN', 'moov_money', 'BJ', 'BEN', 'XOF', '229'),
  p('MOOV_BFA', 'moov_money', 'BF', 'BFA', 'XOF', '226'),
  p('ORANGE_BFA', 'orange_money', 'BF', 'BFA', 'XOF', '226', 'PREAUTH', '*144*4*6#'),
];

/** The operator pawaPay calls `method` in `country` (ISO alpha-2), or undefined when it has none there. */
export function pawapayProviderFor(method: string, country: string): PawapayProvider | undefined {
  return PAWAPAY_PROVIDERS.find((x) => x.method === method && x.country === country);
}

export function pawapayProvider(code: string): PawapayProvider | undefined {
  return PAWAPAY_PROVIDERS.find((x) => x.code === code);
}

/** The operator a number of `country` belongs to when only one pawaPay operator there has `method`; else by calling code. */
export function pawapayProviderForNumber(method: string, phoneNumber: string): PawapayProvider | undefined {
  const digits = phoneNumber.replace(/[^0-9]/g, '');
  return PAWAPAY_PROVIDERS.find((x) => x.method === method && digits.startsWith(x.prefix));
}
