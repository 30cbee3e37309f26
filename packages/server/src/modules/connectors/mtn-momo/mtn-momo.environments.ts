/**
 * MTN's MoMo Open API target environments (the `X-Target-Environment` header): `sandbox` on
 * MTN's developer sandbox, one per market in production, each with its country and the one
 * currency it takes. Our `sandbox` serves the region's test mode, so Caisse's sandbox takes XAF
 * and XOF there as well as MTN's EUR. A market missing here is not refused in live mode (MTN opens
 * new ones); it is only not compared with the account's countries.
 */
export const MOMO_ENVIRONMENTS: Readonly<Record<string, { country: string | null; currencies: readonly string[] }>> = {
  sandbox: { country: null, currencies: ['EUR', 'XAF', 'XOF'] },
  mtncameroon: { country: 'CM', currencies: ['XAF'] },
  mtnivorycoast: { country: 'CI', currencies: ['XOF'] },
  mtnbenin: { country: 'BJ', currencies: ['XOF'] },
  mtncongo: { country: 'CG', currencies: ['XAF'] },
  mtnguineaconakry: { country: 'GN', currencies: ['GNF'] },
};

/** The sandbox's target environment: never a live account's. */
export const MOMO_SANDBOX_ENVIRONMENT = 'sandbox';

/** The production market of these countries, when MTN has exactly one known here (`CM` → `mtncameroon`). */
export function marketOf(country: string): string | undefined {
  return Object.entries(MOMO_ENVIRONMENTS).find(([, e]) => e.country === country)?.[0];
}
