import { type GivenSettings, isPrivateAddress, type LiveContext, type SettingProblem } from '../connectors.live.ts';
import { SANDBOX_API_KEY_PREFIX } from './cinetpay.sandbox.ts';

/** What test mode's account on Caisse's sandbox holds (index.ts): never a live account's. */
export const CINETPAY_SANDBOX_SECRET_PREFIX = 'cinetpay_sandbox_sk_';
export const CINETPAY_SANDBOX_TRANSFER_PASSWORD = 'cinetpay_sandbox_transfer';

/**
 * What a live CinetPay account must not hold (docs/spec/providers.md, "cinetpay"): the apikey,
 * secret key or transfer password of Caisse's sandbox, which CinetPay does not know (every
 * payment would be refused), and in production a notify_url base CinetPay cannot reach (its
 * notifications would never come, and payments would wait for the poller). CinetPay has no
 * sandbox host of its own: a site in test mode is a setting of its back office, not a URL.
 * Credentials are merged into `settings` by the accounts' check; none is ever quoted.
 */
export function cinetpayLiveProblems(settings: GivenSettings, ctx: LiveContext): SettingProblem[] {
  const problems: SettingProblem[] = [];
  const text = (key: string) => (typeof settings[key] === 'string' ? (settings[key] as string) : undefined);
  if (text('apiKey')?.startsWith(SANDBOX_API_KEY_PREFIX) === true)
    problems.push({ setting: 'apiKey', message: "is Caisse's sandbox apikey: copy the apikey from CinetPay's back office (Integrations)" });
  if (text('secretKey')?.startsWith(CINETPAY_SANDBOX_SECRET_PREFIX) === true)
    problems.push({ setting: 'secretKey', message: "is Caisse's sandbox secret key: copy the secret key from CinetPay's back office (Integrations)" });
  if (text('transferPassword') === CINETPAY_SANDBOX_TRANSFER_PASSWORD)
    problems.push({ setting: 'transferPassword', message: "is Caisse's sandbox transfer password: set the transfer API password of the CinetPay account" });
  const callback = ctx.production ? unreachable(settings.callbackUrl) : undefined;
  if (callback !== undefined) problems.push({ setting: 'callbackUrl', message: callback });
  return problems;
}

/** Why CinetPay could not post to this notify_url base from the internet, or undefined. */
function unreachable(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:') return `must use https:// in production, got ${url.protocol}//`;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const local = host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal') || isPrivateAddress(host);
  return local ? `must be this server's public address (CinetPay posts its notifications there), not ${host}` : undefined;
}
