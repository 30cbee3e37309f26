import { API_VERSION } from '@caisse/api-types';
import { type FetchLike, HttpClient, type RequestOptions, type WithResponse } from './http.ts';
import type {
  Balance,
  BalanceTransactionList,
  BalanceTransactionListParams,
  PaymentLink,
  PaymentLinkCreateParams,
  PaymentLinkList,
  PaymentLinkListParams,
  PaymentLinkPaymentListParams,
  PaymentLinkUpdateParams,
  Payout,
  PayoutCreateParams,
  PayoutList,
  PayoutListParams,
  PayoutSchedule,
  PayoutScheduleUpdateParams,
  PaymentMethodSettings,
  PaymentMethodSettingsUpdateParams,
  CaisseEvent,
  ChargedPaymentIntent,
  CreatedPaymentIntent,
  DeletedWebhookEndpoint,
  EventList,
  EventListParams,
  EventResendParams,
  EventResendResult,
  InitOtpParams,
  OtpAuthorization,
  OtpChallenge,
  PaymentIntent,
  PaymentIntentCreateParams,
  PaymentIntentList,
  PaymentIntentListParams,
  Refund,
  RefundCreateParams,
  RecordedRefundParams,
  TestChargeParams,
  TestMobileMoneyChargeParams,
  ProcessingPaymentIntent,
  TestLoginParams,
  TestMessageList,
  TestMessageListParams,
  TestUser,
  TestUserCreateParams,
  TestUserSession,
  TestWalletFundParams,
  VerifyOtpParams,
  Wallet,
  WebhookDeliveryList,
  WebhookDeliveryListParams,
  WebhookEndpoint,
  WebhookEndpointCreateParams,
  WebhookEndpointList,
  WebhookEndpointListParams,
  WebhookEndpointRollSecretParams,
  WebhookEndpointSecret,
  WebhookEndpointUpdateParams,
  WebhookEndpointWithSecret,
} from './types.ts';
import { constructEvent, generateTestHeader, generateTestHeaders } from './webhooks.ts';

export const VERSION = '0.1.0';

