import type { ProviderDescription } from '../connectors.description.ts';
import { testNumbers } from '../connectors.testnumbers.ts';
import { cardCurrenciesProblem } from './cinetpay.rules.ts';

/**
 * `cinetpay` as checkout, `GET /payment-methods` and the CLI see it: an aggregator (docs/spec,
 * section 15; docs/decisions/0081-cinetpay.md). The payer approves on CinetPay's page, where they
 * pick an operator or pay by card. It is never a payment method itself: `serves` lists the
 * operators and card it reaches, in the countries CinetPay's documentation lists among those
 * Caisse sells in, so its own `countries` stay empty (no checkout lists "CinetPay").
 */
export const CINETPAY_DESCRIPTION: ProviderDescription = {
  name: 'cinetpay',
  displayName: 'CinetPay',
  countries: [],
  // USD by card only, and only through an account whose service CinetPay has enabled it for
  // (`cardCurrencies`; docs/decisions/0098-usd-by-card-through-cinetpay.md): its page lists the
  // operators of the countries of the payment's currency, and none of Caisse's countries is in USD.
  currencies: ['XAF', 'XOF', 'USD'],
  optInCurrencies: ['USD'],
  approval: 'redirect',
  // CinetPay's `amount` is a whole number of the currency's unit, a multiple of 5: francs from 100
  // (its documented minimum) to 1 500 000 (its transfer API's ceiling, the lower of the two);
  // dollars in multiples of $5 (500 cents), from $5 to $2 500 (ours: it documents no USD bound,
  // this is about the francs' ceiling).
  limits: {
    XAF: { min: 100n, max: 1_500_000n, step: 5n },
    XOF: { min: 100n, max: 1_500_000n, step: 5n },
    USD: { min: 500n, max: 250_000n, step: 500n },
  },
  ussd: null,
  network: null,
  // No refund operation: a mobile-money payment is given back by a transfer to the payer's number
  // (`disburse`); a card payment cannot be (`refundUnsupported`).
  capabilities: { collect: true, disburse: true, refund: true },
  statusByReference: true,
  // The description CinetPay shows the payer: our short name (4 to 22 letters, digits, spaces)
  // passes; CinetPay asks for none of `#/$_&`.
  messages: { minLength: 1, maxLength: 100, forbidden: '#/$_&' },
  settings: [
    {
      env: 'CAISSE_CINETPAY_BASE_URL',
      key: 'baseUrl',
      kind: 'url',
      default: 'https://api-checkout.cinetpay.com',
      required: false,
      secret: false,
      description: 'Payment API base URL (https://api-checkout.cinetpay.com)',
    },
    {
      env: 'CAISSE_CINETPAY_TRANSFER_BASE_URL',
      key: 'transferBaseUrl',
      kind: 'url',
      default: 'https://client.cinetpay.com',
      required: false,
      secret: false,
      description: 'Transfer API base URL (https://client.cinetpay.com), for payouts and refunds',
    },
    { env: 'CAISSE_CINETPAY_API_KEY', key: 'apiKey', kind: 'credential', required: true, secret: true, description: 'apikey (back office, Integrations)' },
    {
      env: 'CAISSE_CINETPAY_SITE_ID',
      key: 'siteId',
      kind: 'name',
      required: true,
      secret: false,
      description: 'site_id of the service (back office, Integrations)',
    },
    {
      env: 'CAISSE_CINETPAY_SECRET_KEY',
      key: 'secretKey',
      kind: 'credential',
      required: true,
      secret: true,
      description: "Secret key that signs notifications (x-token), back office's Integrations",
    },
    {
      env: 'CAISSE_CINETPAY_TRANSFER_PASSWORD',
      key: 'transferPassword',
      kind: 'credential',
      required: false,
      secret: true,
      description: 'API password of the transfer API (unset: no payouts, no refunds)',
    },
    {
      env: 'CAISSE_CINETPAY_CALLBACK_URL',
      key: 'callbackUrl',
      kind: 'callback',
      required: true,
      secret: false,
      description: 'Base of notify_url (this server + /callbacks/cinetpay)',
    },
    { env: 'CAISSE_CINETPAY_TIMEOUT_MS', key: 'timeoutMs', kind: 'integer', required: false, secret: false, description: 'Bound on each call, in ms (10000)' },
    {
      env: 'CAISSE_CINETPAY_CARD_CURRENCIES',
      key: 'cardCurrencies',
      kind: 'currencies',
      required: false,
      secret: false,
      description: "Currencies the service takes by card (XAF,USD): add USD once CinetPay has enabled it; unset: the country's only",
    },
  ],
  // A currency CinetPay does not document, or one it takes in no country Caisse serves, would fail every payment in it.
  checkSettings(values) {
    const problem = values.cardCurrencies === undefined ? undefined : cardCurrenciesProblem(String(values.cardCurrencies));
    return problem === undefined ? undefined : { key: 'cardCurrencies', message: problem };
  },
  testNumbers: testNumbers('+2250500000'),
  /**
   * Read from CinetPay's code table (docs.cinetpay.com, "Code table": payment methods per country)
   * and kept to the countries Caisse sells in: Orange (OM, OMSN, OMML, OMBF, OMCM), MTN (MOMO,
   * MOMOCM, MOMOBJ), Moov (FLOOZ, MOOVML, MOOVBF, FLOOZTG, FLOOZBJ), Wave (WAVECI, WAVESN), Free
   * (FREESN), T-Money (TMONEYTG), cards (VISAM in CI, VISAMCM in CM). Cards may also take USD, one
   * of the currencies its initialisation documents, where CinetPay has enabled it for the service:
   * an account takes it only with `cardCurrencies` naming it. Mobile money moves the country's
   * currency only.
   */
  serves: [
    { method: 'orange_money', countries: ['CI', 'SN', 'ML', 'BF', 'CM'] },
    { method: 'mtn_momo', countries: ['CI', 'CM', 'BJ'] },
    { method: 'moov_money', countries: ['CI', 'ML', 'BF', 'TG', 'BJ'] },
    { method: 'wave', countries: ['CI', 'SN'] },
    { method: 'free_money', countries: ['SN'] },
    { method: 't_money', countries: ['TG'] },
    { method: 'card', countries: ['CI'], currencies: ['XOF', 'USD'] },
    { method: 'card', countries: ['CM'], currencies: ['XAF', 'USD'] },
  ],
  refundUnsupported: {
    card: "CinetPay's payment API has no refund and its transfers go to a phone, not a card: refund the customer another way and record it",
  },
};
