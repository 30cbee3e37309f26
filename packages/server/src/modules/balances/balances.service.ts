import { DAY } from '../../platform/clock.ts';
import { csvStream, textCell } from '../../platform/csv.ts';
import { type Executor, readExecutor, type Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { assertCurrency, type Currency, formatAmount, minorUnits } from '../../platform/money.ts';
import { feeReturned, reserveOf } from '../../platform/fees.ts';
import type { MerchantContext, Scope } from '../../platform/tenancy.ts';
import type { AccountRow, ClearingOf, LedgerService } from '../ledger/index.ts';
import { type BalanceTransactionRow, balancesRepository as repo, type ListFilter, type NewEntry } from './balances.repository.ts';
import type { BalanceTransaction, ExportBalanceTransactionsQuery, ListBalanceTransactionsQuery, MerchantBalance } from './balances.schema.ts';

/** Pending rows one settlement transfer moves at most. */
const SETTLE_BATCH = 500;
/** A bound later than every date: everything pending is due. */
const FOREVER = new Date(8.64e15);

export function balanceTransactionView(row: BalanceTransactionRow): BalanceTransaction {
  const currency = row.currency as Currency;
  return {
    id: row.id,
    object: 'balance_transaction',
    type: row.type,
    amount: formatAmount(row.amount_minor, currency),
    currency,
    balanceAfter: formatAmount(row.balance_after_minor, currency),
    source: row.source_id,
    description: row.description,
    status: row.status,
    availableOn: row.available_on.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A `from`/`to` bound: a UTC date (a `to` date includes its whole day) or an RFC 3339 time. */
export function periodBound(value: string | undefined, param: 'from' | 'to'): Date | undefined {
  if (value === undefined) return undefined;
  const invalid = () =>
    new ApiError('validation_error', `${param} must be a date (2026-11-23) or an RFC 3339 time (2026-11-23T10:00:00Z)`, {
      param,
      errors: [{ param, message: 'not a date or time' }],
    });
  if (DATE.test(value)) {
    const day = new Date(`${value}T00:00:00.000Z`);
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) throw invalid();
    return param === 'to' ? new Date(day.getTime() + DAY) : day;
  }
  if (!TIME.test(value)) throw invalid();
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw invalid();
  return at;
}

/**
 * The merchant's money (docs/spec/money-out.md): pending (charges within the settlement delay) and
 * available, in the ledger as two accounts per currency; the balance statement, one row per
 * movement with the total after it, written in the transaction of the movement; the settlement
 * worker's moves of what matured; the payouts' debits and credits of `available`.
 */
export function createBalancesService(deps: Deps, collaborators: { ledger: LedgerService }) {
  const { db, clock, ids, config } = deps;
  const { ledger } = collaborators;

  const entry = (e: Omit<NewEntry, 'id'>): NewEntry => ({ id: ids('balanceTransaction'), ...e });

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

  function filterOf(scope: Scope, q: { from?: string; to?: string; type?: ListFilter['type']; currency?: string }): ListFilter {
    const from = periodBound(q.from, 'from');
    const to = periodBound(q.to, 'to');
    if (from && to && from >= to)
      throw new ApiError('validation_error', '`from` must be before `to`', { param: 'from', errors: [{ param: 'from', message: 'after to' }] });
    return {
      merchantId: scope.merchantId,
      mode: scope.mode,
      type: q.type,
      currency: q.currency === undefined ? undefined : assertCurrency(q.currency),
      from,
      to,
    };
  }

  /** Locks the merchant's available account in a currency (created when missing) for the rest of the transaction. */
  async function lockAvailable(tx: Tx, scope: Scope, currency: Currency): Promise<AccountRow> {
    const account = await ledger.merchantBalance(tx, { ...scope, currency });
    const [locked] = await ledger.lockAccounts(tx, [account.id]);
    if (!locked) throw new Error(`no ledger account ${account.id}`);
    return locked;
  }

  async function settle(until: Date, groups: number, only?: Scope): Promise<number> {
    let settled = 0;
    for (const g of await repo.dueGroups(db, until, groups, only)) {
      settled += await db.transaction().execute(async (tx) => {
        const rows = await repo.claimDue(tx, g, until, SETTLE_BATCH);
        if (rows.length === 0) return 0;
        const scope = { merchantId: g.merchant_id, mode: g.mode };
        const currency = g.currency as Currency;
        const sum = rows.reduce((s, r) => s + r.amount_minor, 0n);
        let transferId: string | null = null;
        if (sum !== 0n) {
          const pending = await ledger.merchantPending(tx, { ...scope, currency });
          const available = await ledger.merchantBalance(tx, { ...scope, currency });
          const [from, to] = sum > 0n ? [pending, available] : [available, pending];
          transferId = (
            await ledger.transfer(tx, {
              ...scope,
              kind: 'settlement',
              reference: null,
              currency,
              from: from.id,
              to: to.id,
              amount: minorUnits(sum > 0n ? sum : -sum),
            })
          ).id;
        }
        await repo.markAvailable(
          tx,
          rows.map((r) => r.id),
          transferId,
          clock.now(),
        );
        return rows.length;
      });
    }
    return settled;
  }

  /**
   * Releases due reserve holds of up to `groups` merchants and currencies: what each still holds
   * goes from the reserve to available in one ledger transfer per group, a `reserve_release` row
   * per hold, and the holds are marked released in that transaction (so once, whatever crashes).
   */
  async function release(until: Date, groups: number): Promise<number> {
    let released = 0;
    for (const g of await repo.dueHoldGroups(db, until, groups)) {
      released += await db.transaction().execute(async (tx) => {
        const holds = await repo.claimDueHolds(tx, g, until, SETTLE_BATCH);
        if (holds.length === 0) return 0;
        const scope = { merchantId: g.merchant_id, mode: g.mode };
        const currency = g.currency as Currency;
        const sum = holds.reduce((s, h) => s + h.remaining_minor, 0n);
        let transferId: string | null = null;
        if (sum > 0n) {
          const reserve = await ledger.merchantReserve(tx, { ...scope, currency });
          const available = await ledger.merchantBalance(tx, { ...scope, currency });
          transferId = (
            await ledger.transfer(tx, {
              ...scope,
              kind: 'reserve_release',
              reference: null,
              currency,
              from: reserve.id,
              to: available.id,
              amount: minorUnits(sum),
            })
          ).id;
          const now = clock.now();
          const entries = holds
            .filter((h) => h.remaining_minor > 0n)
            .map((h) =>
              entry({
                type: 'reserve_release',
                amount: h.remaining_minor,
                sourceId: h.source_id,
                transferId,
                description: `Reserve released for payment ${h.source_id}`,
                status: 'available',
                availableOn: now,
              }),
            );
          await repo.record(tx, { ...scope, currency }, entries, now);
        }
        await repo.markReleased(
          tx,
          holds.map((h) => h.id),
          clock.now(),
          transferId,
        );
        return holds.length;
      });
    }
    return released;
  }

  /**
   * Every statement whose total is not the merchant's money in the ledger (available +
   * pending), as `ledger verify` differences (type `statement`).
   */
  async function verifyStatements(): Promise<{ type: 'statement'; id: string; detail: string }[]> {
    const key = (m: string, mode: string, c: string) => `${m} ${mode} ${c}`;
    const held = new Map((await ledger.merchantMoney()).map((r) => [key(r.merchant_id, r.mode, r.currency), r.total]));
    const stated = new Map((await repo.allTotals(db)).map((r) => [key(r.merchant_id, r.mode, r.currency), r.total_minor]));
    const out: { type: 'statement'; id: string; detail: string }[] = [];
    for (const k of new Set([...held.keys(), ...stated.keys()])) {
      const a = stated.get(k) ?? 0n;
      const b = held.get(k) ?? 0n;
      if (a !== b) out.push({ type: 'statement', id: k, detail: `the balance statement's total is ${a} but the ledger holds ${b}` });
    }
    // The rolling reserve: what the unreleased holds still hold is what the reserve account holds.
    const reserved = new Map((await ledger.reserveMoney()).map((r) => [key(r.merchant_id, r.mode, r.currency), r.total]));
    const holding = new Map((await repo.heldTotals(db)).map((r) => [key(r.merchant_id, r.mode, r.currency), r.total]));
    for (const k of new Set([...reserved.keys(), ...holding.keys()])) {
      const a = holding.get(k) ?? 0n;
      const b = reserved.get(k) ?? 0n;
      if (a !== b) out.push({ type: 'statement', id: k, detail: `the reserve's holds keep ${a} but the reserve account holds ${b}` });
    }
    return out;
  }

  return {
    /** When a charge made now becomes available: the merchant's delay, else the configured one. */
    availableOn(merchant: Pick<MerchantContext, 'settlementDelayDays'>, at: Date = clock.now()): Date {
      const days = merchant.settlementDelayDays ?? config.settlementDelayDays;
      return new Date(at.getTime() + days * DAY);
    },

    /**
     * The rolling reserve's share of a charge's net for this merchant (0 when it has none), and
     * when it is released: `days` after the charge.
     */
    reserveFor(merchant: Pick<MerchantContext, 'reserve'>, net: bigint, at: Date = clock.now()): { amount: bigint; releaseOn: Date } {
      const terms = merchant.reserve;
      if (!terms) return { amount: 0n, releaseOn: at };
      // A net below zero holds nothing back, as reserveOf does for zero.
      return { amount: reserveOf(minorUnits(net > 0n ? net : 0n), terms.bps), releaseOn: new Date(at.getTime() + terms.days * DAY) };
    },

    /**
     * A charge's rows (gross, then its fee, then the reserve's share), pending until `availableOn`,
     * in the charge's transaction; with a reserve, its hold until `reserve.releaseOn`.
     */
    async recordCharge(
      tx: Tx,
      scope: Scope,
      c: {
        intentId: string;
        currency: Currency;
        amount: bigint;
        fee: bigint;
        transferId: string;
        availableOn: Date;
        reserve?: { amount: bigint; releaseOn: Date };
      },
    ) {
      const common = { sourceId: c.intentId, transferId: c.transferId, status: 'pending' as const, availableOn: c.availableOn };
      const entries = [entry({ ...common, type: 'charge', amount: c.amount, description: `Payment ${c.intentId}` })];
      if (c.fee !== 0n) entries.push(entry({ ...common, type: 'fee', amount: -c.fee, description: `Fee for payment ${c.intentId}` }));
      const reserve = c.reserve;
      if (reserve && reserve.amount > 0n) {
        const until = reserve.releaseOn.toISOString().slice(0, 10);
        entries.push(entry({ ...common, type: 'reserve', amount: -reserve.amount, description: `Reserve for payment ${c.intentId}, held until ${until}` }));
        await repo.insertHold(tx, {
          id: ids('reserveHold'),
          merchant_id: scope.merchantId,
          mode: scope.mode,
          currency: c.currency,
          source_id: c.intentId,
          amount_minor: reserve.amount,
          remaining_minor: reserve.amount,
          release_on: reserve.releaseOn,
          created_at: clock.now(),
        });
      }
      await repo.record(tx, { ...scope, currency: c.currency }, entries, clock.now());
    },

    /**
     * How much of a refund's `debit` (what leaves the merchant) the reserve covers, when it comes
     * out of available: the part available cannot cover (all of it when available is at or below
     * zero), as far as the unreleased holds go, taken from the holds released soonest first. The
     * holds are lowered here; the caller moves `drawn` out of the reserve account in its transfer.
     * With holds, available and the reserve are locked together, in the ledger's one order, as
     * the release locks them: a refund and a release never wait on each other in a circle.
     */
    async drawReserve(tx: Tx, scope: Scope, currency: Currency, debit: bigint): Promise<{ drawn: bigint; account: AccountRow | undefined }> {
      const group = { merchant_id: scope.merchantId, mode: scope.mode, currency };
      if (!(await repo.hasOpenHolds(tx, group))) return { drawn: 0n, account: undefined };
      const available = await ledger.merchantBalance(tx, { ...scope, currency });
      const reserve = await ledger.merchantReserve(tx, { ...scope, currency });
      const locked = await ledger.lockAccounts(tx, [available.id, reserve.id]);
      const balance = locked.find((a) => a.id === available.id)?.balance ?? 0n;
      let short = debit - (balance > 0n ? balance : 0n);
      let drawn = 0n;
      for (const hold of short > 0n ? await repo.lockOpenHolds(tx, group) : []) {
        if (short <= 0n) break;
        const take = hold.remaining_minor < short ? hold.remaining_minor : short;
        await repo.setRemaining(tx, hold.id, hold.remaining_minor - take);
        drawn += take;
        short -= take;
      }
      return { drawn, account: drawn > 0n ? reserve : undefined };
    },

    /**
     * A refund of a payment not yet settled (its money comes out of pending) takes back the same
     * share of the payment's own hold as it refunds of the payment, counted on the running total
     * as fees are (the whole hold once the whole payment is refunded): pending then keeps what
     * the charge left there, and the hold does not outlive the money it was held for.
     */
    async drawOwnHold(
      tx: Tx,
      scope: Scope,
      p: { intentId: string; currency: Currency; amount: bigint; refundedBefore: bigint; refund: bigint },
    ): Promise<{ drawn: bigint; account: AccountRow | undefined }> {
      const hold = await repo.lockHoldOf(tx, p.intentId);
      if (!hold) return { drawn: 0n, account: undefined };
      const share = feeReturned({
        amount: minorUnits(p.amount),
        fee: minorUnits(hold.amount_minor),
        refundedBefore: minorUnits(p.refundedBefore),
        refund: minorUnits(p.refund),
      });
      const drawn = share < hold.remaining_minor ? share : hold.remaining_minor;
      if (drawn <= 0n) return { drawn: 0n, account: undefined };
      await repo.setRemaining(tx, hold.id, hold.remaining_minor - drawn);
      return { drawn, account: await ledger.merchantReserve(tx, { ...scope, currency: p.currency }) };
    },

    refundSource,
    recordRefund,

    /**
     * A payout's money leaves `available` (into the payout's transit account), in the payout's
     * transaction: refused with 409 `balance_insufficient` when `available` holds less. The
     * available account's row lock makes concurrent payouts queue: none overdraws it.
     */
    async debitForPayout(tx: Tx, scope: Scope, p: { payoutId: string; currency: Currency; amount: bigint; description: string }) {
      const available = await lockAvailable(tx, scope, p.currency);
      if (available.balance < p.amount) {
        const held = formatAmount(available.balance, p.currency);
        throw new ApiError(
          'balance_insufficient',
          `The available balance is ${held} ${p.currency}, less than the ${formatAmount(p.amount, p.currency)} ${p.currency} to pay out`,
          {
            param: 'amount',
            extra: { available: held, currency: p.currency },
          },
        );
      }
      const transit = await ledger.payoutTransit(tx, { ...scope, currency: p.currency });
      const transfer = await ledger.transfer(
        tx,
        { ...scope, kind: 'payout', reference: p.payoutId, currency: p.currency, from: available.id, to: transit.id, amount: minorUnits(p.amount) },
        [available, transit],
      );
      await repo.record(
        tx,
        { ...scope, currency: p.currency },
        [
          entry({
            type: 'payout',
            amount: -p.amount,
            sourceId: p.payoutId,
            transferId: transfer.id,
            description: p.description,
            status: 'available',
            availableOn: clock.now(),
          }),
        ],
        clock.now(),
      );
      return transfer;
    },

    /** The provider paid: the money leaves the merchant for the clearing account of the payout's provider account. */
    async payoutPaid(tx: Tx, scope: Scope, p: { payoutId: string; currency: Currency; amount: bigint } & ClearingOf) {
      const transit = await ledger.payoutTransit(tx, { ...scope, currency: p.currency });
      const clearing = await ledger.providerClearing(tx, {
        mode: scope.mode,
        providerAccount: p.providerAccount,
        connector: p.connector,
        currency: p.currency,
      });
      return ledger.transfer(tx, {
        ...scope,
        kind: 'payout_paid',
        reference: p.payoutId,
        currency: p.currency,
        from: transit.id,
        to: clearing.id,
        amount: minorUnits(p.amount),
      });
    },

    /** The payout failed: its money comes back to `available` (a `payout_reversal` row). */
    async payoutFailed(tx: Tx, scope: Scope, p: { payoutId: string; currency: Currency; amount: bigint; reason: string }) {
      const transit = await ledger.payoutTransit(tx, { ...scope, currency: p.currency });
      const available = await ledger.merchantBalance(tx, { ...scope, currency: p.currency });
      const transfer = await ledger.transfer(tx, {
        ...scope,
        kind: 'payout_reversal',
        reference: p.payoutId,
        currency: p.currency,
        from: transit.id,
        to: available.id,
        amount: minorUnits(p.amount),
      });
      await repo.record(
        tx,
        { ...scope, currency: p.currency },
        [
          entry({
            type: 'payout_reversal',
            amount: p.amount,
            sourceId: p.payoutId,
            transferId: transfer.id,
            description: `Payout ${p.payoutId} failed: ${p.reason}`,
            status: 'available',
            availableOn: clock.now(),
          }),
        ],
        clock.now(),
      );
      return transfer;
    },

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

    /** What is available now in each currency (minor units), for the payout scheduler. */
    async availableMinor(scope: Scope, executor: Executor = db): Promise<{ currency: Currency; amount: bigint }[]> {
      return (await ledger.merchantAccounts(scope.merchantId, scope.mode, 'merchant_balance', executor)).map((a) => ({
        currency: a.currency,
        amount: a.balance,
      }));
    },

    /**
     * One settlement round: for up to `groups` merchants and currencies with matured pending rows,
     * moves their sum from pending to available in one ledger transfer and marks them available.
     * Returns how many rows it settled.
     */
    settleDue: (groups = 20) => settle(clock.now(), groups),

    /** One round of reserve releases (the settlement worker runs it after `settleDue`); how many holds it released. */
    releaseDue: (groups = 20) => release(clock.now(), groups),

    /** Settles all of a merchant's pending money now (the test-mode helper). */
    async settleNow(scope: Scope): Promise<number> {
      let total = 0;
      for (;;) {
        const n = await settle(FOREVER, 20, scope);
        total += n;
        if (n === 0) return total;
      }
    },

    /** GET /balance: available and pending per currency, in the key's mode. */
    async balance(scope: Scope): Promise<MerchantBalance> {
      const [available, pending, reserved, releases] = await Promise.all([
        ledger.merchantBalances(scope.merchantId, scope.mode, db, 'merchant_balance'),
        ledger.merchantBalances(scope.merchantId, scope.mode, db, 'merchant_pending'),
        ledger.merchantBalances(scope.merchantId, scope.mode, db, 'merchant_reserve'),
        repo.nextReleases(db, scope.merchantId, scope.mode),
      ]);
      const currencies = [...new Set([...available, ...pending].map((b) => b.currency))].sort();
      const zero = (c: string) => formatAmount(0n, c as Currency);
      return {
        object: 'balance',
        livemode: scope.mode === 'live',
        available,
        pending,
        reserved,
        balances: currencies.map((currency) => {
          const next = releases.find((r) => r.currency === currency)?.release_on;
          return {
            currency,
            available: available.find((b) => b.currency === currency)?.amount ?? zero(currency),
            pending: pending.find((b) => b.currency === currency)?.amount ?? zero(currency),
            reserved: reserved.find((b) => b.currency === currency)?.amount ?? zero(currency),
            nextReleaseOn: next ? new Date(next).toISOString() : null,
          };
        }),
      };
    },

    /** GET /balance/transactions: the statement, newest first. */
    async list(scope: Scope, q: ListBalanceTransactionsQuery) {
      const limit = q.limit ?? 20;
      const rows = await repo.list(readExecutor(db), filterOf(scope, q), { limit, startingAfter: q.startingAfter });
      if (!rows) throw new ApiError('not_found', `No balance transaction ${q.startingAfter}`, { param: 'startingAfter' });
      return { object: 'list' as const, data: rows.slice(0, limit).map(balanceTransactionView), hasMore: rows.length > limit };
    },

    /**
     * GET /balance/transactions.csv: the statement of a period, oldest first, as RFC 4180 CSV
     * (header row, CRLF, amounts as decimal strings, ISO times), read and written in batches so a
     * long period streams. Checks the query before the first byte.
     */
    exportCsv(scope: Scope, q: ExportBalanceTransactionsQuery): NodeJS.ReadableStream {
      const filter = filterOf(scope, q);
      const columns = ['id', 'created_at', 'type', 'source', 'description', 'currency', 'amount', 'balance_after', 'status', 'available_on'];
      return csvStream(columns, async (write) => {
        let after = 0n;
        for (;;) {
          const batch = await repo.batchAfter(readExecutor(db), filter, after, 1000);
          for (const row of batch) {
            const v = balanceTransactionView(row);
            await write([v.id, v.createdAt, v.type, v.source ?? '', textCell(v.description), v.currency, v.amount, v.balanceAfter, v.status, v.availableOn]);
          }
          if (batch.length < 1000) return;
          after = (batch[batch.length - 1] as BalanceTransactionRow).seq;
        }
      });
    },

    verifyStatements,

    /** `ledger verify`: the books, then each merchant's balance statement against them (the CLI and the operator console). */
    async verifyBooks() {
      const books = await ledger.verify();
      const statements = await verifyStatements();
      return { ...books, ok: books.ok && statements.length === 0, differences: [...books.differences, ...statements] };
    },

    /** verifyStatements' differences of one merchant and mode. */
    async differences(scope: Scope) {
      const prefix = `${scope.merchantId} ${scope.mode} `;
      return (await verifyStatements()).filter((d) => d.id.startsWith(prefix));
    },
  };
}

export type BalancesService = ReturnType<typeof createBalancesService>;
