import type { ProviderDescription } from '../connectors.description.ts';
import { testNumbers } from '../connectors.testnumbers.ts';

/**
 * `wave` as checkout, `GET /payment-methods` and the CLI see it: Wave Checkout (the payer approves
 * in the Wave app or page), Wave payouts for merchant payouts and refunds. XOF only; Wave is a
 * wallet, not a network, so any number of its countries may hold an account (no prefix routing).
 */
export const WAVE_DESCRIPTION: ProviderDescription = {
  name: 'wave',
  displayName: 'Wave',
  countries: ['SN', 'CI'],
  currencies: ['XOF'],
  approval: 'redirect',
  limits: { XOF: { min: 100n, max: 1_500_000n } },
  ussd: null,
  network: null,
  capabilities: { collect: true, disburse: true, refund: true },
  statusByReference: true,
  // A payout's payment_reason: at most 40 characters.
  messages: { minLength: 1, maxLength: 40, forbidden: '' },
  settings: [
    {
      env: 'CAISSE_WAVE_BASE_URL',
      key: 'baseUrl',
      kind: 'url',
      default: 'https://api.wave.com',
      required: false,
      secret: false,
      description: 'API base URL (https://api.wave.com)',
    },
    {
      env: 'CAISSE_WAVE_API_KEY',
      key: 'apiKey',
      kind: 'credential',
      required: true,
      secret: true,
      description: 'API key (wave_sn_prod_…), checkout and payout scopes',
    },
    {
      env: 'CAISSE_WAVE_WEBHOOK_SECRET',
      key: 'webhookSecret',
      kind: 'credential',
      required: true,
      secret: true,
      description: 'Secret of the webhook registered in the Business Portal (to this server + /callbacks/wave)',
    },
    { env: 'CAISSE_WAVE_TIMEOUT_MS', key: 'timeoutMs', kind: 'integer', required: false, secret: false, description: 'Bound on each call, in ms (10000)' },
  ],
  testNumbers: testNumbers('+221770000'),
};
