import { type Generated, type Selectable, sql } from 'kysely';
import { DEFERRED, type Executor, type Tx } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

export type BalanceTransactionType =
  | 'charge'
  | 'refund'
  | 'fee'
  | 'payout'
  | 'payout_reversal'
  | 'refund_reversal'
  | 'late_payment'
  | 'adjustment'
  | 'reserve'
  | 'reserve_release';
export const BALANCE_TRANSACTION_TYPES: readonly BalanceTransactionType[] = [
  'charge',
  'refund',
  'fee',
  'payout',
  'payout_reversal',
  'refund_reversal',
  'late_payment',
  'adjustment',
  'reserve',
  'reserve_release',
];
export type BalanceStatus = 'pending' | 'available';

export interface BalanceTransactionsTable {
  id: string;
  seq: Generated<bigint>;
  merchant_id: string;
  mode: KeyMode;
  currency: string;
  type: BalanceTransactionType;
  amount_minor: bigint;
  balance_after_minor: bigint;
  source_id: string | null;
  transfer_id: string | null;
  description: string;
  status: BalanceStatus;
  available_on: Date;
  settlement_transfer_id: string | null;
  created_at: Date;
}

export interface BalanceTotalsTable {
  merchant_id: string;
  mode: KeyMode;
  currency: string;
  total_minor: bigint;
}

/** One charge's share held in the rolling reserve, until `release_on`. */
export interface ReserveHoldsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  currency: string;
  source_id: string;
  amount_minor: bigint;
  remaining_minor: bigint;
  release_on: Date;
  released_at: Date | null;
  release_transfer_id: string | null;
  created_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    balance_transactions: BalanceTransactionsTable;
    balance_totals: BalanceTotalsTable;
    reserve_holds: ReserveHoldsTable;
  }
}

export type ReserveHoldRow = Selectable<ReserveHoldsTable>;
type Group = { merchant_id: string; mode: KeyMode; currency: string };

export type BalanceTransactionRow = Selectable<BalanceTransactionsTable>;

/** One row to write; its balance after is computed from the statement's running total. */
export interface NewEntry {
  id: string;
  type: BalanceTransactionType;
  amount: bigint;
  sourceId: string | null;
  transferId: string | null;
  description: string;
  status: BalanceStatus;
  availableOn: Date;
}

export interface ListFilter {
  merchantId: string;
  mode: KeyMode;
  type?: BalanceTransactionType;
  currency?: string;
  from?: Date;
  to?: Date;
}

