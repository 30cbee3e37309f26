import type { ConnectorDefinition } from '../connectors.definition.ts';
import { inProcessMount } from '../sandbox/mount.ts';
import { REDIRECT_SANDBOX_FAULTS } from '../sandbox/sandbox.http.ts';
import { type CinetPaySettings, createCinetPayConnector } from './cinetpay.connector.ts';
import { CINETPAY_DESCRIPTION } from './cinetpay.description.ts';
import { CINETPAY_SANDBOX_SECRET_PREFIX, CINETPAY_SANDBOX_TRANSFER_PASSWORD, cinetpayLiveProblems } from './cinetpay.live.ts';
import { type CinetPaySandbox, type CinetPaySandboxOptions, createCinetPaySandbox, SANDBOX_API_KEY_PREFIX } from './cinetpay.sandbox.ts';

/** Test mode's account on the sandbox, which takes any apikey starting with `cinetpay_` (`--production`: none of these), a site_id of digits, any transfer password. */
const SANDBOX_ACCOUNT = { apiKey: `${SANDBOX_API_KEY_PREFIX}_key`, siteId: '105905', transferPassword: CINETPAY_SANDBOX_TRANSFER_PASSWORD };

/**
 * CinetPay, the one object the registry lists (docs/decisions/0081-cinetpay.md). Its notify_url
 * goes with each request (this server's `…/callbacks/cinetpay/{kind}/{reference}/{token}`); its
 * notifications are signed with the account's secret key, which the sandbox and test mode's
 * connector share (`<CAISSE_DATA_DIR>/sandbox-secrets.json`), never a constant in the code. Its
 * sandbox options (`startSandbox({ options: { cinetpay: … } })`) are the apikey, site_id,
 * transfer password and secret key it insists on.
 */
export const CINETPAY_CONNECTOR: ConnectorDefinition<CinetPaySettings, CinetPaySandbox> = {
  description: CINETPAY_DESCRIPTION,
  // Test mode never calls it (a test account pointed there is refused).
  productionApi: { hosts: ['api-checkout.cinetpay.com', 'client.cinetpay.com'] },
  create: createCinetPayConnector,
  liveProblems: cinetpayLiveProblems,
  sandbox: {
    path: '/cinetpay',
    faults: REDIRECT_SANDBOX_FAULTS,
    secrets: [{ name: 'secretKey', prefix: CINETPAY_SANDBOX_SECRET_PREFIX }],
    async start(ctx) {
      const own = ctx.options as Partial<Pick<CinetPaySandboxOptions, 'apiKey' | 'siteId' | 'secretKey' | 'transferPassword' | 'production'>> | undefined;
      return inProcessMount(createCinetPaySandbox({ ...ctx, ...own, secretKey: own?.secretKey ?? secretKey(ctx.secrets) }));
    },
    settings: ({ baseUrl, callbacksUrl, timeoutMs, secrets }) => ({
      baseUrl,
      transferBaseUrl: baseUrl,
      ...SANDBOX_ACCOUNT,
      secretKey: secretKey(secrets),
      // notify_url is sent with each request, so one is always needed; without a callbacks base, loopback's (never answered).
      callbackUrl: `${callbacksUrl ?? 'http://127.0.0.1/callbacks'}/${CINETPAY_DESCRIPTION.name}`,
      timeoutMs,
    }),
    help: ({ url, secretsFile }) =>
      `${url}  (payment API /v2, transfer API /v1; any apikey starting with cinetpay_, a site_id of digits; XOF, XAF in multiples of 5, USD by card in multiples of 5 dollars; notifications signed with the secret key in ${secretsFile})`,
  },
  // The apikey and site_id of a service, the secret key that signs its notifications, and the
  // transfer API's password (without it the account collects only). notify_url goes with each
  // request: the account's callbackUrl (this server + /callbacks/cinetpay) is its base. USD by card
  // once CinetPay has enabled it for the service: `cardCurrencies` (XAF,USD), else the francs only.
  account: {
    settings: ['baseUrl', 'transferBaseUrl', 'siteId', 'callbackUrl', 'timeoutMs', 'cardCurrencies'],
    credentials: [
      { name: 'apiKey', required: true },
      { name: 'secretKey', required: true },
      { name: 'transferPassword', required: false },
    ],
    // CinetPay's back office gives the site_id with the apikey: operators may put it in either.
    settingsAmongCredentials: ['siteId'],
    callbacks: ({ settings }) =>
      settings.callbackUrl === undefined
        ? []
        : [{ purpose: 'notifications', path: null, url: `${String(settings.callbackUrl)}/{kind}/{reference}/{token}`, setAtProvider: false }],
    build: (open, c) => ({
      baseUrl: String(open.baseUrl),
      transferBaseUrl: open.transferBaseUrl === undefined ? undefined : String(open.transferBaseUrl),
      apiKey: c.apiKey as string,
      siteId: String(open.siteId),
      secretKey: c.secretKey as string,
      transferPassword: c.transferPassword,
      callbackUrl: String(open.callbackUrl),
      timeoutMs: open.timeoutMs === undefined ? undefined : Number(open.timeoutMs),
      cardCurrencies: open.cardCurrencies === undefined ? undefined : String(open.cardCurrencies),
    }),
  },
};

/** The sandbox hands every declared secret (sandbox/sandbox.secrets.ts); never one the code holds. */
function secretKey(secrets: Readonly<Record<string, string>>): string {
  const secret = secrets.secretKey;
  if (secret === undefined) throw new Error("the CinetPay sandbox's secret key is missing from the sandbox's secrets");
  return secret;
}
