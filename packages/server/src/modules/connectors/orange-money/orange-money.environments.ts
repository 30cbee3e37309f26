/**
 * Orange Money Web Payment's environments (the path segment `/orange-money-webpay/{environment}/v1`)
 * and the one currency each takes: Orange's API of a country counts in that country's currency,
 * its test environment `dev` in its own unit, OUV. A request in another currency is refused by
 * Orange (every payment of a `cm` account in XOF fails), so the connector and the configuration
 * check it before anything is sent; the sandbox refuses it as Orange does.
 */
export const ORANGE_ENVIRONMENTS: Readonly<Record<string, string>> = {
  dev: 'OUV',
  cm: 'XAF',
  sn: 'XOF',
  ci: 'XOF',
  ml: 'XOF',
  bf: 'XOF',
  ne: 'XOF',
  gw: 'XOF',
};

/** The test environment's unit, which the connector sends in place of XAF or XOF there. */
export const DEV_CURRENCY = 'OUV';

/** The currency of an environment, or undefined when Orange has no such environment. */
export function environmentCurrency(environment: string): string | undefined {
  return Object.hasOwn(ORANGE_ENVIRONMENTS, environment) ? ORANGE_ENVIRONMENTS[environment] : undefined;
}

/**
 * What Caisse may charge through an environment: its currency, or in `dev` either of ours (sent
 * as OUV, the test unit that stands for both).
 */
export function chargeableCurrencies(environment: string): readonly string[] {
  const currency = environmentCurrency(environment);
  if (currency === undefined) return [];
  return currency === DEV_CURRENCY ? ['XAF', 'XOF'] : [currency];
}

/**
 * Why an environment and currency cannot go together, naming the variable to change, or undefined.
 * The currency, when given, must be the environment's own (OUV for `dev`: the sandbox's).
 */
export function environmentProblem(environment: string, currency: string | undefined): { setting: 'environment' | 'currency'; message: string } | undefined {
  const own = environmentCurrency(environment);
  if (own === undefined)
    return {
      setting: 'environment',
      message: `must be dev or an Orange Money Web Payment country (${Object.keys(ORANGE_ENVIRONMENTS)
        .filter((e) => e !== 'dev')
        .join(', ')}), got "${environment}"`,
    };
  if (currency !== undefined && currency !== own)
    return {
      setting: 'currency',
      message: `is ${currency}, but Orange's environment ${environment} takes ${own} only: set ${own}, or the environment of the ${currency} country`,
    };
  return undefined;
}
