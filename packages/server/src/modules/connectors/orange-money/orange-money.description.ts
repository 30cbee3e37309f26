import type { ProviderDescription } from '../connectors.description.ts';
import { testNumbers } from '../connectors.testnumbers.ts';
import { environmentProblem } from './orange-money.environments.ts';

/**
 * `orange_money` as checkout, `GET /payment-methods` and the CLI see it: Orange Money Web Payment,
 * the payer approves on Orange's page. Collection only (Web Payment has no transfer or refund).
 * Bounds: 100 to 500 000 per payment (docs/decisions/0027-orange-money-and-wave-documentation-gaps.md).
 */
export const ORANGE_MONEY_DESCRIPTION: ProviderDescription = {
  name: 'orange_money',
  displayName: 'Orange Money',
  countries: ['CM', 'SN', 'CI'],
  currencies: ['XAF', 'XOF'],
  approval: 'redirect',
  limits: { XAF: { min: 100n, max: 500_000n }, XOF: { min: 100n, max: 500_000n } },
  ussd: null,
  network: 'orange',
  capabilities: { collect: true, disburse: false, refund: false },
  // Web Payment is read only by the pay_token webpayment answered (docs/decisions/0027-orange-money-and-wave-documentation-gaps.md).
  statusByReference: false,
  // Nothing we write reaches the payer but the merchant's name (`reference`, 30 characters).
  messages: { minLength: 1, maxLength: 30, forbidden: '' },
  settings: [
    {
      env: 'CAISSE_ORANGE_BASE_URL',
      key: 'baseUrl',
      kind: 'url',
      required: true,
      secret: false,
      description: 'API host (https://api.orange.com; unset: sandbox only)',
    },
    {
      env: 'CAISSE_ORANGE_ENVIRONMENT',
      key: 'environment',
      kind: 'name',
      default: 'dev',
      sandboxDefault: true,
      required: false,
      secret: false,
      description: 'Web Payment path segment: the country (cm, sn, ci); dev by default, required in production',
    },
    {
      env: 'CAISSE_ORANGE_CURRENCY',
      key: 'currency',
      kind: 'name',
      required: false,
      secret: false,
      description: "Currency of the environment, checked against it (cm: XAF; sn, ci: XOF; dev: OUV); unset: the environment's",
    },
    {
      env: 'CAISSE_ORANGE_CLIENT_ID',
      key: 'clientId',
      kind: 'credential',
      required: true,
      secret: false,
      description: 'OAuth client id of the Orange Developer application',
    },
    { env: 'CAISSE_ORANGE_CLIENT_SECRET', key: 'clientSecret', kind: 'credential', required: true, secret: true, description: 'OAuth client secret' },
    { env: 'CAISSE_ORANGE_MERCHANT_KEY', key: 'merchantKey', kind: 'credential', required: true, secret: true, description: 'Web Payment merchant key' },
    {
      env: 'CAISSE_ORANGE_CALLBACK_URL',
      key: 'callbackUrl',
      kind: 'callback',
      required: true,
      secret: false,
      description: 'Base of notif_url (this server + /callbacks/orange_money)',
    },
    { env: 'CAISSE_ORANGE_TIMEOUT_MS', key: 'timeoutMs', kind: 'integer', required: false, secret: false, description: 'Bound on each call, in ms (10000)' },
  ],
  testNumbers: testNumbers('+237690000'),
  // `cm` with XOF would fail every payment: refused at start, naming the variable.
  checkSettings(values) {
    const problem = environmentProblem(String(values.environment ?? 'dev'), values.currency === undefined ? undefined : String(values.currency));
    return problem === undefined ? undefined : { key: problem.setting, message: problem.message };
  },
};