export interface CaisseOptions {
  /** The publishable API key, `pk_test_…` or `pk_live_…` (sent as `x-api-key`). */
  apiKey: string;
  /** The secret key of the same merchant and mode, `sk_test_…` or `sk_live_…` (sent as a Bearer token). */
  secretKey: string;
  /**
   * Where your Caisse gateway is, e.g. `https://pay.example.com` or `http://127.0.0.1:8080`
   * (plain http only to a loopback address). Required: Caisse is self-hosted, there is no default
   * host. Omitted: the `CAISSE_BASE_URL` environment variable.
   */
  baseUrl?: string;
  /** Retries after the first attempt for network errors, timeouts, 429 and 5xx (default 2). */
  maxRetries?: number;
  /** Milliseconds one attempt may take (default 30 000). */
  timeout?: number;
  /** The `pay-version` to send (default: the version these types were generated from). */
  apiVersion?: string;
  /** A fetch implementation (default: the global fetch). */
  fetch?: FetchLike;
  /** Waits between retries (tests replace it to avoid real waiting). */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Accept a plain http:// `baseUrl` on any host, not only localhost: for a gateway on a private
   * network you trust (containers, a VM). Test keys only: a live secret key never travels in clear.
   */
  allowInsecureHttp?: boolean;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function checkBaseUrl(raw: string | undefined, anyHttp: boolean): string {
  if (raw === undefined || raw.trim() === '') {
    throw new TypeError(
      'baseUrl is required: the address of your Caisse gateway, e.g. new Caisse({ …, baseUrl: "http://127.0.0.1:8080" }), or set CAISSE_BASE_URL (there is no default host)',
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`baseUrl is not a URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (anyHttp || LOOPBACK.test(url.hostname)))) {
    throw new TypeError(`baseUrl must use https:// (plain http only to localhost): ${raw}`);
  }
  return url.toString().replace(/\/+$/, '');
}

function checkKeys(apiKey: unknown, secretKey: unknown): void {
  if (typeof apiKey !== 'string' || !/^pk_(test|live)_/.test(apiKey)) {
    throw new TypeError('apiKey must be a publishable key, pk_test_… or pk_live_…');
  }
  if (typeof secretKey !== 'string' || !/^sk_(test|live)_/.test(secretKey)) {
    throw new TypeError('secretKey must be a secret key, sk_test_… or sk_live_…');
  }
  if (apiKey.slice(3, 7) !== secretKey.slice(3, 7)) {
    throw new TypeError('apiKey and secretKey must be of the same mode (both test or both live)');
  }
}

const id = (value: string) => encodeURIComponent(value);

/**
 * The Caisse client for a merchant's server. It holds the secret key: never ship it to a browser.
 *
 *   const caisse = new Caisse({ apiKey, secretKey, baseUrl });
 *   const intent = await caisse.intents.create({ amount: '5000', currency: 'XAF', metadata: { orderId } });
 */
export class Caisse {
  readonly intents;
  readonly events;
  readonly webhookEndpoints;
  readonly balance;
  readonly payouts;
  readonly paymentLinks;
  readonly paymentMethods;
  /**
   * Test-mode helpers: users with funded wallets and the message outbox (404 with live keys), and
   * the customer's side of a payment (login, initOtp, verifyOtp, charge; test keys only).
   */
  readonly testHelpers;
  /** Webhook signature verification; needs no key, so it is also on the class (`Caisse.webhooks`). */
  static readonly webhooks = { constructEvent, generateTestHeader, generateTestHeaders };
  readonly webhooks = Caisse.webhooks;

  constructor(options: CaisseOptions) {
    checkKeys(options.apiKey, options.secretKey);
    const testMode = options.apiKey.startsWith('pk_test_');
    if (options.allowInsecureHttp && !testMode) throw new TypeError('allowInsecureHttp works with test keys only');
    const fetchImpl = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
    if (typeof fetchImpl !== 'function') throw new TypeError('No fetch: use Node 20 or later, or pass options.fetch');
    const http = new HttpClient({
      apiKey: options.apiKey,
      secretKey: options.secretKey,
      baseUrl: checkBaseUrl(options.baseUrl ?? process.env.CAISSE_BASE_URL, options.allowInsecureHttp === true),
      maxRetries: options.maxRetries ?? 2,
      timeout: options.timeout ?? 30_000,
      apiVersion: options.apiVersion ?? API_VERSION,
      fetch: fetchImpl,
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      random: Math.random,
      userAgent: `caisse-node/${VERSION} node/${process.versions.node}`,
    });

    this.intents = {
      /** Creates a PENDING intent; the answer's `sessionToken` goes to the browser (shown only here). */
      create: (params: PaymentIntentCreateParams, options?: RequestOptions) =>
        http.request<CreatedPaymentIntent>('POST', '/gateway', { body: params, options }),
      retrieve: (intentId: string, options?: RequestOptions) => http.request<PaymentIntent>('GET', `/gateway/${id(intentId)}`, { options }),
      list: (params: PaymentIntentListParams = {}, options?: RequestOptions) => http.request<PaymentIntentList>('GET', '/gateway', { query: params, options }),
      cancel: (intentId: string, options?: RequestOptions) => http.request<PaymentIntent>('POST', `/gateway/${id(intentId)}/cancel`, { options }),
      /** Refunds all of a SUCCEEDED intent, or `amount` of it. */
      refund: (intentId: string, params: RefundCreateParams = {}, options?: RequestOptions) =>
        http.request<Refund>('POST', `/gateway/${id(intentId)}/refunds`, { body: params, options }),
      /** Records a refund made outside Caisse (cash, a bank transfer…) where the provider cannot refund: no money moves. */
      recordRefund: (intentId: string, params: RecordedRefundParams, options?: RequestOptions) =>
        http.request<Refund>('POST', `/gateway/${id(intentId)}/refunds/recorded`, { body: params, options }),
    };

    this.events = {
      list: (params: EventListParams = {}, options?: RequestOptions) => http.request<EventList>('GET', '/events', { query: params, options }),
      retrieve: (eventId: string, options?: RequestOptions) => http.request<CaisseEvent>('GET', `/events/${id(eventId)}`, { options }),
      /** Delivers the event again, to every endpoint or to `endpointId`. */
      resend: (eventId: string, params: EventResendParams = {}, options?: RequestOptions) =>
        http.request<EventResendResult>('POST', `/events/${id(eventId)}/resend`, { body: params, options }),
    };

    this.webhookEndpoints = {
      /** The answer carries the endpoint's `secret` (`whsec_…`) for constructEvent. */
      create: (params: WebhookEndpointCreateParams, options?: RequestOptions) =>
        http.request<WebhookEndpointWithSecret>('POST', '/webhook-endpoints', { body: params, options }),
      retrieve: (endpointId: string, options?: RequestOptions) => http.request<WebhookEndpoint>('GET', `/webhook-endpoints/${id(endpointId)}`, { options }),
      update: (endpointId: string, params: WebhookEndpointUpdateParams, options?: RequestOptions) =>
        http.request<WebhookEndpoint>('PATCH', `/webhook-endpoints/${id(endpointId)}`, { body: params, options }),
      list: (params: WebhookEndpointListParams = {}, options?: RequestOptions) =>
        http.request<WebhookEndpointList>('GET', '/webhook-endpoints', { query: params, options }),
      del: (endpointId: string, options?: RequestOptions) =>
        http.request<DeletedWebhookEndpoint>('DELETE', `/webhook-endpoints/${id(endpointId)}`, { options }),
      /** The current secret and, during a roll, the previous ones still signing. */
      retrieveSecret: (endpointId: string, options?: RequestOptions) =>
        http.request<WebhookEndpointSecret>('GET', `/webhook-endpoints/${id(endpointId)}/secret`, { options }),
      rollSecret: (endpointId: string, params: WebhookEndpointRollSecretParams = {}, options?: RequestOptions) =>
        http.request<WebhookEndpointWithSecret>('POST', `/webhook-endpoints/${id(endpointId)}/roll-secret`, { body: params, options }),
      listDeliveries: (endpointId: string, params: WebhookDeliveryListParams = {}, options?: RequestOptions) =>
        http.request<WebhookDeliveryList>('GET', `/webhook-endpoints/${id(endpointId)}/deliveries`, { query: params, options }),
    };

    this.balance = {
      /** Available and pending per currency. */
      retrieve: (options?: RequestOptions) => http.request<Balance>('GET', '/balance', { options }),
      /** The balance statement, newest first (`type`, `currency`, `from`, `to` filters). */
      listTransactions: (params: BalanceTransactionListParams = {}, options?: RequestOptions) =>
        http.request<BalanceTransactionList>('GET', '/balance/transactions', { query: params, options }),
    };

    this.payouts = {
      /** Pays `amount` of the available balance out to a mobile-money number; PENDING until the provider answers. */
      create: (params: PayoutCreateParams, options?: RequestOptions) => http.request<Payout>('POST', '/payouts', { body: params, options }),
      retrieve: (payoutId: string, options?: RequestOptions) => http.request<Payout>('GET', `/payouts/${id(payoutId)}`, { options }),
      list: (params: PayoutListParams = {}, options?: RequestOptions) => http.request<PayoutList>('GET', '/payouts', { query: params, options }),
      retrieveSchedule: (options?: RequestOptions) => http.request<PayoutSchedule>('GET', '/payout-schedule', { options }),
      updateSchedule: (params: PayoutScheduleUpdateParams, options?: RequestOptions) =>
        http.request<PayoutSchedule>('PUT', '/payout-schedule', { body: params, options }),
    };

    this.paymentMethods = {
      /** What checkout offers in this key's mode: the wallet, and the providers chosen (or the default: every one serving your country). */
      retrieveSettings: (options?: RequestOptions) => http.request<PaymentMethodSettings>('GET', '/payment-methods/settings', { options }),
      /** `{ wallet?, providers? }`: exactly these providers, or `providers: null` for the default. */
      updateSettings: (params: PaymentMethodSettingsUpdateParams, options?: RequestOptions) =>
        http.request<PaymentMethodSettings>('PUT', '/payment-methods/settings', { body: params, options }),
    };

    this.paymentLinks = {
      /** A shareable `url` for an amount and description: each visit creates an intent and opens its hosted checkout. */
      create: (params: PaymentLinkCreateParams, options?: RequestOptions) => http.request<PaymentLink>('POST', '/payment-links', { body: params, options }),
      retrieve: (linkId: string, options?: RequestOptions) => http.request<PaymentLink>('GET', `/payment-links/${id(linkId)}`, { options }),
      list: (params: PaymentLinkListParams = {}, options?: RequestOptions) =>
        http.request<PaymentLinkList>('GET', '/payment-links', { query: params, options }),
      /** `{active: false}` deactivates the link (visits then answer 410), `{active: true}` opens it again. */
      update: (linkId: string, params: PaymentLinkUpdateParams, options?: RequestOptions) =>
        http.request<PaymentLink>('POST', `/payment-links/${id(linkId)}`, { body: params, options }),
      /** The intents the link's visits created, newest first. */
      listPayments: (linkId: string, params: PaymentLinkPaymentListParams = {}, options?: RequestOptions) =>
        http.request<PaymentIntentList>('GET', `/payment-links/${id(linkId)}/payments`, { query: params, options }),
    };

    // The customer's side, for tests: refused before any request with live keys, so that a
    // merchant's server never becomes the place where customers type their password.
    const asTestCustomer = <T>(call: () => Promise<T>): Promise<T> =>
      testMode ? call() : Promise.reject(new TypeError('The customer test helpers work with test keys only'));

    this.testHelpers = {
      createUser: (params: TestUserCreateParams, options?: RequestOptions) => http.request<TestUser>('POST', '/test/users', { body: params, options }),
      fundWallet: (params: TestWalletFundParams, options?: RequestOptions) => http.request<Wallet>('POST', '/test/wallets/fund', { body: params, options }),
      /** Makes every pending test-mode amount available now, as if the settlement delay had passed. */
      settleBalance: (options?: RequestOptions) => http.request<Balance>('POST', '/test/balance/settle', { options }),
      listMessages: (params: TestMessageListParams = {}, options?: RequestOptions) =>
        http.request<TestMessageList>('GET', '/test/messages', { query: params, options }),
      /** Signs a test user in (API key alone, as a browser does); the answer's `token` is their access token. */
      login: (params: TestLoginParams, options?: RequestOptions) =>
        asTestCustomer(() => http.request<TestUserSession>('POST', '/auth/web', { body: params, options, as: 'apiKey' })),
      /** Sends the user a one-time code (readable with `listMessages`), as that user. */
      initOtp: (userToken: string, params: InitOtpParams, options?: RequestOptions) =>
        asTestCustomer(() => http.request<OtpChallenge>('POST', '/otp/init', { body: params, options, as: { userToken } })),
      /** Checks the code, as that user; the answer's `authorizationToken` authorizes one charge. */
      verifyOtp: (userToken: string, params: VerifyOtpParams, options?: RequestOptions) =>
        asTestCustomer(() => http.request<OtpAuthorization>('POST', '/otp/verify', { body: params, options, as: { userToken } })),
      /** Pays the intent from the user's wallet, as that user, with the `authorizationToken` of `verifyOtp`. */
      charge: (userToken: string, { authorizationToken, ...params }: TestChargeParams, options?: RequestOptions) =>
        asTestCustomer(() =>
          http.request<ChargedPaymentIntent>('POST', '/charge', { body: params, options, as: { userToken }, headers: { 'x-otp-token': authorizationToken } }),
        ),
      /**
       * Starts paying the intent with mobile money as the payer's browser does, with the intent's
       * `sessionToken` (202, PROCESSING); in test mode the sandbox decides by the number's last digits.
       */
      chargeMobileMoney: (sessionToken: string, params: TestMobileMoneyChargeParams, options?: RequestOptions) =>
        asTestCustomer(() =>
          http.request<ProcessingPaymentIntent>('POST', '/charge', { body: params, options, as: 'apiKey', headers: { 'x-session-token': sessionToken } }),
        ),
    };
  }
}

export type { WithResponse };
