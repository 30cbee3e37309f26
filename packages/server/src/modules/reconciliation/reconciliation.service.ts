import { type Clock, DAY } from '../../platform/clock.ts';
import type { Executor } from '../../platform/db.ts';
import type { IdFactory } from '../../platform/ids.ts';
import { ApiError } from '../../platform/errors.ts';
import { formatAmount, isCurrency } from '../../platform/money.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import {
  type Connector,
  type ConnectorKind,
  describeProvider,
  isProviderName,
  type KnownRequest,
  type ListedRequest,
  type ModeConnectors,
  providerNames,
  sameAccount,
  type StatusResult,
} from '../connectors/index.ts';
import { reconciliationRepository as repo } from './reconciliation.repository.ts';

/**
 * Reconciliation (docs/spec/money-out.md): every top-up, payout, payment attempt and refund to mobile money of a period, as our ledger's modules
 * have it, against what the provider says about the same reference. The service reads no table:
 * the modules that own the requests hand them over through the sources below, and the provider
 * is asked through its connector (docs/decisions/0021-reconciliation.md).
 */

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

/** Per object: the connector product it goes through and our status that means "the money moved". */
const OBJECTS = {
  topup: { kind: 'collection', done: 'SUCCEEDED' },
  payout: { kind: 'disbursement', done: 'PAID' },
  attempt: { kind: 'collection', done: 'SUCCEEDED' },
  refund: { kind: 'disbursement', done: 'SUCCEEDED' },
} as const satisfies Record<ReconciledObject, { kind: ConnectorKind; done: string }>;

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

/** Provider calls at once: enough to get through a day's requests quickly, few enough to stay under a provider's rate limit. */
const STATUS_CONCURRENCY = 8;
/**
 * A request the provider lists in the period may be ours from just outside it (the provider
 * records it when it arrives: after our commit, and after a resubmission by the poller up to 15
 * minutes later). Ours are looked up this much wider before one is called unknown to us.
 */
const MATCH_MARGIN_MS = DAY;

function amountOf(minor: bigint, currency: string): string {
  return isCurrency(currency) ? formatAmount(minor, currency) : minor.toString();
}

function ourSide(row: OurRequest<string>): OurSide {
  return { status: row.status, amount: amountOf(row.amount_minor, row.currency), currency: row.currency, createdAt: row.created_at.toISOString() };
}

function providerSide(result: StatusResult): ProviderSide {
  if (result.status === 'NOT_FOUND') return { status: 'NOT_FOUND' };
  if (result.status === 'UNKNOWN') return { status: 'UNKNOWN', reason: result.reason };
  return {
    status: result.status,
    amount: formatAmount(result.amount, result.currency),
    currency: result.currency,
    ...(result.status === 'FAILED' && result.reason !== undefined ? { reason: result.reason } : {}),
    ...(result.providerTransactionId !== undefined ? { providerTransactionId: result.providerTransactionId } : {}),
    ...(result.externalId !== undefined ? { externalId: result.externalId } : {}),
  };
}

export type Verdict =
  | { type: 'agreed' }
  | { type: 'mismatched'; mismatches: Mismatch[] }
  | { type: 'in_flight'; entry: InFlight }
  | { type: 'unverified'; entry: Unverified };

/**
 * One request of ours against the provider's answer about its reference. A FAILED request the
 * provider never saw agrees (no money moved on either side: refused before sending, or never
 * submitted); one we count as moved does not.
 */
