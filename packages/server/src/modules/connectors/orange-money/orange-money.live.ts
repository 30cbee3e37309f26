import { type GivenSettings, type LiveContext, requiredInLive, type SettingProblem } from '../connectors.live.ts';
import { DEV_CURRENCY, environmentProblem } from './orange-money.environments.ts';

/** Orange's test environment: never a live account's. */
export const ORANGE_DEV_ENVIRONMENT = 'dev';

/**
 * What a live Orange Money account must not hold: no environment (the sandbox's `dev` would
 * apply), `dev` or its unit OUV (test money "settled" as live payments), a currency that is not
 * its environment's, or an environment of another country than the account's (each Orange
 * country is its own Web Payment API and merchant key).
 */
export function orangeLiveProblems(settings: GivenSettings, ctx: LiveContext): SettingProblem[] {
  const missing = requiredInLive(settings, 'environment', "the account's country, e.g. cm, sn or ci; never 'dev'");
  if (missing !== undefined) return [missing];
  const environment = String(settings.environment);
  const currency = settings.currency === undefined || settings.currency === null || settings.currency === '' ? undefined : String(settings.currency);
  if (environment === ORANGE_DEV_ENVIRONMENT)
    return [{ setting: 'environment', message: "is dev, Orange's test environment, whose payments are not real: set the account's country (cm, sn, ci, …)" }];
  if (currency === DEV_CURRENCY)
    return [{ setting: 'currency', message: "is OUV, the unit of Orange's test environment: set the country's currency (XAF in cm; XOF in sn, ci, …)" }];
  const problem = environmentProblem(environment, currency);
  if (problem !== undefined) return [problem];
  const others = ctx.countries.filter((c) => c.toLowerCase() !== environment);
  if (others.length > 0)
    return [
      {
        setting: 'environment',
        message: `is ${environment}, Orange's API of ${environment.toUpperCase()}, but the account is for ${others.join(', ')}: make one account per country`,
      },
    ];
  return [];
}
