import type { Generated, Insertable, Selectable } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import { providerRequestStatements } from '../../platform/polling.ts';
import type { KeyMode, Scope } from '../../platform/tenancy.ts';

export type PayoutStatus = 'PENDING' | 'PAID' | 'FAILED';
export type PayoutInterval = 'manual' | 'daily' | 'weekly';

export interface PayoutsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  amount_minor: bigint;
  currency: string;
  provider: string;
  phone_number: string;
  description: string | null;
  method: 'manual' | 'scheduled';
  reference: string;
  status: PayoutStatus;
  failure_reason: string | null;
  provider_transaction_id: string | null;
  submitted_at: Date | null;
  next_poll_at: Date;
  polls: Generated<number>;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
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
  }
}

export type PayoutRow = Selectable<PayoutsTable>;
export type PayoutScheduleRow = Selectable<PayoutSchedulesTable>;

export const payoutsRepository = {
  ...providerRequestStatements<PayoutRow>('payouts'),

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

  /** Every payout of a provider created in [from, to) (reconciliation). */
  async listForProvider(db: Executor, provider: string, from: Date, to: Date): Promise<PayoutRow[]> {
    return db
      .selectFrom('payouts')
      .selectAll()
      .where('provider', '=', provider)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .orderBy('id')
      .execute();
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
