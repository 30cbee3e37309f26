import type { ProviderDescription } from '../connectors.description.ts';
import { testNumbers } from '../connectors.testnumbers.ts';
import { parseWaveScopes, WEBHOOK_STRATEGIES } from './wave.scopes.ts';

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
      description: 'API key (wave_sn_prod_…), with the checkout and payout APIs (see CAISSE_WAVE_SCOPES)',
    },
    {
      env: 'CAISSE_WAVE_WEBHOOK_SECRET',
      key: 'webhookSecret',
      kind: 'credential',
      required: true,
      secret: true,
      description: 'Secret of the webhook registered in the Business Portal (to this server + /callbacks/wave)',
    },
    {
      env: 'CAISSE_WAVE_WEBHOOK_STRATEGY',
      key: 'webhookStrategy',
      kind: 'name',
      // No default here: an unset setting leaves the account's id (connectors.accounts.ts) as it was.
      required: false,
      secret: false,
      description: "The webhook's security strategy in the Business Portal: signing (Wave-Signature, the default) or shared (Authorization: Bearer)",
    },
    {
      env: 'CAISSE_WAVE_SIGNING_SECRET',
      key: 'signingSecret',
      kind: 'credential',
      required: false,
      secret: true,
      description: "The API key's signing secret, when the key requires signed requests",
    },
    {
      env: 'CAISSE_WAVE_SCOPES',
      key: 'scopes',
      required: false,
      secret: false,
      description: 'The Wave APIs the key may call, comma-separated: checkout, payout, balance, merchant (checkout,payout)',
    },
    { env: 'CAISSE_WAVE_TIMEOUT_MS', key: 'timeoutMs', kind: 'integer', required: false, secret: false, description: 'Bound on each call, in ms (10000)' },
  ],
  testNumbers: testNumbers('+221770000'),
  checkSettings(values) {
    const strategy = values.webhookStrategy;
    if (strategy !== undefined && !(WEBHOOK_STRATEGIES as readonly unknown[]).includes(strategy))
      return { key: 'webhookStrategy', message: `must be ${WEBHOOK_STRATEGIES.join(' or ')}, got "${String(strategy)}"` };
    if (values.scopes !== undefined) {
      const scopes = parseWaveScopes(String(values.scopes));
      if (!scopes.ok) return { key: 'scopes', message: scopes.message };
    }
    return undefined;
  },
};
