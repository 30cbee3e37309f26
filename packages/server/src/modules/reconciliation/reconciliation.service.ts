import { type Clock, DAY } from '../../platform/clock.ts';
import type { Executor } from '../../platform/db.ts';
import type { IdFactory } from '../../platform/ids.ts';
import { ApiError } from '../../platform/errors.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import {
  type Connector,
  type ConnectorKind,
  describeProvider,
  isProviderName,
  type ListedRequest,
  type ModeConnectors,
  providerNames,
  sameAccount,
  type StatusResult,
} from '../connectors/index.ts';
import { compareRequest, knownOf, missingHere, OBJECTS } from './reconciliation.compare.ts';
import { reconciliationRepository as repo } from './reconciliation.repository.ts';
import type {
  AccountReconciliation,
  AttemptSource,
  InFlight,
  Mismatch,
  OurRequest,
  PayoutSource,
  ReconcileQuery,
  ReconciledObject,
  ReconciliationReport,
  ReconciliationRunView,
  RefundSource,
  RequestSource,
  TopupSource,
  Unverified,
} from './reconciliation.types.ts';

/**
 * Reconciliation (docs/spec/money-out.md): every top-up, payout, payment attempt and refund to mobile money of a period, as our ledger's modules
 * have it, against what the provider says about the same reference. The service reads no table:
 * the modules that own the requests hand them over through their sources (reconciliation.types.ts), and the provider
 * is asked through its connector (docs/decisions/0021-reconciliation.md).
 */

/** Provider calls at once: enough to get through a day's requests quickly, few enough to stay under a provider's rate limit. */
const STATUS_CONCURRENCY = 8;
/**
 * A request the provider lists in the period may be ours from just outside it (the provider
 * records it when it arrives: after our commit, and after a resubmission by the poller up to 15
 * minutes later). Ours are looked up this much wider before one is called unknown to us.
 */
const MATCH_MARGIN_MS = DAY;

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

export type ReconciliationService = ReturnType<typeof createReconciliationService>;
