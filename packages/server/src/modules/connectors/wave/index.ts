import type { ConnectorDefinition } from '../connectors.definition.ts';
import { inProcessMount } from '../sandbox/mount.ts';
import { REDIRECT_SANDBOX_FAULTS } from '../sandbox/sandbox.http.ts';
import { createWaveConnector, type WaveSettings } from './wave.connector.ts';
import { WAVE_DESCRIPTION } from './wave.description.ts';
import { createWaveSandbox, type WaveSandbox, type WaveSandboxOptions } from './wave.sandbox.ts';

/**
 * Wave, the one object the registry lists. Wave pushes signed webhooks to an address set once on
 * the account, not per request: its sandbox sends them to `…/callbacks/wave` of the server it was
 * told (`caisse sandbox --callbacks-url`), or to `webhookUrl` in its options
 * (`startSandbox({ options: { wave: … } })`, with the API key and secret it insists on, the
 * webhook strategy, a signing secret its key requires, the key's scopes). Its
 * webhook secret is the sandbox's (`<CAISSE_DATA_DIR>/sandbox-secrets.json`), shared with test
 * mode's connector, never a constant in the code.
 */
export const WAVE_CONNECTOR: ConnectorDefinition<WaveSettings, WaveSandbox> = {
  description: WAVE_DESCRIPTION,
  // Test mode never calls it (a test account pointed there is refused).
  productionApi: { hosts: ['api.wave.com'] },
  create: createWaveConnector,
  sandbox: {
    path: '/wave',
    faults: REDIRECT_SANDBOX_FAULTS,
    secrets: [{ name: 'webhookSecret', prefix: 'wave_sandbox_whsec_' }],
    async start(ctx) {
      const own = ctx.options as
        | Partial<Pick<WaveSandboxOptions, 'apiKey' | 'webhookUrl' | 'webhookSecret' | 'webhookStrategy' | 'signingSecret' | 'scopes'>>
        | undefined;
      return inProcessMount(
        createWaveSandbox({
          ...ctx,
          apiKey: own?.apiKey,
          webhookStrategy: own?.webhookStrategy,
          signingSecret: own?.signingSecret,
          scopes: own?.scopes,
          webhookUrl: own?.webhookUrl ?? webhookUrl(ctx.callbacksUrl),
          webhookSecret: own?.webhookSecret ?? webhookSecret(ctx.secrets),
        }),
      );
    },
    settings: ({ baseUrl, timeoutMs, secrets }) => ({ baseUrl, apiKey: 'wave_sandbox_key', webhookSecret: webhookSecret(secrets), timeoutMs }),
    help: ({ url, callbacksUrl, secretsFile, production }) => {
      const to = webhookUrl(callbacksUrl);
      return `${url}  (${production ? "production: API keys of Wave's form wave_sn_prod_…, others refused" : 'any API key starting with wave_'}; webhooks ${to ? `to ${to}, signed with the secret in ${secretsFile}` : 'off: --callbacks-url'}; a declined session stays open until it expires, as at Wave)`;
    },
  },
  // signingSecret: Wave's request signing, which an account may have turned on; kept for when the connector signs its calls.
  account: {
    settings: ['baseUrl', 'timeoutMs'],
    webhook: true,
    credentials: [
      { name: 'apiKey', required: true },
      { name: 'webhookSecret', required: true },
      { name: 'signingSecret', required: false },
    ],
    build: (open, c) => ({
      baseUrl: String(open.baseUrl),
      apiKey: c.apiKey as string,
      webhookSecret: c.webhookSecret as string,
      timeoutMs: open.timeoutMs === undefined ? undefined : Number(open.timeoutMs),
    }),
  },
};

function webhookUrl(callbacksUrl: string | undefined): string | undefined {
  return callbacksUrl === undefined ? undefined : `${callbacksUrl.replace(/\/+$/, '')}/${WAVE_DESCRIPTION.name}`;
}

/** The sandbox hands every declared secret (sandbox/sandbox.secrets.ts); never one the code holds. */
function webhookSecret(secrets: Readonly<Record<string, string>>): string {
  const secret = secrets.webhookSecret;
  if (secret === undefined) throw new Error("the Wave sandbox's webhook secret is missing from the sandbox's secrets");
  return secret;
}
