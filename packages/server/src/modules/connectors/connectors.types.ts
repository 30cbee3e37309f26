import type { Capability } from './connectors.description.ts';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.ts';
import type { Currency } from '../../platform/money.ts';

/**
 * The connector contract (docs/spec/money-in.md): one interface for every mobile-money provider. Nothing in
 * it throws on a provider's behaviour: whatever the provider answers (or fails to answer) comes
 * back as a typed result, and the reason is logged.
 */

/** Which product a request belongs to: money in from a payer, or money out to a payee. */
export type ConnectorKind = 'collection' | 'disbursement';

/** A request to move money. Amounts are minor units; the connector writes the provider's format. */
export interface PaymentRequest {
  /**
   * OUR reference: a UUID v4 (`newReference`) that the caller stores (and commits) before the
   * call. The provider keys the request by it, so sending it again never makes a second payment.
   */
  reference: string;
  /** Minor units, greater than zero. */
  amount: bigint;
  currency: Currency;
  /** The payer's (collect) or payee's (disburse) mobile-money number: E.164 (`+2376…`) or digits only. */
  phoneNumber: string;
  /** Our id of the business object (`top_…`, `po_…`), shown in the provider's records. */
  externalId: string;
  /** Shown to the payer / payee by the provider (payerMessage); default: externalId. */
  payerMessage?: string;
  /**
   * The merchant's payer-facing short name (4 to 22 ASCII letters, digits, spaces), for providers
   * that show the payer a name per request (Orange's `reference`); unset: the connector's default.
   */
  payerName?: string;
  /** Kept on the provider's side for us (payeeNote); default: externalId. */
  payeeNote?: string;
  /** Redirect providers: where the provider's page sends the payer back (after success, or always). */
  returnUrl?: string;
  /** Redirect providers: where the page sends the payer after a cancel or an error; default: returnUrl. */
  cancelUrl?: string;
  /** The payer's language on the provider's page. */
  language?: 'fr' | 'en';
  /**
   * The payment method the payer chose (`mtn_momo`, `moov_money`, `card`): an aggregator's
   * connector needs it to reach the operator; a direct connector ignores it.
   */
  method?: string;
  /** The merchant's country (ISO 3166 alpha-2): aggregators serve several. */
  country?: string;
  /**
   * The payer's details a card payment requires (CinetPay's page refuses a card payment without
   * them), collected by checkout before the redirect; mobile money needs none.
   */
  customer?: PaymentCustomer;
  /**
   * The one-time code the payer made with their operator before paying, for an operator that
   * takes one instead of a phone prompt (pawaPay's pre-authorisation: Orange in Burkina Faso).
   * Checkout asks for it; connectors whose operators prompt on the phone ignore it.
   */
  preAuthorisationCode?: string;
}

/** Who pays by card, as the card provider asks for it. `country` is ISO 3166 alpha-2, `state` its region (or the country again). */
export interface PaymentCustomer {
  name: string;
  surname: string;
  email: string;
  /** E.164. */
  phoneNumber: string;
  address: string;
  city: string;
  country: string;
  state: string;
  zipCode: string;
}

/**
 * What a provider says about one request, read back by our reference.
 * - `PENDING` / `SUCCESSFUL` / `FAILED`: the provider's own answer, with the amount and currency
 *   it holds (the caller compares them with what it asked for).
 * - `NOT_FOUND`: the provider never saw this reference. Nothing was created: the caller may send
 *   the same request again with the same reference, or give up.
 * - `UNKNOWN`: no usable answer (timeout, 5xx, not JSON, wrong schema, credentials refused). It
 *   says nothing about the payment: ask again later. Never read it as FAILED.
 */
export type StatusResult =
  | ({ status: 'PENDING' } & ProviderView)
  | ({ status: 'SUCCESSFUL' } & ProviderView)
  | ({ status: 'FAILED'; reason?: string } & ProviderView)
  | { status: 'NOT_FOUND' }
  | { status: 'UNKNOWN'; reason: string };

export interface ProviderView {
  amount: bigint;
  currency: Currency;
  /** The provider's own id of the money movement (MTN's financialTransactionId, Orange's txnid, Wave's transaction id). */
  providerTransactionId?: string;
  /**
   * A redirect request still open: its page and the provider's own id, when the status read
   * tells them (Wave's session by client_reference). The lifecycle stores them, so a request
   * whose submit answer was lost in a crash gets its page back.
   */
  redirectUrl?: string;
  providerReference?: string;
  externalId?: string;
}

/**
 * What sending a request (collect, disburse) did.
 * - `PENDING`: the provider accepted it (`duplicate`: it already had this reference, which is
 *   the same thing as far as the payment goes). The outcome comes by callback or by `status`.
 *   A redirect provider (Orange Money, Wave) answers `redirectUrl`: where to send the payer to
 *   approve; a phone-prompt provider (MTN) answers none.
 * - `FAILED`: the provider refused THIS call (invalid request, credentials refused) or it could
 *   not be sent (invalid number or amount): this call created nothing. When an earlier call with
 *   the same reference ended UNKNOWN, ask `status` before concluding anything.
 * - `UNKNOWN`: we do not know whether the provider has it (timeout, 5xx, rate limit, nonsense
 *   answer). Ask `status` later; NOT_FOUND then means it is safe to send again.
 */
