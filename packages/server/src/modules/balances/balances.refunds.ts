import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { type Currency, formatAmount, minorUnits } from '../../platform/money.ts';
import type { Scope } from '../../platform/tenancy.ts';
import type { AccountRow, ClearingOf, LedgerService } from '../ledger/index.ts';
import { balancesRepository as repo, type NewEntry } from './balances.repository.ts';
import { statementEntry } from './balances.statement.ts';

/**
 * Refunds on the merchant's balance: where a refund's money comes from, its rows, a refund to
 * mobile money held in `refund_transit` until the provider decides, and late payments returned.
 */
export function createBalanceRefunds(
  deps: Pick<Deps, 'clock' | 'ids'>,
  ledger: Pick<LedgerService, 'merchantPending' | 'merchantBalance' | 'refundTransit' | 'platformRevenue' | 'providerClearing' | 'transfer'>,
) {
  const { clock } = deps;
  const entry = statementEntry(deps.ids);

  /**
   * Where a refund of this payment takes the merchant's money from: still pending (the charge is
   * not settled: the refund settles with it, on the same day) or available (possibly going
   * below zero). Locks the charge's statement row, so its settlement waits for the refund.
   */
  async function refundSource(
    tx: Tx,
    scope: Scope,
    intentId: string,
    currency: Currency,
  ): Promise<{ account: AccountRow; status: 'pending' | 'available'; availableOn: Date }> {
    const charge = await repo.lockSource(tx, intentId, 'charge');
    if (charge?.status === 'pending')
      return { account: await ledger.merchantPending(tx, { ...scope, currency }), status: 'pending', availableOn: charge.available_on };
    return { account: await ledger.merchantBalance(tx, { ...scope, currency }), status: 'available', availableOn: clock.now() };
  }

  /** A refund's rows: what went back to the customer, and the part of the fee that came back. */
  async function recordRefund(
    tx: Tx,
    scope: Scope,
    r: {
      refundId: string;
      intentId: string;
      currency: Currency;
      amount: bigint;
      feeReturned: bigint;
      transferId: string;
      status: 'pending' | 'available';
      availableOn: Date;
      reserveDrawn?: bigint;
    },
  ) {
    const common = { sourceId: r.refundId, transferId: r.transferId, status: r.status, availableOn: r.availableOn };
    const entries: NewEntry[] = [];
    if (r.reserveDrawn !== undefined && r.reserveDrawn > 0n) {
      entries.push(entry({ ...common, type: 'reserve_release', amount: r.reserveDrawn, description: `Reserve drawn for refund ${r.refundId}` }));
    }
    entries.push(entry({ ...common, type: 'refund', amount: -r.amount, description: `Refund ${r.refundId} of payment ${r.intentId}` }));
    if (r.feeReturned !== 0n) entries.push(entry({ ...common, type: 'fee', amount: r.feeReturned, description: `Fee returned for refund ${r.refundId}` }));
    await repo.record(tx, { ...scope, currency: r.currency }, entries, clock.now());
  }

  return {
    refundSource,
    recordRefund,

    /**
     * A refund to mobile money asked for: its money leaves the merchant's balance (pending while
     * the payment is, else available) into `refund_transit` until the provider decides, with the
     * part of the fee it returns; the statement shows the refund now, as for a wallet payment.
     */
    async holdForRefund(tx: Tx, scope: Scope, r: { refundId: string; intentId: string; currency: Currency; amount: bigint; feeReturned: bigint }) {
      const source = await refundSource(tx, scope, r.intentId, r.currency);
      const transit = await ledger.refundTransit(tx, { ...scope, currency: r.currency });
      const postings = [
        { accountId: transit.id, amount: r.amount },
        { accountId: source.account.id, amount: -(r.amount - r.feeReturned) },
      ].filter((p) => p.amount !== 0n);
      if (r.feeReturned > 0n) postings.push({ accountId: (await ledger.platformRevenue(tx, { ...scope, currency: r.currency })).id, amount: -r.feeReturned });
      const transfer = await ledger.transfer(tx, { ...scope, kind: 'refund_hold', reference: r.refundId, currency: r.currency, postings });
      await recordRefund(tx, scope, { ...r, transferId: transfer.id, status: source.status, availableOn: source.availableOn });
    },

    /** The provider returned a refund (or a late payment): its money leaves for the clearing account of the refund's provider account. */
    async refundPaid(tx: Tx, scope: Scope, r: { refundId: string; currency: Currency; amount: bigint } & ClearingOf) {
      const transit = await ledger.refundTransit(tx, { ...scope, currency: r.currency });
      const clearing = await ledger.providerClearing(tx, {
        mode: scope.mode,
        providerAccount: r.providerAccount,
        connector: r.connector,
        currency: r.currency,
      });
      return ledger.transfer(tx, {
        ...scope,
        kind: 'refund_paid',
        reference: r.refundId,
        currency: r.currency,
        from: transit.id,
        to: clearing.id,
        amount: minorUnits(r.amount),
      });
    },

    /**
     * A refund to mobile money failed: its money (and the fee it returned) comes back where the
     * refund's statement row now is (pending, or available once settled), as `refund_reversal`.
     */
    async refundFailed(
      tx: Tx,
      scope: Scope,
      r: { refundId: string; intentId: string; currency: Currency; amount: bigint; feeReturned: bigint; reason: string },
    ) {
      const held = await repo.lockSource(tx, r.refundId, 'refund');
      const pending = held?.status === 'pending';
      const account = pending
        ? await ledger.merchantPending(tx, { ...scope, currency: r.currency })
        : await ledger.merchantBalance(tx, { ...scope, currency: r.currency });
      const transit = await ledger.refundTransit(tx, { ...scope, currency: r.currency });
      const postings = [
        { accountId: transit.id, amount: -r.amount },
        { accountId: account.id, amount: r.amount - r.feeReturned },
      ].filter((p) => p.amount !== 0n);
      if (r.feeReturned > 0n) postings.push({ accountId: (await ledger.platformRevenue(tx, { ...scope, currency: r.currency })).id, amount: r.feeReturned });
      const transfer = await ledger.transfer(tx, { ...scope, kind: 'refund_reversal', reference: r.refundId, currency: r.currency, postings });
      const common = {
        sourceId: r.refundId,
        transferId: transfer.id,
        status: pending ? ('pending' as const) : ('available' as const),
        availableOn: pending && held ? held.available_on : clock.now(),
      };
      const entries = [
        entry({ ...common, type: 'refund_reversal', amount: r.amount, description: `Refund ${r.refundId} of payment ${r.intentId} failed: ${r.reason}` }),
      ];
      if (r.feeReturned !== 0n) entries.push(entry({ ...common, type: 'fee', amount: -r.feeReturned, description: `Fee of failed refund ${r.refundId}` }));
      await repo.record(tx, { ...scope, currency: r.currency }, entries, clock.now());
    },

    /**
     * A payment that arrived when its intent could no longer take it: the money came in at the
     * provider and is the payer's, so it goes from the provider's clearing account to
     * `refund_transit` until its return is decided, never through the merchant's balance; the
     * statement shows it (amount 0: the merchant's money does not change).
     */
    async holdLatePayment(tx: Tx, scope: Scope, p: { refundId: string; attemptId: string; intentId: string; currency: Currency; amount: bigint } & ClearingOf) {
      // The attempt's account: the money came in there.
      const clearing = await ledger.providerClearing(tx, {
        mode: scope.mode,
        providerAccount: p.providerAccount,
        connector: p.connector,
        currency: p.currency,
      });
      const transit = await ledger.refundTransit(tx, { ...scope, currency: p.currency });
      const transfer = await ledger.transfer(tx, {
        ...scope,
        kind: 'late_payment',
        reference: p.attemptId,
        currency: p.currency,
        from: clearing.id,
        to: transit.id,
        amount: minorUnits(p.amount),
      });
      await repo.record(
        tx,
        { ...scope, currency: p.currency },
        [
          entry({
            type: 'late_payment',
            amount: 0n,
            sourceId: p.refundId,
            transferId: transfer.id,
            description: `Late payment ${p.attemptId} of ${formatAmount(p.amount, p.currency)} ${p.currency} for ${p.intentId}, returned to the payer (refund ${p.refundId})`,
            status: 'available',
            availableOn: clock.now(),
          }),
        ],
        clock.now(),
      );
    },
  };
}
