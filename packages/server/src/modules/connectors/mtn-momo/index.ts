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
};