export type SubmitResult =
  | ({ status: 'PENDING'; duplicate: boolean } & ProviderHandle)
  | { status: 'FAILED'; reason: string }
  | { status: 'UNKNOWN'; reason: string };

/**
 * What a provider gave back on accepting a request, for the caller to store with it: where a
 * redirect provider (Orange Money, Wave) sends the payer to approve, and the provider's own id of
 * the request, which `status` needs after a restart when our reference alone cannot be asked.
 */
export interface ProviderHandle {
  redirectUrl?: string;
  providerReference?: string;
}

/** What the caller stored about a request, for providers that need more than our reference to read it. */
export interface KnownRequest {
  providerReference?: string;
  amount?: bigint;
  currency?: Currency;
}

/** Every result a connector gives: `{status, reason?, providerTransactionId?, amount?, currency?}`. */
export type ConnectorResult = SubmitResult | StatusResult;

/** An HTTP request that claims to be a provider's callback, as our route received it. */
export interface IncomingCallback {
  /** The request's path (and query), or its full URL: the connector put what it needs in it. */
  url: string;
  /** The raw body (string or Buffer) or the JSON already parsed; it is only a hint. */
  body: unknown;
  /** The request's headers (names in lower case); providers that sign their callbacks need them and the raw body. */
  headers?: Record<string, string | string[] | undefined>;
  /** What the caller stored about the request the URL names, for providers whose status read needs it (Orange's pay_token). */
  known?: KnownRequest;
}

/**
 * A verified callback. `result` is what the provider answers to `status` right now, and is the
 * only thing to act on; `claimed` is what the callback body said (undefined when unreadable).
 * A replayed callback verifies again and gives the same final state: acting on it must be
 * idempotent on the caller's side (credit once per reference).
 */
export type CallbackResult =
  | { ok: true; kind: ConnectorKind; reference: string; claimed: 'PENDING' | 'SUCCESSFUL' | 'FAILED' | undefined; result: StatusResult }
  | { ok: false; reason: string; ignored?: false }
  /**
   * Authenticated, but about nothing Caisse acts on (an event type it does not handle, a payment
   * made outside Caisse): answered 2xx, so that the provider stops sending it again.
   */
  | { ok: false; reason: string; ignored: true };

/**
 * A callback authenticated without asking the provider (`Connector.authenticateCallback`): whom
 * it is about and what its body claimed, and nothing more. What the provider's status says is
 * read later, and decides.
 */
export type AuthenticatedCallback =
  | { ok: true; kind: ConnectorKind; reference: string; claimed: 'PENDING' | 'SUCCESSFUL' | 'FAILED' | undefined }
  | { ok: false; reason: string; ignored?: boolean };

/** What asking a provider to close an open request did (`Connector.cancel`): only ever a hint, the status read decides. */
export type CancelResult = { ok: true } | { ok: false; reason: string };

/**
 * One request as a provider's own listing shows it (reconciliation: what the provider has and we
 * may not). The amount is the provider's decimal string in major units, as it wrote it.
 */
export interface ListedRequest {
  kind: ConnectorKind;
  reference: string;
  status: 'PENDING' | 'SUCCESSFUL' | 'FAILED';
  amount: string;
  currency: string;
  createdAt: Date;
  externalId?: string;
}

/** A listing, or why there is none (`UNKNOWN`-like: it says nothing about the requests). */
export type ListResult = { ok: true; requests: ListedRequest[] } | { ok: false; reason: string };

/** One operator as a request names it: its method and country, else its number's calling code. */
export interface OperatorTarget {
  method: string;
  country?: string;
  phoneNumber?: string;
}