function filtered(db: Executor, f: ListFilter) {
  let q = db.selectFrom('balance_transactions').selectAll().where('merchant_id', '=', f.merchantId).where('mode', '=', f.mode);
  if (f.type !== undefined) q = q.where('type', '=', f.type);
  if (f.currency !== undefined) q = q.where('currency', '=', f.currency);
  if (f.from !== undefined) q = q.where('created_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('created_at', '<', f.to);
  return q;
}

/** A group's unreleased holds. */
function openHolds(db: Executor, g: Group) {
  return db
    .selectFrom('reserve_holds')
    .where('merchant_id', '=', g.merchant_id)
    .where('mode', '=', g.mode)
    .where('currency', '=', g.currency)
    .where('released_at', 'is', null);
}

/** A group's unreleased holds, soonest release first, locked; those another transaction holds are skipped. */
function unreleased(tx: Tx, g: Group) {
  return openHolds(tx, g).selectAll().orderBy('release_on').orderBy('id').forUpdate().skipLocked();
}

export const balancesRepository = {
  /**
   * Writes rows of one merchant, mode and currency in their order, in one statement: the running
   * total moves by their sum first (its row lock, held to the commit, orders every statement's
   * rows), and each row gets the total after it.
   */
  async record(tx: Tx, scope: { merchantId: string; mode: KeyMode; currency: string }, entries: readonly NewEntry[], now: Date): Promise<void> {
    if (entries.length === 0) return;
    const sum = entries.reduce((s, e) => s + e.amount, 0n);
    // What the rows after each one add: its balance after is the new total less that.
    let later = sum;
    const values = entries.map((e, i) => {
      later -= e.amount;
      return sql`(${i}, ${e.id}, ${e.type}, ${e.amount.toString()}::bigint, ${later.toString()}::bigint, ${e.sourceId}, ${e.transferId}, ${e.description}, ${e.status}, ${e.availableOn}::timestamptz)`;
    });
    // Nobody reads its answer: DEFERRED, it is sent with the transaction's next statement (often
    // the COMMIT), which also holds the running total's lock for one round trip less.
    await sql`${sql.raw(DEFERRED)}
      with total as (
        insert into balance_totals (merchant_id, mode, currency, total_minor)
        values (${scope.merchantId}, ${scope.mode}, ${scope.currency}, ${sum.toString()}::bigint)
        on conflict (merchant_id, mode, currency) do update set total_minor = balance_totals.total_minor + excluded.total_minor
        returning total_minor
      )
      insert into balance_transactions
        (id, merchant_id, mode, currency, type, amount_minor, balance_after_minor, source_id, transfer_id, description, status, available_on, created_at)
      select v.id, ${scope.merchantId}, ${scope.mode}, ${scope.currency}, v.type, v.amount, total.total_minor - v.later,
             v.source_id, v.transfer_id, v.description, v.status, v.available_on, ${now}::timestamptz
      from total, (values ${sql.join(values)}) as v(ord, id, type, amount, later, source_id, transfer_id, description, status, available_on)
      order by v.ord`.execute(tx);
  },

  /** The rows of a source (a charge's intent), locked: a refund and the settlement of that charge queue here. */
  async lockSource(tx: Tx, sourceId: string, type: BalanceTransactionType): Promise<BalanceTransactionRow | undefined> {
    return tx.selectFrom('balance_transactions').selectAll().where('source_id', '=', sourceId).where('type', '=', type).forUpdate().executeTakeFirst();
  },

  /** Merchants, modes and currencies with pending rows due by `now` (of one merchant and mode when given). */
  async dueGroups(
    db: Executor,
    now: Date,
    limit: number,
    only?: { merchantId: string; mode: KeyMode },
  ): Promise<{ merchant_id: string; mode: KeyMode; currency: string }[]> {
    const scoped = only ? sql`and merchant_id = ${only.merchantId} and mode = ${only.mode}` : sql``;
    const result = await sql<{ merchant_id: string; mode: KeyMode; currency: string }>`
      select distinct merchant_id, mode, currency from balance_transactions
      where status = 'pending' and available_on <= ${now} ${scoped} limit ${limit}`.execute(db);
    return result.rows;
  },

  /** Up to `limit` due pending rows of one group, locked (rows a refund holds are left for the next round). */
  async claimDue(
    tx: Tx,
    g: { merchant_id: string; mode: KeyMode; currency: string },
    now: Date,
    limit: number,
  ): Promise<{ id: string; amount_minor: bigint }[]> {
    return tx
      .selectFrom('balance_transactions')
      .select(['id', 'amount_minor'])
      .where('merchant_id', '=', g.merchant_id)
      .where('mode', '=', g.mode)
      .where('currency', '=', g.currency)
      .where(sql<boolean>`status = 'pending'`)
      .where('available_on', '<=', now)
      .orderBy('seq')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
  },

  /** Rows settled at `now`: one settled before its day (the test helper) says when it really became available. */
  async markAvailable(tx: Tx, ids: string[], settlementTransferId: string | null, now: Date): Promise<void> {
    if (ids.length === 0) return;
    await tx
      .updateTable('balance_transactions')
      .set({ status: 'available', settlement_transfer_id: settlementTransferId, available_on: sql<Date>`least(available_on, ${now})` })
      .where('id', 'in', ids)
      .execute();
  },

  /** A page of the statement, newest first, after the row `startingAfter` (an id) when given. */
  async list(db: Executor, f: ListFilter, page: { limit: number; startingAfter?: string }): Promise<BalanceTransactionRow[] | undefined> {
    let q = filtered(db, f);
    if (page.startingAfter !== undefined) {
      const cursor = await db
        .selectFrom('balance_transactions')
        .select('seq')
        .where('id', '=', page.startingAfter)
        .where('merchant_id', '=', f.merchantId)
        .where('mode', '=', f.mode)
        .executeTakeFirst();
      if (!cursor) return undefined;
      q = q.where('seq', '<', cursor.seq);
    }
    return q
      .orderBy('seq', 'desc')
      .limit(page.limit + 1)
      .execute();
  },

  /** The statement of a period, oldest first, in batches after `afterSeq` (the CSV export). */
  async batchAfter(db: Executor, f: ListFilter, afterSeq: bigint, limit: number): Promise<BalanceTransactionRow[]> {
    return filtered(db, f).where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
  },

  // --- the rolling reserve ----------------------------------------------------------------------

  /** Nobody reads its answer: DEFERRED, it rides with the charge's next statement, as `record` does. */
  async insertHold(tx: Tx, row: Omit<ReserveHoldsTable, 'released_at' | 'release_transfer_id'>): Promise<void> {
    await sql`${sql.raw(DEFERRED)}insert into reserve_holds (id, merchant_id, mode, currency, source_id, amount_minor, remaining_minor, release_on, created_at)
      values (${row.id}, ${row.merchant_id}, ${row.mode}, ${row.currency}, ${row.source_id}, ${row.amount_minor.toString()}::bigint,
              ${row.remaining_minor.toString()}::bigint, ${row.release_on}::timestamptz, ${row.created_at}::timestamptz)`.execute(tx);
  },

  /** Merchants, modes and currencies with holds due by `now`. */
  async dueHoldGroups(db: Executor, now: Date, limit: number): Promise<Group[]> {
    const result = await sql<Group>`
      select distinct merchant_id, mode, currency from reserve_holds
      where released_at is null and release_on <= ${now} limit ${limit}`.execute(db);
    return result.rows;
  },

  /** Up to `limit` due holds of one group, locked; holds another transaction has are left for the next round. */
  async claimDueHolds(tx: Tx, g: Group, now: Date, limit: number): Promise<ReserveHoldRow[]> {
    return unreleased(tx, g).where('release_on', '<=', now).limit(limit).execute();
  },

  async markReleased(tx: Tx, ids: string[], at: Date, transferId: string | null): Promise<void> {
    if (ids.length === 0) return;
    await tx.updateTable('reserve_holds').set({ released_at: at, release_transfer_id: transferId, remaining_minor: 0n }).where('id', 'in', ids).execute();
  },

  /**
   * The group's unreleased holds with money left, soonest release first, locked; holds a release
   * has locked are skipped (it is releasing them), so a refund never waits on the settlement
   * worker, which locks the holds before the accounts.
   */
  async lockOpenHolds(tx: Tx, g: Group): Promise<ReserveHoldRow[]> {
    return unreleased(tx, g).where('remaining_minor', '>', 0n).execute();
  },

  /** Whether the group has unreleased holds that still hold money (no lock: a refund's first look). */
  async hasOpenHolds(db: Executor, g: Group): Promise<boolean> {
    return (await openHolds(db, g).select('id').where('remaining_minor', '>', 0n).limit(1).executeTakeFirst()) !== undefined;
  },

  /** A payment's unreleased hold, locked (after a release that had it: none). */
  async lockHoldOf(tx: Tx, sourceId: string): Promise<ReserveHoldRow | undefined> {
    return tx.selectFrom('reserve_holds').selectAll().where('source_id', '=', sourceId).where('released_at', 'is', null).forUpdate().executeTakeFirst();
  },

  async setRemaining(tx: Tx, id: string, remaining: bigint): Promise<void> {
    await tx.updateTable('reserve_holds').set({ remaining_minor: remaining }).where('id', '=', id).execute();
  },

  /** The next release date per currency of a merchant's holds that still hold money. */
  async nextReleases(db: Executor, merchantId: string, mode: KeyMode): Promise<{ currency: string; release_on: Date }[]> {
    return db
      .selectFrom('reserve_holds')
      .select(['currency', (eb) => eb.fn.min('release_on').as('release_on')])
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('released_at', 'is', null)
      .where('remaining_minor', '>', 0n)
      .groupBy('currency')
      .execute() as Promise<{ currency: string; release_on: Date }[]>;
  },

  /** What the unreleased holds still keep, per merchant, mode and currency. */
  async heldTotals(db: Executor): Promise<{ merchant_id: string; mode: KeyMode; currency: string; total: bigint }[]> {
    const result = await sql<{ merchant_id: string; mode: KeyMode; currency: string; total: bigint }>`
      select merchant_id, mode, currency, sum(remaining_minor)::bigint as total from reserve_holds
      where released_at is null group by merchant_id, mode, currency`.execute(db);
    return result.rows;
  },

  async allTotals(db: Executor): Promise<BalanceTotalsTable[]> {
    return db.selectFrom('balance_totals').selectAll().execute();
  },
};
