import type { ConnectorDefinition } from '../connectors.definition.ts';
import { Forwarder } from '../sandbox/sandbox.http.ts';
import { createMtnMomoConnector, type MtnMomoSettings } from './mtn-momo.connector.ts';
import { MTN_MOMO_DESCRIPTION } from './mtn-momo.description.ts';
import { type MomoSandbox, type MomoSandboxOptions, SANDBOX_FAULTS, startMomoSandbox } from './mtn-momo.sandbox.ts';
import { mtnLiveProblems } from './mtn-momo.live.ts';

/**
 * MTN MoMo, the one object the registry lists. Its sandbox keeps a server of its own on a loopback
 * port and is mounted at the sandbox's root (where the sandbox URL has always pointed for it):
 * requests no other mount takes are passed to it as they came. Its options
 * (`startSandbox({ options: { mtn_momo: … } })`) are `MomoSandboxOptions`.
 */
export const MTN_MOMO_CONNECTOR: ConnectorDefinition<MtnMomoSettings, MomoSandbox> = {
  description: MTN_MOMO_DESCRIPTION,
  // Test mode never calls it (a test account pointed there is refused).
  productionApi: { hosts: ['proxy.momoapi.mtn.com'] },
  create: createMtnMomoConnector,
  sandbox: {
    path: '',
    faults: SANDBOX_FAULTS,
    async start(ctx) {
      const momo = await startMomoSandbox({
        clock: { now: () => new Date(ctx.now()) },
        random: ctx.random,
        tickMs: ctx.tickMs,
        fast: ctx.fast,
        production: ctx.production,
        log: ctx.log,
        ...(ctx.options as Partial<MomoSandboxOptions> | undefined),
      });
      const forwarder = new Forwarder(momo.url);
      return {
        handle: momo,
        // Mounted at the root: the request's own URL, query included, is MoMo's.
        serve: (_method, _path, req, res) => forwarder.forward(req, res, req.url ?? '/'),
        // Its own ticker reaches its final states.
        settle: () => {},
        tick: () => momo.tick(),
        setFaults: (on) => void momo.setFaults(Object.fromEntries(on.map((f) => [f, true]))),
        async close() {
          await momo.close();
          await forwarder.close();
        },
      };
    },
    settings: ({ baseUrl, callbacksUrl, timeoutMs }) => ({
      baseUrl,
      targetEnvironment: 'sandbox',
      apiUser: '00000000-0000-4000-8000-000000000000',
      apiKey: 'sandbox',
      collectionKey: 'sandbox',
      disbursementKey: 'sandbox',
      callbackUrl: callbacksUrl === undefined ? undefined : `${callbacksUrl}/${MTN_MOMO_DESCRIPTION.name}`,
      timeoutMs,
      // The sandbox lists its requests, which MTN cannot: reconciliation reads them.
      sandboxListing: true,
    }),
    help: ({ url, production }) =>
      production
        ? `${url}  (production: X-Target-Environment mtncameroon, mtnivorycoast, … in its currency; sandbox and test-only keys refused; control API under /_sandbox)`
        : `${url}  (any API user, API key and subscription keys; control API under /_sandbox)`,
  },
  liveProblems: mtnLiveProblems,
  // One API user per product (MTN's Collection and Disbursement are separate subscriptions); without the disbursement's, collection only.
  account: {
    settings: ['baseUrl', 'targetEnvironment', 'callbackUrl', 'timeoutMs'],
    credentials: [
      { name: 'collectionUserId', required: true, kind: 'uuid' },
      { name: 'collectionApiKey', required: true },
      { name: 'collectionSubscriptionKey', required: true },
      { name: 'disbursementUserId', required: false, kind: 'uuid' },
      { name: 'disbursementApiKey', required: false },
      { name: 'disbursementSubscriptionKey', required: false },
    ],
    build: (open, c) => ({
      baseUrl: String(open.baseUrl),
      targetEnvironment: String(open.targetEnvironment ?? 'sandbox'),
      apiUser: c.collectionUserId as string,
      apiKey: c.collectionApiKey as string,
      collectionKey: c.collectionSubscriptionKey as string,
      disbursementKey: c.disbursementSubscriptionKey,
      disbursementApiUser: c.disbursementUserId,
      disbursementApiKey: c.disbursementApiKey,
      callbackUrl: open.callbackUrl === undefined ? undefined : String(open.callbackUrl),
      timeoutMs: open.timeoutMs === undefined ? undefined : Number(open.timeoutMs),
    }),
  },
};