export interface Connector {
  /** The registry name (`mtn_momo`). */
  readonly provider: string;
  /**
   * The longest `collect` or `disburse` can run, in ms: every HTTP call it may make (a token, the
   * request, once more after a refused token), each bounded by the provider's timeout setting
   * (CAISSE_<PROVIDER>_TIMEOUT_MS). Past it (and a margin), a submit that stored nothing has ended.
   */
  readonly submitTimeoutMs: number;
  /** Ask the payer's account for `amount`; the payer approves on their phone. */
  collect(request: PaymentRequest): Promise<SubmitResult>;
  /** Send `amount` to the payee's account. */
  disburse(request: PaymentRequest): Promise<SubmitResult>;
  /** Look a request up by our reference (and, for providers that need it, what `collect` answered). */
  status(kind: ConnectorKind, reference: string, known?: KnownRequest): Promise<StatusResult>;
  /** Authenticate a callback and confirm it with the provider (docs/decisions/0018-connectors.md). */
  verifyCallback(callback: IncomingCallback): Promise<CallbackResult>;
  /**
   * Optional: `verifyCallback` without its status read, for a provider whose answer to a callback
   * never depends on that read (the URL's token, a signature): the callback is recorded and
   * answered at once, and the status is read behind it (docs/decisions/0093-queued-callbacks.md).
   * Absent: the answer waits for the read (CinetPay refuses a notification whose amount is not
   * the one it holds).
   */
  authenticateCallback?(callback: IncomingCallback): Promise<AuthenticatedCallback>;
  /**
   * Optional: every request of one product the provider created in [from, to). Only providers
   * (or sandboxes) that can list have it: MTN's Open API cannot, so `mtn_momo` has it only
   * against Caisse's MoMo sandbox (docs/decisions/0021-reconciliation.md).
   */
  listRequests?(kind: ConnectorKind, from: Date, to: Date): Promise<ListResult>;
  /**
   * Optional: gives a collected payment back to the payer through the provider's own refund
   * operation (Wave's checkout refund), by the provider's reference that `collect` answered.
   * Providers without one refund by `disburse`, or cannot refund (Orange Money Web Payment).
   */
  refund?(request: PaymentRequest & { providerReference: string }): Promise<SubmitResult>;
  /**
   * Optional: how `refund` behaves when it is not Wave's (the whole payment, done on acceptance).
   * `partial`: it gives back any part of the payment; `asynchronous`: its acceptance is not its
   * outcome, which `status('disbursement', reference)` reads back (pawaPay's refunds).
   */
  readonly refundOperation?: { readonly partial: boolean; readonly asynchronous: boolean };
  /**
   * Optional: how a payer approves a payment of `method` in `country` through this account, when
   * it differs by operator (pawaPay's active configuration: a phone prompt, a code the payer made
   * beforehand, a page). Undefined, or absent: the description's `approval`.
   */
  authorisation?(method: string, country: string): Promise<'phone_prompt' | 'pre_authorisation_code' | 'redirect' | undefined>;
  /**
   * Optional: what the payer dials to make the one-time code an operator takes instead of a prompt
   * (`pre_authorisation_code`), as the provider documents it; undefined when it documents none.
   */
  preAuthorisationUssd?(method: string, country: string): string | undefined;
  /**
   * Optional: what this connector, as configured, cannot do although its provider can, each with
   * why in words an operator acts on (an MTN account without a disbursement key neither pays out
   * nor refunds). Refunds and payouts are refused on it before anything is stored.
   */
  readonly lacks?: Readonly<Partial<Record<Capability, string>>>;
  /**
   * Optional: why this account cannot do `capability` for one operator although it can for others
   * (pawaPay's active configuration enables each operation per operator), from what it last read:
   * never a call, so it may be asked inside a transaction. Undefined: it can, or it does not know
   * yet (the provider then answers for itself).
   */
  lacksFor?(capability: Capability, target: OperatorTarget): string | undefined;
  /** Optional: reads again what `lacksFor` answers from once its copy is stale (a call: outside any transaction). Never throws. */
  refreshLacks?(): Promise<void>;
  /**
   * Optional: the currencies this connector's account takes, when fewer than its description's
   * (an Orange environment takes its country's only). A charge in another is refused before any
   * provider call (400 `currency_unsupported`).
   */
  readonly currencies?: readonly Currency[];
  /**
   * Optional: closes a request the payer can still approve at the provider (Wave's open checkout
   * session, `POST /v1/checkout/sessions/{id}/expire`), so that nobody pays it after Caisse
   * stopped waiting for it. Best effort and outside any transaction: the caller still decides by
   * the status read, and a payment that beat the cancel is a late payment.
   */
  cancel?(kind: ConnectorKind, reference: string, known?: KnownRequest): Promise<CancelResult>;
  /**
   * Optional: one harmless authenticated call (or a few) that this account's keys are allowed to
   * make, never moving money (MTN: a token per configured product and a balance read; Orange: a
   * token; Wave: a checkout-session search for a reference that does not exist). `detail` says
   * what was asked and, on a refusal, the provider's own words; never a secret. Never throws.
   */
  check?(): Promise<CheckResult>;
  /** Closes the connection pool. */
  close(): Promise<void>;
}

/** What `Connector.check` found: whether the account's keys work, in the provider's own words. */
export interface CheckResult {
  ok: boolean;
  detail: string;
}

/** Live refusals (connectors.live.ts): where an account's settings are to be used. */
export interface LiveContext {
  mode: 'test' | 'live';
  /** The account's countries (ISO 3166 alpha-2); empty: not known (the environment's account), not compared. */
  countries: readonly string[];
  /** CAISSE_MODE=production: base URLs must be https and reach a public address. */
  production: boolean;
}

/** One setting that cannot be used there: its camelCase key and why, as a sentence that follows its name. */
export interface SettingProblem {
  setting: string;
  message: string;
}

/** The settings as an account or the environment gives them: the connector's settings object, maybe partial. */
export type GivenSettings = Readonly<Record<string, unknown>>;

export type ConnectorLogger = Pick<Logger, 'debug' | 'info' | 'warn'>;

/** What every connector is built with, besides its own settings. */
export interface ConnectorDeps {
  clock: Clock;
  logger: ConnectorLogger;
  /**
   * A key only this deployment knows (the master key): each connector derives from it the key
   * that signs its callback URLs.
   */
  callbackKey: Buffer;
}
