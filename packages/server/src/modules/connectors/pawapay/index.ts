import type { ConnectorDefinition } from '../connectors.definition.ts';
import { inProcessMount } from '../sandbox/mount.ts';
import { REDIRECT_SANDBOX_FAULTS } from '../sandbox/sandbox.http.ts';
import { createPawapayConnector, type PawapaySettings } from './pawapay.connector.ts';
import { PAWAPAY_DESCRIPTION } from './pawapay.description.ts';
import { PAWAPAY_SANDBOX_TOKEN, pawapayLiveProblems } from './pawapay.live.ts';
import { createPawapaySandbox, type PawapaySandbox, type PawapaySandboxOptions } from './pawapay.sandbox.ts';

/**
 * pawaPay, the one object the registry lists. pawaPay sends callbacks to URLs set once in its
 * dashboard, one per operation type: its sandbox sends all three to `…/callbacks/pawapay` of the
 * server it was told (`caisse sandbox --callbacks-url`), or to `callbackUrls` in its options
 * (`startSandbox({ options: { pawapay: … } })`), signed with a key of its own whose public half
 * it publishes, as pawaPay does (`GET /v2/public-key/http`): no secret is shared.
 */
export const PAWAPAY_CONNECTOR: ConnectorDefinition<PawapaySettings, PawapaySandbox> = {
  description: PAWAPAY_DESCRIPTION,
  create: createPawapayConnector,
  liveProblems: pawapayLiveProblems,
  sandbox: {
    path: '/pawapay',
    faults: REDIRECT_SANDBOX_FAULTS,
    async start(ctx) {
      const own = ctx.options as Partial<Pick<PawapaySandboxOptions, 'apiToken' | 'callbackUrls' | 'signCallbacks' | 'limits' | 'production'>> | undefined;
      const url = callbackUrl(ctx.callbacksUrl);
      return inProcessMount(
        createPawapaySandbox({
          ...ctx,
          ...own,
          callbackUrls: own?.callbackUrls ?? (url === undefined ? undefined : { deposit: url, payout: url, refund: url }),
        }),
      );
    },
    settings: ({ baseUrl, timeoutMs }) => ({ baseUrl, apiToken: PAWAPAY_SANDBOX_TOKEN, callbackSignatures: 'required', timeoutMs }),
    help: ({ url, callbacksUrl }) => {
      const to = callbackUrl(callbacksUrl);
      return `${url}  (any API token; deposit, payout and refund callbacks ${to ? `to ${to}, signed (RFC 9421)` : 'off: --callbacks-url'})`;
    },
  },
};

function callbackUrl(callbacksUrl: string | undefined): string | undefined {
  return callbacksUrl === undefined ? undefined : `${callbacksUrl.replace(/\/+$/, '')}/${PAWAPAY_DESCRIPTION.name}`;
}

export { PREAUTH_EXPIRED_CODE, PREAUTH_WRONG_CODE } from './pawapay.sandbox.ts';
