import type { ConnectorDefinition } from '../connectors.definition.ts';
import { inProcessMount } from '../sandbox/mount.ts';
import { REDIRECT_SANDBOX_FAULTS } from '../sandbox/sandbox.http.ts';
import { createWaveConnector, type WaveSettings } from './wave.connector.ts';
import { WAVE_DESCRIPTION } from './wave.description.ts';
import { createWaveSandbox, WAVE_SANDBOX_WEBHOOK_SECRET, type WaveSandbox, type WaveSandboxOptions } from './wave.sandbox.ts';

/**
 * Wave, the one object the registry lists. Wave pushes signed webhooks to an address set once on
 * the account, not per request: its sandbox sends them to `…/callbacks/wave` of the server it was
 * told (`caisse sandbox --callbacks-url`), or to `webhookUrl` in its options
 * (`startSandbox({ options: { wave: … } })`, with the API key and secret it insists on).
 */
export const WAVE_CONNECTOR: ConnectorDefinition<WaveSettings, WaveSandbox> = {
  description: WAVE_DESCRIPTION,
  create: createWaveConnector,
  sandbox: {
    path: '/wave',
    faults: REDIRECT_SANDBOX_FAULTS,
    async start(ctx) {
      const own = ctx.options as Partial<Pick<WaveSandboxOptions, 'apiKey' | 'webhookUrl' | 'webhookSecret'>> | undefined;
      return inProcessMount(
        createWaveSandbox({
          ...ctx,
          apiKey: own?.apiKey,
          webhookUrl: own?.webhookUrl ?? webhookUrl(ctx.callbacksUrl),
          webhookSecret: own?.webhookSecret ?? WAVE_SANDBOX_WEBHOOK_SECRET,
        }),
      );
    },
    settings: ({ baseUrl, timeoutMs }) => ({ baseUrl, apiKey: 'wave_sandbox_key', webhookSecret: WAVE_SANDBOX_WEBHOOK_SECRET, timeoutMs }),
    help: ({ url, callbacksUrl }) => {
      const to = webhookUrl(callbacksUrl);
      return `${url}  (any API key starting with wave_; webhooks ${to ? `to ${to}, secret ${WAVE_SANDBOX_WEBHOOK_SECRET}` : 'off: --callbacks-url'})`;
    },
  },
};

function webhookUrl(callbacksUrl: string | undefined): string | undefined {
  return callbacksUrl === undefined ? undefined : `${callbacksUrl.replace(/\/+$/, '')}/${WAVE_DESCRIPTION.name}`;
}
