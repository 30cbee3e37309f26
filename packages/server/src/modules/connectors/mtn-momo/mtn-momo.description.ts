import type { ProviderDescription } from '../connectors.description.ts';
import { testNumbers } from '../connectors.testnumbers.ts';

/**
 * `mtn_momo` as checkout, `GET /payment-methods` and the CLI see it. Bounds: 100 to 500 000 XAF
 * per payment (docs/decisions/0023-provider-descriptions.md: MTN Cameroon's ceiling per
 * transaction; the minimum is ours, below it the fee eats the payment).
 */
export const MTN_MOMO_DESCRIPTION: ProviderDescription = {
  name: 'mtn_momo',
  displayName: 'MTN MoMo',
  countries: ['CM'],
  currencies: ['XAF'],
  approval: 'phone_prompt',
  limits: { XAF: { min: 100n, max: 500_000n } },
  ussd: '*126#',
  network: 'mtn',
  capabilities: { collect: true, disburse: true, refund: true },
  statusByReference: true,
  // MTN refuses an empty message, more than 160 characters, and these four characters.
  messages: { minLength: 1, maxLength: 160, forbidden: "&'<>" },
  // Read by connectorSettings (connectors.settings.ts): all the required ones or none.
  settings: [
    { env: 'CAISSE_MOMO_BASE_URL', key: 'baseUrl', kind: 'url', required: true, secret: false, description: 'MoMo Open API base URL (unset: sandbox only)' },
    {
      env: 'CAISSE_MOMO_TARGET_ENVIRONMENT',
      key: 'targetEnvironment',
      kind: 'name',
      default: 'sandbox',
      sandboxDefault: true,
      required: false,
      secret: false,
      description: 'X-Target-Environment: the market (mtncameroon, mtnivorycoast); sandbox by default, required in production',
    },
    { env: 'CAISSE_MOMO_API_USER', key: 'apiUser', kind: 'uuid', required: true, secret: false, description: 'API user (UUID)' },
    { env: 'CAISSE_MOMO_API_KEY', key: 'apiKey', kind: 'credential', required: true, secret: true, description: 'API key of the API user' },
    { env: 'CAISSE_MOMO_COLLECTION_KEY', key: 'collectionKey', kind: 'credential', required: true, secret: true, description: 'Collection subscription key' },
    {
      env: 'CAISSE_MOMO_DISBURSEMENT_KEY',
      key: 'disbursementKey',
      kind: 'credential',
      required: false,
      secret: true,
      description: 'Disbursement subscription key (unset: collection only, no refunds or payouts)',
    },
    {
      env: 'CAISSE_MOMO_CALLBACK_URL',
      key: 'callbackUrl',
      kind: 'callback',
      required: false,
      secret: false,
      description: 'Base of the callback URL (unset: polling only)',
    },
    {
      env: 'CAISSE_MOMO_TIMEOUT_MS',
      key: 'timeoutMs',
      kind: 'integer',
      default: '10000',
      required: false,
      secret: false,
      description: 'Bound on each call, in ms (10000)',
    },
  ],
  testNumbers: testNumbers('+237677000'),
};
