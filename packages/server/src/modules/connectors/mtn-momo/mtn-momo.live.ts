import { type GivenSettings, type LiveContext, requiredInLive, type SettingProblem } from '../connectors.live.ts';
import { MOMO_ENVIRONMENTS, MOMO_SANDBOX_ENVIRONMENT, marketOf } from './mtn-momo.environments.ts';

/**
 * What a live MTN MoMo account must not hold: no target environment (the sandbox's default would
 * apply), the sandbox's, or a market of another country than the account's (each MTN market is
 * its own wallet system, with its own API user and keys).
 */
export function mtnLiveProblems(settings: GivenSettings, ctx: LiveContext): SettingProblem[] {
  const missing = requiredInLive(settings, 'targetEnvironment', "the market MTN gave the account, e.g. mtncameroon or mtnivorycoast; never 'sandbox'");
  if (missing !== undefined) return [missing];
  const environment = String(settings.targetEnvironment);
  if (environment === MOMO_SANDBOX_ENVIRONMENT) {
    const market = ctx.countries.length === 1 ? marketOf(ctx.countries[0] as string) : undefined;
    return [
      {
        setting: 'targetEnvironment',
        message: `is sandbox, MTN's test environment, which moves no real money: set the market of the account${market ? ` (${market})` : ''}`,
      },
    ];
  }
  const country = MOMO_ENVIRONMENTS[environment]?.country;
  const others = country === undefined || country === null ? [] : ctx.countries.filter((c) => c !== country);
  if (others.length > 0)
    return [
      {
        setting: 'targetEnvironment',
        message: `is ${environment}, MTN's market of ${country}, but the account is for ${others.join(', ')}: make one account per market`,
      },
    ];
  return [];
}
