import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import type { KeyMode, Scope } from '../../platform/tenancy.ts';

/** REVIEW: held above its currency's threshold until an operator approves (PENDING) or rejects (FAILED) it. */
export type PayoutStatus = 'REVIEW' | 'PENDING' | 'PAID' | 'FAILED';
/** The failure reason of a payout an operator rejected in review: it never reached the provider. */
export const REVIEW_REJECTED = 'REVIEW_REJECTED';
export type PayoutInterval = 'manual' | 'daily' | 'weekly';

export interface PayoutsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  amount_minor: bigint;
  currency: string;
  provider: string;
  /** How Caisse reaches the provider (today the provider's own API: the same name). */
  connector: string;
  /** The provider account (`pac_…`) the request was made with. */
  provider_account: string;
  phone_number: string;
  description: string | null;
  method: 'manual' | 'scheduled';
  reference: string;
  status: PayoutStatus;
  failure_reason: string | null;
  provider_transaction_id: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  /** The operator who set the threshold the payout went over: the one who may not review it. */
  review_threshold_set_by: ColumnType<string | null, string | null | undefined, string | null>;
  reviewed_by: ColumnType<string | null, string | null | undefined, string | null>;
  reviewed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Per mode and currency, the amount above which a payout waits for review (decision 0041). */
export interface PayoutReviewThresholdsTable {
  mode: KeyMode;
  currency: string;
  amount_minor: bigint;
  set_by: string;
  set_by_email: string;
  set_at: Date;
}

export interface PayoutSchedulesTable {
  merchant_id: string;
  mode: KeyMode;
  interval: PayoutInterval;
  weekly_anchor: number | null;
  provider: string | null;
  phone_number: string | null;
  /** Minor units per currency, as strings: {"XAF": "1000"}. */
  minimum: Record<string, string>;
  next_run_at: Date | null;
  updated_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    payouts: PayoutsTable;
    payout_schedules: PayoutSchedulesTable;
    payout_review_thresholds: PayoutReviewThresholdsTable;
  }
}

export type PayoutRow = Selectable<PayoutsTable>;
export type PayoutScheduleRow = Selectable<PayoutSchedulesTable>;
export type PayoutThresholdRow = Selectable<PayoutReviewThresholdsTable>;

export const payoutsRepository = {
  /** The row of a provider request (its id is the request's), for the lifecycle. */
  async byId(db: Executor, id: string): Promise<PayoutRow | undefined> {
    return db.selectFrom('payouts').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The row of a provider request by our reference, for the lifecycle. */
  async byReference(db: Executor, reference: string): Promise<PayoutRow | undefined> {
    return db.selectFrom('payouts').selectAll().where('reference', '=', reference).executeTakeFirst();
  },

  async insert(db: Executor, row: Insertable<PayoutsTable>): Promise<PayoutRow> {
    return db.insertInto('payouts').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async find(db: Executor, scope: Scope, id: string): Promise<PayoutRow | undefined> {
    return db
      .selectFrom('payouts')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .executeTakeFirst();
  },

  /** The payout, locked until the transaction ends: every change of its status goes through this. */
  async lock(tx: Tx, id: string): Promise<PayoutRow | undefined> {
    return tx.selectFrom('payouts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  },

  async list(db: Executor, scope: Scope, q: { limit: number; startingAfter?: string; status?: PayoutStatus }): Promise<PayoutRow[]> {
    let query = db.selectFrom('payouts').selectAll().where('merchant_id', '=', scope.merchantId).where('mode', '=', scope.mode);
    if (q.status !== undefined) query = query.where('status', '=', q.status);
    if (q.startingAfter !== undefined) query = query.where('id', '<', q.startingAfter);
    return query
      .orderBy('id', 'desc')
      .limit(q.limit + 1)
      .execute();
  },

  async update(db: Executor, id: string, patch: Partial<Omit<PayoutRow, 'id'>>): Promise<PayoutRow> {
    return db.updateTable('payouts').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },

  /**
   * Every payout of a provider created in [from, to) (reconciliation), but those the provider was
   * never asked for: held in review, or rejected there.
   */
  async listForProvider(db: Executor, provider: string, from: Date, to: Date): Promise<(PayoutRow & { status: Exclude<PayoutStatus, 'REVIEW'> })[]> {
    const rows = await db
      .selectFrom('payouts')
      .selectAll()
      .where('provider', '=', provider)
      .where('status', '!=', 'REVIEW')
      .where((eb) => eb.or([eb('failure_reason', 'is', null), eb('failure_reason', '!=', REVIEW_REJECTED)]))
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .orderBy('id')
      .execute();
    return rows as (PayoutRow & { status: Exclude<PayoutStatus, 'REVIEW'> })[];
  },

  /** Every payout waiting for review, oldest first, of every merchant (the operator console). */
  async listInReview(db: Executor, limit: number): Promise<PayoutRow[]> {
    return db.selectFrom('payouts').selectAll().where('status', '=', 'REVIEW').orderBy('created_at').orderBy('id').limit(limit).execute();
  },

  async threshold(db: Executor, mode: KeyMode, currency: string): Promise<PayoutThresholdRow | undefined> {
    return db.selectFrom('payout_review_thresholds').selectAll().where('mode', '=', mode).where('currency', '=', currency).executeTakeFirst();
  },

  async thresholds(db: Executor): Promise<PayoutThresholdRow[]> {
    return db.selectFrom('payout_review_thresholds').selectAll().orderBy('mode').orderBy('currency').execute();
  },

  async saveThreshold(db: Executor, row: PayoutThresholdRow): Promise<void> {
    await db
      .insertInto('payout_review_thresholds')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['mode', 'currency'])
          .doUpdateSet({ amount_minor: row.amount_minor, set_by: row.set_by, set_by_email: row.set_by_email, set_at: row.set_at }),
      )
      .execute();
  },

  async deleteThreshold(db: Executor, mode: KeyMode, currency: string): Promise<void> {
    await db.deleteFrom('payout_review_thresholds').where('mode', '=', mode).where('currency', '=', currency).execute();
  },

  async schedule(db: Executor, scope: Scope): Promise<PayoutScheduleRow | undefined> {
    return db.selectFrom('payout_schedules').selectAll().where('merchant_id', '=', scope.merchantId).where('mode', '=', scope.mode).executeTakeFirst();
  },

  async saveSchedule(db: Executor, row: PayoutScheduleRow): Promise<PayoutScheduleRow> {
    const values = { ...row, minimum: JSON.stringify(row.minimum) as unknown as Record<string, string> };
    return db
      .insertInto('payout_schedules')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['merchant_id', 'mode']).doUpdateSet({
          interval: values.interval,
          weekly_anchor: values.weekly_anchor,
          provider: values.provider,
          phone_number: values.phone_number,
          minimum: values.minimum,
          next_run_at: values.next_run_at,
          updated_at: values.updated_at,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** Schedules due by `now`, locked (SKIP LOCKED: schedulers of several processes share them). */
  async lockDueSchedules(tx: Tx, now: Date, limit: number): Promise<PayoutScheduleRow[]> {
    return tx.selectFrom('payout_schedules').selectAll().where('next_run_at', '<=', now).orderBy('next_run_at').limit(limit).forUpdate().skipLocked().execute();
  },

  async setNextRun(db: Executor, scope: Scope, at: Date | null): Promise<void> {
    await db.updateTable('payout_schedules').set({ next_run_at: at }).where('merchant_id', '=', scope.merchantId).where('mode', '=', scope.mode).execute();
  },
};