export function compareRequest(object: ReconciledObject, row: OurRequest<string>, result: StatusResult): Verdict {
  const ours = ourSide(row);
  const provider = providerSide(result);
  const base = { object, id: row.id, reference: row.reference };
  if (row.status === 'PENDING') return { type: 'in_flight', entry: { ...base, ours, provider } };
  if (result.status === 'UNKNOWN') return { type: 'unverified', entry: { ...base, ours, reason: result.reason } };
  const moved = row.status === OBJECTS[object].done;
  if (result.status === 'NOT_FOUND') {
    if (!moved) return { type: 'agreed' };
    const detail = `we have ${row.status} ${ours.amount} ${ours.currency}, the provider does not know the reference`;
    return { type: 'mismatched', mismatches: [{ kind: 'missing_at_provider', ...base, ours, provider, detail }] };
  }
  const mismatches: Mismatch[] = [];
  const expected = moved ? 'SUCCESSFUL' : 'FAILED';
  if (result.status !== expected) {
    const theirs = result.status === 'PENDING' ? 'still PENDING' : `${result.status}${provider.reason !== undefined ? ` (${provider.reason})` : ''}`;
    mismatches.push({ kind: 'status', ...base, ours, provider, detail: `we have ${row.status}, the provider ${theirs}` });
  }
  if (result.currency !== row.currency || result.amount !== row.amount_minor) {
    const detail = `we have ${ours.amount} ${ours.currency}, the provider ${provider.amount} ${provider.currency}`;
    mismatches.push({ kind: 'amount', ...base, ours, provider, detail });
  }
  return mismatches.length === 0 ? { type: 'agreed' } : { type: 'mismatched', mismatches };
}

/** A request the provider lists and we do not have. */
function missingHere(object: ReconciledObject, listed: ListedRequest): Mismatch {
  const provider: ProviderSide = {
    status: listed.status,
    amount: listed.amount,
    currency: listed.currency,
    ...(listed.externalId !== undefined ? { externalId: listed.externalId } : {}),
  };
  const external = listed.externalId !== undefined ? ` (externalId ${listed.externalId})` : '';
  const detail = `the provider has ${listed.status} ${listed.amount} ${listed.currency}${external} from ${listed.createdAt.toISOString()}, we have no ${object} with this reference`;
  return { kind: 'missing_here', object, id: null, reference: listed.reference, ours: null, provider, detail };
}

/** What we stored about a request, for a provider that reads it by more than our reference (any provider may ignore it). */
function knownOf(row: OurRequest<string>): KnownRequest {
  const currency = isCurrency(row.currency) ? row.currency : undefined;
  return {
    ...(row.provider_reference ? { providerReference: row.provider_reference } : {}),
    amount: row.amount_minor,
    ...(currency !== undefined ? { currency } : {}),
  };
}

