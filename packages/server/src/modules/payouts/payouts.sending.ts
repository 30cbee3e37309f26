import type { Logger } from 'pino';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { type Currency, formatAmount } from '../../platform/money.ts';
import type { Scope } from '../../platform/tenancy.ts';
import { LATEST_API_VERSION } from '../../platform/versioning.ts';
import type { BalancesService } from '../balances/index.ts';
import { type ConnectorSource, type Decision, newReference, lookupNumber } from '../connectors/index.ts';
import { announceEvents, type EventsService } from '../events/index.ts';
import type { RoutesService } from '../routes/index.ts';
import { createProviderLifecycle, requestStore, paymentRequestOf } from '../lifecycle/index.ts';
import { type PayoutRow, payoutsRepository as repo } from './payouts.repository.ts';
import type { Payout } from './payouts.schema.ts';

export function payoutView(row: PayoutRow): Payout {
  const currency = row.currency as Currency;
  return {
    id: row.id,
    object: 'payout',
    amount: formatAmount(row.amount_minor, currency),
    currency,
    destination: { provider: row.provider, phoneNumber: row.phone_number },
    connector: row.connector,
    providerAccount: row.provider_account,
    description: row.description,
    method: row.method,
    status: row.status,
    failureReason: row.failure_reason,
    livemode: row.mode === 'live',
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

interface NewPayout {
  amount: bigint;
  currency: Currency;
  provider: string;
  phoneNumber: string;
  description: string | null;
  method: 'manual' | 'scheduled';
}

/**
 * Sending a payout, exactly once: the payout, its reference and the debit of `available` commit
 * first; the provider is called after, outside any transaction; PAID or FAILED (the money back) is
 * decided once, under the payout's row lock, whether a callback, a duplicate callback or the
 * poller learnt it. A retry sends the same reference, which the provider keys it by.
 */
export function createPayoutSending(
  deps: Deps,
  collaborators: {
    balances: Pick<BalancesService, 'debitForPayout' | 'payoutPaid' | 'payoutFailed'>;
    connectors: ConnectorSource;
    /** Which connector a payout to a method goes through (its payout route); absent: the method's own. */
    routes?: Pick<RoutesService, 'choose'> & Partial<Pick<RoutesService, 'read'>>;
    events: Pick<EventsService, 'record'>;
    /** The merchants' pinned API versions (the version their events are written in). */
    pinnedVersions: (ids: readonly string[], tx: Tx) => Promise<Map<string, string>>;
    logger?: Logger;
  },
  /** The account a new payout goes through (payouts.destination.ts). */
  accountOf: (scope: Scope, provider: string, executor: Executor) => Promise<string>,
) {
  const { db, clock, ids, random } = deps;
  const { balances, connectors, events, pinnedVersions } = collaborators;
  const log = collaborators.logger;

  /**
   * Before the transaction that writes a payout: the route's accounts read again, where stale,
   * what they enable per operator (pawaPay's active configuration), which `createInTx` then asks.
   */
  async function prepare(mode: Scope['mode'], provider: string, phoneNumber: string): Promise<void> {
    const country = lookupNumber(phoneNumber)?.country;
    if (country !== undefined) await collaborators.routes?.read?.({ mode, country, kind: 'payout', method: provider });
  }

  /** Writes a PENDING payout and takes its money out of `available`, in the caller's transaction. */
  async function createInTx(tx: Tx, scope: Scope, p: NewPayout): Promise<PayoutRow> {
    // Before any write: a refusal leaves the caller's transaction as it was. The first route of
    // the destination's method, in the destination number's country (docs/spec/routes.md).
    const country = lookupNumber(p.phoneNumber)?.country;
    const routed =
      collaborators.routes && country !== undefined
        ? await collaborators.routes.choose(
            { mode: scope.mode, country, kind: 'payout', method: p.provider },
            { currency: p.currency, amount: p.amount, health: false },
            'destination.provider',
            tx,
          )
        : undefined;
    const via = routed?.connector ?? p.provider;
    const account = routed?.account ?? (await accountOf(scope, p.provider, tx));
    const id = ids('payout');
    await balances.debitForPayout(tx, scope, {
      payoutId: id,
      currency: p.currency,
      amount: p.amount,
      description: p.description ?? `Payout ${id} to ${p.provider} ${p.phoneNumber}`,
    });
    const now = clock.now();
    // Above its mode and currency's threshold, the payout waits for an operator (decision 0041).
    const threshold = await repo.threshold(tx, scope.mode, p.currency);
    const held = threshold !== undefined && p.amount > threshold.amount_minor;
    const fresh = {
      id,
      merchant_id: scope.merchantId,
      mode: scope.mode,
      amount_minor: p.amount,
      currency: p.currency,
      provider: p.provider,
      connector: via,
      provider_account: account,
      phone_number: p.phoneNumber,
      description: p.description,
      method: p.method,
      reference: newReference(random),
      status: held ? ('REVIEW' as const) : ('PENDING' as const),
      review_threshold_set_by: held ? threshold.set_by : null,
      failure_reason: null,
      provider_transaction_id: null,
      created_at: now,
      updated_at: now,
      completed_at: null,
    };
    // The request first (the payout points to it); a held payout's is not sent until approved.
    await lifecycle.open(tx, fresh, { held });
    return repo.insert(tx, fresh);
  }

  /** Moves a PENDING payout to its outcome, once: the ledger, the state and the event commit together. */
  async function settle(id: string, outcome: Decision): Promise<PayoutRow | undefined> {
    const settled = await db.transaction().execute(async (tx) => {
      const row = await repo.lock(tx, id);
      if (!row || row.status !== 'PENDING') return row;
      const now = clock.now();
      const scope = { merchantId: row.merchant_id, mode: row.mode };
      const currency = row.currency as Currency;
      let updated: PayoutRow;
      if (outcome.status === 'FAILED') {
        const reason = outcome.reason.slice(0, 200);
        await balances.payoutFailed(tx, scope, { payoutId: row.id, currency, amount: row.amount_minor, reason });
        updated = await repo.update(tx, id, { status: 'FAILED', failure_reason: reason, completed_at: now, updated_at: now });
      } else {
        // The provider paid: the money is gone whatever it says the amount was; an amount that
        // differs from ours is logged and left to reconciliation, never paid out again.
        const mismatch = outcome.amount !== row.amount_minor || outcome.currency !== row.currency;
        if (mismatch) log?.error({ payout: id, provider: row.provider }, 'mobile-money payout paid for another amount or currency: see caisse reconcile');
        await balances.payoutPaid(tx, scope, {
          payoutId: row.id,
          providerAccount: row.provider_account,
          connector: row.connector,
          currency,
          amount: row.amount_minor,
        });
        updated = await repo.update(tx, id, {
          status: 'PAID',
          failure_reason: mismatch ? 'AMOUNT_MISMATCH' : null,
          provider_transaction_id: outcome.providerTransactionId ?? null,
          completed_at: now,
          updated_at: now,
        });
      }
      await recordEvent(tx, updated);
      return updated;
    });
    announceEvents(deps);
    return settled;
  }

  /** The destination number's country, for the request (none for a number the numbering table does not know). */
  const countryOf = (phoneNumber: string): { country?: string } => {
    const country = lookupNumber(phoneNumber)?.country;
    return country === undefined ? {} : { country };
  };

  // Money out is never given up while the provider may still pay it: no timeout.
  const lifecycle = createProviderLifecycle<PayoutRow>({
    what: 'payout',
    request_kind: 'payout',
    kind: 'disbursement',
    requests: requestStore(db),
    connectors,
    clock,
    logger: log,
    store: { load: (id) => repo.byId(db, id), loadByReference: (reference) => repo.byReference(db, reference) },
    request: (row) => ({
      ...paymentRequestOf(row, { payerMessage: row.description ?? `Payout ${row.id}`, payeeNote: row.id }),
      // The destination's method and country: an aggregator needs both to reach the operator.
      method: row.provider,
      ...countryOf(row.phone_number),
    }),
    settle: async (id, decision) => {
      await settle(id, decision);
    },
  });

  /** A held payout waits for its review; any other new one goes to the provider now. */
  const startIfPending = (row: PayoutRow): void => {
    if (row.status === 'PENDING') lifecycle.start(row);
  };

  /** The event of a payout's state change, in its transaction, in the merchant's pinned version. */
  async function recordEvent(tx: Tx, row: PayoutRow): Promise<void> {
    const versions = await pinnedVersions([row.merchant_id], tx);
    await events.record(tx, {
      merchantId: row.merchant_id,
      mode: row.mode,
      type: row.status === 'PAID' ? 'payout.paid' : 'payout.failed',
      apiVersion: versions.get(row.merchant_id) ?? LATEST_API_VERSION,
      intentId: null,
      data: { payout: payoutView(row) },
    });
  }

  return {
    prepare,
    createInTx,
    startIfPending,
    recordEvent,

    /** The payouts' provider lifecycle: callbacks, the poller's rounds, shutdown's drain. */
    lifecycle,
    pollDue: (limit?: number) => lifecycle.pollDue(limit),

    /** Waits for the provider calls requests started (shutdown). */
    drain: () => lifecycle.drain(),

    /** Every payout of a provider created in [from, to), for reconciliation. */
    listForProvider: (provider: string, from: Date, to: Date) => repo.listForProvider(db, provider, from, to),
  };
}
