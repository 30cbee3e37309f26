import type { ConnectorDefinition } from '../connectors.definition.ts';
import { inProcessMount } from '../sandbox/mount.ts';
import { REDIRECT_SANDBOX_FAULTS } from '../sandbox/sandbox.http.ts';
import { createOrangeMoneyConnector, type OrangeMoneySettings } from './orange-money.connector.ts';
import { ORANGE_MONEY_DESCRIPTION } from './orange-money.description.ts';
import { createOrangeSandbox, type OrangeSandbox, type OrangeSandboxOptions } from './orange-money.sandbox.ts';
import { orangeLiveProblems } from './orange-money.live.ts';

/**
 * Orange Money, the one object the registry lists. Its sandbox options
 * (`startSandbox({ options: { orange_money: … } })`) are the credentials it insists on, the
 * token life, and `notifyCancel` (a cancel on the page notified, which Orange usually does not).
 */
export const ORANGE_MONEY_CONNECTOR: ConnectorDefinition<OrangeMoneySettings, OrangeSandbox> = {
  description: ORANGE_MONEY_DESCRIPTION,
  // Test mode never calls it (a test account pointed there is refused); Orange's `dev` environment shares its host.
  productionApi: { hosts: ['api.orange.com'], sandbox: (settings) => settings.environment === 'dev' },
  create: createOrangeMoneyConnector,
  sandbox: {
    path: '/orange-money',
    faults: REDIRECT_SANDBOX_FAULTS,
    async start(ctx) {
      const own = ctx.options as Pick<OrangeSandboxOptions, 'credentials' | 'tokenTtlSeconds' | 'notifyCancel'> | undefined;
      return inProcessMount(createOrangeSandbox({ ...ctx, ...own }));
    },
    settings: ({ baseUrl, callbacksUrl, timeoutMs }) => ({
      baseUrl,
      environment: 'dev',
      clientId: 'sandbox',
      clientSecret: 'sandbox',
      merchantKey: 'sandbox',
      // notif_url is sent with each request, so one is always needed; without a callbacks base, loopback's (never answered).
      callbackUrl: `${callbacksUrl ?? 'http://127.0.0.1/callbacks'}/${ORANGE_MONEY_DESCRIPTION.name}`,
      timeoutMs,
    }),
    help: ({ url, production }) =>
      production
        ? `${url}  (production: environments cm (XAF), sn and ci (XOF), …; dev, OUV and test-only keys refused)`
        : `${url}  (environment dev, currency OUV; any client id, secret and merchant key)`,
  },
  liveProblems: orangeLiveProblems,
  account: {
    settings: ['baseUrl', 'environment', 'currency', 'callbackUrl', 'timeoutMs'],
    credentials: [
      { name: 'clientId', required: true },
      { name: 'clientSecret', required: true },
      { name: 'merchantKey', required: true },
    ],
    build: (open, c) => ({
      baseUrl: String(open.baseUrl),
      environment: String(open.environment ?? 'dev'),
      currency: open.currency === undefined ? undefined : String(open.currency),
      clientId: c.clientId as string,
      clientSecret: c.clientSecret as string,
      merchantKey: c.merchantKey as string,
      callbackUrl: String(open.callbackUrl),
      timeoutMs: open.timeoutMs === undefined ? undefined : Number(open.timeoutMs),
    }),
  },
};