/** Runs `fn` over `items`, at most `limit` at a time, keeping their order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

export function createReconciliationService(
  /** With `db` and `ids`, each report is also recorded (the console shows the latest). */
  deps: { clock: Clock; db?: Executor; ids?: IdFactory },
  sources: {
    connectors: Pick<ModeConnectors, 'forMode' | 'byAccount'>;
    topups: TopupSource;
    payouts?: PayoutSource;
    attempts?: AttemptSource;
    refunds?: RefundSource;
  },
) {
  function connectorFor(provider: string, mode: KeyMode): Connector {
    if (!isProviderName(provider))
      throw new ApiError('provider_unsupported', `Unknown provider "${provider}"; supported: ${providerNames().join(', ')}`, { param: 'provider' });
    const connector = sources.connectors.forMode(mode).get(provider);
    if (connector === undefined) {
      const how =
        mode === 'test'
          ? "test mode asks the providers' sandbox: set CAISSE_SANDBOX_URL (npx caisse sandbox)"
          : `set its variables: ${(describeProvider(provider)?.settings ?? [])
              .filter((v) => v.required)
              .map((v) => v.env)
              .join(', ')} (npx caisse providers list)`;
      throw new ApiError('provider_unavailable', `${provider} is not configured for ${mode} mode here; ${how}`, { param: 'provider' });
    }
    return connector;
  }

  /** The provider's requests of the period for each product we check, or why there are none. */
  async function listing(
    connector: Connector,
    q: ReconcileQuery,
    kinds: ConnectorKind[],
  ): Promise<{ source: ReconciliationReport['listing']['source']; requests: ListedRequest[]; reason?: string }> {
    if (q.statement !== undefined) {
      const requests = q.statement.filter((r) => kinds.includes(r.kind) && r.createdAt >= q.from && r.createdAt < q.to);
      return { source: 'statement', requests };
    }
    if (connector.listRequests === undefined) return { source: 'none', requests: [] };
    const requests: ListedRequest[] = [];
    for (const kind of kinds) {
      const listed = await connector.listRequests(kind, q.from, q.to);
      if (!listed.ok) return { source: 'provider', requests: [], reason: listed.reason };
      requests.push(...listed.requests);
    }
    return { source: 'provider', requests };
  }

  return {
    /**
     * Asks the provider about every top-up (and payout, when a payouts source is wired) of `mode`
     * created in [from, to), and lists what the provider has that we do not when it (or a
     * statement) can say. Per provider account: a request is read only with the account that
     * made it (another account's stays unverified here), and the listing is the account's this
     * server calls with. Never changes money: the pollers settle requests, people settle
     * mismatches. The report is recorded (with `db`) for the operator console.
     */
    async reconcile(q: ReconcileQuery): Promise<ReconciliationReport> {
      if (!(q.from.getTime() < q.to.getTime())) throw new ApiError('validation_error', 'The period is empty: from must be before to', { param: 'from' });
      const connector = connectorFor(q.provider, q.mode);
      // The account this server calls the connector with in this mode: its listing is read with it.
      const current = sources.connectors.forMode(q.mode).account(q.provider) ?? '';
      const wideFrom = new Date(q.from.getTime() - MATCH_MARGIN_MS);
      const wideTo = new Date(q.to.getTime() + MATCH_MARGIN_MS);
      const wide = (source: RequestSource<string> | undefined) => source?.listForProvider(q.provider, wideFrom, wideTo);
      const [topups, payouts, attempts, refunds] = await Promise.all([
        wide(sources.topups) as Promise<OurRequest<string>[]>,
        wide(sources.payouts),
        wide(sources.attempts),
        wide(sources.refunds),
      ]);
      const inPeriod = (r: OurRequest<string>) => r.mode === q.mode && r.created_at >= q.from && r.created_at < q.to;
      const ourTopups = topups.filter(inPeriod);
      const ourPayouts = payouts?.filter(inPeriod);
      const ourAttempts = attempts?.filter(inPeriod);
      const ourRefunds = refunds?.filter(inPeriod);
      const ours: { object: ReconciledObject; row: OurRequest<string> }[] = [
        ...ourTopups.map((row) => ({ object: 'topup' as const, row })),
        ...(ourPayouts ?? []).map((row) => ({ object: 'payout' as const, row })),
        ...(ourAttempts ?? []).map((row) => ({ object: 'attempt' as const, row })),
        ...(ourRefunds ?? []).map((row) => ({ object: 'refund' as const, row })),
      ];

      // Money out is listed only when a source of it is wired: otherwise every transfer would be unknown to us.
      const kinds: ConnectorKind[] = payouts === undefined && refunds === undefined ? ['collection'] : ['collection', 'disbursement'];
      // Any request of ours, of any mode and account and a day either side: only a reference we never had is unknown to us.
      const known = new Set([...topups, ...(payouts ?? []), ...(attempts ?? []), ...(refunds ?? [])].map((r) => r.reference.toLowerCase()));
      const objectOf = (kind: ConnectorKind): ReconciledObject => (kind === 'collection' ? 'topup' : 'payout');

      // Per account, the current one first (even without requests: its listing), the others by name.
      const groups = new Map<string, typeof ours>([[current, []]]);
      for (const o of ours) {
        const account = o.row.provider_account ?? current;
        const group = groups.get(account);
        if (group === undefined) groups.set(account, [o]);
        else group.push(o);
      }
      const order = [current, ...[...groups.keys()].filter((a) => a !== current).sort()];
      const count = (list: typeof ours, object: ReconciledObject, wired: unknown) =>
        wired === undefined ? null : list.filter((o) => o.object === object).length;

      /** One account's part: its requests read with it (when this server can), its listing (the current account's). */
      const reconcileAccount = async (account: string): Promise<AccountReconciliation> => {
        const list = groups.get(account) ?? [];
        // An operator's account (disabled since, or another country's) reads its own requests too.
        const own = sameAccount(account, current, q.provider) ? connector : await sources.connectors.byAccount(account);
        const readHere = own !== undefined;
        // A request is only read with the settings that made it: another account's stays unverified here.
        const notHere: StatusResult = {
          status: 'UNKNOWN',
          reason: `made with the provider account ${account}; this server calls ${q.provider} in ${q.mode} mode with ${current}`,
        };
        const [verdicts, listed] = await Promise.all([
          mapLimited(list, STATUS_CONCURRENCY, async ({ object, row }) =>
            compareRequest(object, row, own ? await own.status(OBJECTS[object].kind, row.reference, knownOf(row)) : notHere),
          ),
          account === current ? listing(connector, q, kinds) : undefined,
        ]);
        const mismatches: Mismatch[] = [];
        const inFlight: InFlight[] = [];
        const unverified: Unverified[] = [];
        let agreed = 0;
        for (const v of verdicts) {
          if (v.type === 'agreed') agreed++;
          else if (v.type === 'mismatched') mismatches.push(...v.mismatches);
          else if (v.type === 'in_flight') inFlight.push(v.entry);
          else unverified.push(v.entry);
        }
        for (const r of [...(listed?.requests ?? [])].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
          if (!known.has(r.reference.toLowerCase())) mismatches.push(missingHere(objectOf(r.kind), r));
        }
        const listingOk = listed?.reason === undefined;
        return {
          providerAccount: account,
          connector: q.provider,
          readHere,
          result: mismatches.length > 0 ? 'mismatched' : unverified.length > 0 || !listingOk ? 'unverified' : 'agreed',
          checked: {
            topups: count(list, 'topup', topups) ?? 0,
            payouts: count(list, 'payout', payouts),
            attempts: count(list, 'attempt', attempts),
            refunds: count(list, 'refund', refunds),
          },
          agreed,
          listing:
            listed === undefined
              ? null
              : { source: listed.source, ok: listingOk, requests: listed.requests.length, ...(listingOk ? {} : { reason: listed.reason }) },
          mismatches,
          inFlight,
          unverified,
        };
      };
      // One account after the other: the provider's calls stay within STATUS_CONCURRENCY.
      const accounts: AccountReconciliation[] = [];
      for (const account of order) accounts.push(await reconcileAccount(account));

      const own = accounts[0] as AccountReconciliation;
      const mismatches = accounts.flatMap((a) => a.mismatches);
      const inFlight = accounts.flatMap((a) => a.inFlight);
      const unverified = accounts.flatMap((a) => a.unverified);
      const agreed = accounts.reduce((n, a) => n + a.agreed, 0);
      const listingOk = own.listing?.ok ?? true;
      const result = mismatches.length > 0 ? 'mismatched' : unverified.length > 0 || !listingOk ? 'unverified' : 'agreed';
      const report: ReconciliationReport = {
        object: 'reconciliation',
        provider: q.provider,
        mode: q.mode,
        from: q.from.toISOString(),
        to: q.to.toISOString(),
        generatedAt: deps.clock.now().toISOString(),
        result,
        ok: result === 'agreed',
        checked: { topups: ourTopups.length, payouts: ourPayouts?.length ?? null, attempts: ourAttempts?.length ?? null, refunds: ourRefunds?.length ?? null },
        agreed,
        listing: own.listing ?? { source: 'none', ok: true, requests: 0 },
        mismatches,
        inFlight,
        unverified,
        accounts,
      };
      if (deps.db !== undefined && deps.ids !== undefined) {
        await repo.insert(deps.db, {
          id: deps.ids('reconciliationRun'),
          provider: q.provider,
          mode: q.mode,
          period_from: q.from,
          period_to: q.to,
          result,
          agreed,
          mismatches: mismatches.length,
          in_flight: inFlight.length,
          unverified: unverified.length,
          report,
          generated_at: deps.clock.now(),
        });
      }
      return report;
    },

    /** The newest report of each provider and mode, as recorded. */
    async latest(): Promise<ReconciliationRunView[]> {
      if (deps.db === undefined) return [];
      return (await repo.latest(deps.db)).map((r) => ({
        id: r.id,
        provider: r.provider,
        mode: r.mode,
        from: r.period_from.toISOString(),
        to: r.period_to.toISOString(),
        result: r.result,
        agreed: r.agreed,
        mismatches: r.mismatches,
        inFlight: r.in_flight,
        unverified: r.unverified,
        generatedAt: r.generated_at.toISOString(),
      }));
    },
  };
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

export type ReconciliationService = ReturnType<typeof createReconciliationService>;
