import type { ConnectorDefinition } from '../connectors.definition.ts';
import { inProcessMount } from '../sandbox/mount.ts';
import { REDIRECT_SANDBOX_FAULTS } from '../sandbox/sandbox.http.ts';
import { type CinetPaySettings, createCinetPayConnector } from './cinetpay.connector.ts';
import { CINETPAY_DESCRIPTION } from './cinetpay.description.ts';
import { type CinetPaySandbox, type CinetPaySandboxOptions, createCinetPaySandbox, SANDBOX_API_KEY_PREFIX } from './cinetpay.sandbox.ts';

/** Test mode's account on the sandbox, which takes any apikey starting with `cinetpay_` (`--production`: none of these), a site_id of digits, any transfer password. */
const SANDBOX_ACCOUNT = { apiKey: `${SANDBOX_API_KEY_PREFIX}_key`, siteId: '105905', transferPassword: 'cinetpay_sandbox_transfer' };

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
  create: createCinetPayConnector,
  sandbox: {
    path: '/cinetpay',
    faults: REDIRECT_SANDBOX_FAULTS,
    secrets: [{ name: 'secretKey', prefix: 'cinetpay_sandbox_sk_' }],
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
      `${url}  (payment API /v2, transfer API /v1; any apikey starting with cinetpay_, a site_id of digits; XOF, XAF in multiples of 5; notifications signed with the secret key in ${secretsFile})`,
  },
};

/** The sandbox hands every declared secret (sandbox/sandbox.secrets.ts); never one the code holds. */
function secretKey(secrets: Readonly<Record<string, string>>): string {
  const secret = secrets.secretKey;
  if (secret === undefined) throw new Error("the CinetPay sandbox's secret key is missing from the sandbox's secrets");
  return secret;
}
