import type { KeyMode } from '../../platform/tenancy.ts';
import type { ListedRequest } from '../connectors/index.ts';

/** What reconciliation reads from the modules that own the requests, and the report it makes of them. */

/** One request of ours, as its owning module lists it (its own row shape). */
export interface OurRequest<S extends string> {
  id: string;
  mode: KeyMode;
  reference: string;
  amount_minor: bigint;
  currency: string;
  status: S;
  created_at: Date;
  /**
   * The provider's own id of the request, when the owner stored one (Orange's pay_token, Wave's
   * session id): a provider whose status read needs more than our reference (Orange Web Payment)
   * is asked with it, the amount and the currency (`KnownRequest`).
   */
  provider_reference?: string | null;
  /**
   * The provider account (`pac_…`) the request was made with: it is reconciled with that
   * account's report, and only read back with it. Absent: the account this server calls with.
   */
  provider_account?: string;
}

/** What a module that sends requests to providers gives reconciliation: its requests of [from, to). */
export interface RequestSource<S extends string> {
  listForProvider(provider: string, from: Date, to: Date): Promise<OurRequest<S>[]>;
}
/** modules/topups (`TopupsService.listForProvider`). */
export type TopupSource = RequestSource<'PENDING' | 'SUCCEEDED' | 'FAILED'>;
/** modules/payouts (`listForProvider`), wired in services.ts. */
export type PayoutSource = RequestSource<'PENDING' | 'PAID' | 'FAILED'>;
/** modules/charges: direct mobile-money payment attempts, and refunds of them to the payer. */
export type AttemptSource = RequestSource<'PENDING' | 'SUCCEEDED' | 'FAILED'>;
export type RefundSource = RequestSource<'PENDING' | 'SUCCEEDED' | 'FAILED'>;

export type ReconciledObject = 'topup' | 'payout' | 'attempt' | 'refund';

/** Our side of a request; amounts as decimal strings in major units, as in the API. */
export interface OurSide {
  status: string;
  amount: string;
  currency: string;
  createdAt: string;
}

/** The provider's side: its answer to `status`, or its listing's line. */
export interface ProviderSide {
  status: 'PENDING' | 'SUCCESSFUL' | 'FAILED' | 'NOT_FOUND' | 'UNKNOWN';
  amount?: string;
  currency?: string;
  reason?: string;
  providerTransactionId?: string;
  externalId?: string;
}

/**
 * - `status`: the final states differ (we SUCCEEDED/PAID, the provider FAILED, or the reverse, or
 *   the provider still PENDING while we have closed the request).
 * - `amount`: the amount or the currency differs.
 * - `missing_at_provider`: we moved the money (SUCCEEDED/PAID) and the provider never saw the reference.
 * - `missing_here`: the provider has a request whose reference we do not.
 */
export type MismatchKind = 'status' | 'amount' | 'missing_at_provider' | 'missing_here';

export interface Mismatch {
  kind: MismatchKind;
  object: ReconciledObject;
  /** Our id (`top_…`, `po_…`); null for `missing_here`. */
  id: string | null;
  reference: string;
  ours: OurSide | null;
  provider: ProviderSide | null;
  detail: string;
}

/** A request still PENDING on our side: its poller decides it, so it is not a mismatch (yet). */
export interface InFlight {
  object: ReconciledObject;
  id: string;
  reference: string;
  ours: OurSide;
  provider: ProviderSide;
}

/** A request the provider could not be asked about (`UNKNOWN`): neither agreement nor mismatch. */
export interface Unverified {
  object: ReconciledObject;
  id: string;
  reference: string;
  ours: OurSide;
  reason: string;
}

/** One provider account's part of a report: the requests made with it, and its listing. */
export interface AccountReconciliation {
  /** The provider account (`pac_…`). */
  providerAccount: string;
  /** Its connector. */
  connector: string;
  /**
   * Whether this server reads the account's requests (it calls the connector with it in this
   * mode, or with the environment's account of today for a request of before accounts). When
   * not, its requests are unverified: they are never read with another account's settings.
   */
  readHere: boolean;
  result: 'agreed' | 'mismatched' | 'unverified';
  checked: ReconciliationReport['checked'];
  agreed: number;
  /** Its provider's listing, read with this account; null: not read with it (another account's requests, listed with that one). */
  listing: ReconciliationReport['listing'] | null;
  mismatches: Mismatch[];
  inFlight: InFlight[];
  unverified: Unverified[];
}

export interface ReconciliationReport {
  object: 'reconciliation';
  /** The connector reconciled. */
  provider: string;
  mode: KeyMode;
  /** The period, [from, to). */
  from: string;
  to: string;
  generatedAt: string;
  /** `agreed`: nothing differs and everything was checked; `mismatched`: at least one mismatch; `unverified`: none found, but not everything could be checked. */
  result: 'agreed' | 'mismatched' | 'unverified';
  ok: boolean;
  /** Requests of ours in the period, every account's; null for a kind whose source is not wired. */
  checked: { topups: number; payouts: number | null; attempts: number | null; refunds: number | null };
  /** Requests whose final state, amount and currency the provider confirmed. */
  agreed: number;
  /**
   * Where the provider's own list of requests came from (for `missing_here`), read with the
   * account this server calls with: its connector (`provider`, only Caisse's MoMo sandbox for
   * mtn_momo), a statement file, or `none` (that check was not made: MTN's API cannot list).
   * `ok` false: the listing failed (result unverified).
   */
  listing: { source: 'provider' | 'statement' | 'none'; ok: boolean; requests: number; reason?: string };
  /** Every account's, as in `accounts`. */
  mismatches: Mismatch[];
  inFlight: InFlight[];
  unverified: Unverified[];
  /**
   * Per provider account (docs/decisions/0078-clearing-health-reconciliation-per-provider-account.md):
   * the account this server calls the connector with first, then every other account that made
   * requests in the period.
   */
  accounts: AccountReconciliation[];
}

export interface ReconcileQuery {
  provider: string;
  mode: KeyMode;
  from: Date;
  to: Date;
  /** The provider's statement (parseStatement): used instead of the connector's listing. */
  statement?: ListedRequest[];
}

/** A recorded reconciliation, summed up. */
export interface ReconciliationRunView {
  id: string;
  provider: string;
  mode: KeyMode;
  from: string;
  to: string;
  result: 'agreed' | 'mismatched' | 'unverified';
  agreed: number;
  mismatches: number;
  inFlight: number;
  unverified: number;
  generatedAt: string;
}
