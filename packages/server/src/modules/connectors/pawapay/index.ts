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
  // Test mode never calls it (a test account pointed there is refused).
  productionApi: { hosts: ['api.pawapay.io'] },
  create: createPawapayConnector,
  liveProblems: pawapayLiveProblems,
  sandbox: {
    path: '/pawapay',
    faults: REDIRECT_SANDBOX_FAULTS,
    async start(ctx) {
      const own = ctx.options as
        | Partial<Pick<PawapaySandboxOptions, 'apiToken' | 'callbackUrls' | 'signCallbacks' | 'limits' | 'production' | 'disabledOperations'>>
        | undefined;
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
  // One API token per account; callbacks go to URLs set in pawaPay's dashboard, one per operation
  // type: the account's own address (`/callbacks/pawapay/{pac_…}`) for all three, since each
  // callback names its deposit, payout or refund by its own id.
  account: {
    settings: ['baseUrl', 'callbackSignatures', 'publicKeys', 'timeoutMs'],
    webhook: true,
    credentials: [{ name: 'apiToken', required: true, maxLength: 2048 }],
    callbacks: ({ webhookPath }) =>
      webhookPath === undefined ? [] : PAWAPAY_CALLBACK_PURPOSES.map((purpose) => ({ purpose, path: webhookPath, url: null, setAtProvider: true })),
    build: (open, c) => ({
      baseUrl: String(open.baseUrl),
      apiToken: c.apiToken as string,
      callbackSignatures: open.callbackSignatures === undefined ? undefined : String(open.callbackSignatures),
      publicKeys: open.publicKeys === undefined ? undefined : String(open.publicKeys),
      timeoutMs: open.timeoutMs === undefined ? undefined : Number(open.timeoutMs),
    }),
  },
};

/** The callback URLs pawaPay's dashboard asks for, one per operation type. */
const PAWAPAY_CALLBACK_PURPOSES = ['deposits', 'payouts', 'refunds'] as const;

function callbackUrl(callbacksUrl: string | undefined): string | undefined {
  return callbacksUrl === undefined ? undefined : `${callbacksUrl.replace(/\/+$/, '')}/${PAWAPAY_DESCRIPTION.name}`;
}

export { PREAUTH_EXPIRED_CODE, PREAUTH_WRONG_CODE } from './pawapay.sandbox.ts';
