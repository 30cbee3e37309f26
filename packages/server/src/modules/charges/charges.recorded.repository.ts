import { type Insertable, type Selectable, sql } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

export const RECORDED_REFUND_METHODS = ['cash', 'bank_transfer', 'mobile_money', 'other'] as const;
export type RecordedRefundMethod = (typeof RECORDED_REFUND_METHODS)[number];

export interface RecordedRefundsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  intent_id: string;
  amount_minor: bigint;
  currency: string;
  method: RecordedRefundMethod;
  reference: string | null;
  reason: string | null;
  created_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    recorded_refunds: RecordedRefundsTable;
  }
}

export type RecordedRefundRow = Selectable<RecordedRefundsTable>;

/** Refunds made outside Caisse and recorded by the merchant (migration 0077): no money moves. */
export const recordedRefundsRepository = {
  async insert(tx: Tx, row: Insertable<RecordedRefundsTable>): Promise<RecordedRefundRow> {
    return tx.insertInto('recorded_refunds').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** What was recorded as refunded outside Caisse, by intent, of these intents (those with any). */
  async amountsOf(db: Executor, intentIds: readonly string[]): Promise<{ intent_id: string; amount: string }[]> {
    if (intentIds.length === 0) return [];
    return db
      .selectFrom('recorded_refunds')
      .select(['intent_id', sql<string>`sum(amount_minor)`.as('amount')])
      .where('intent_id', 'in', intentIds)
      .groupBy('intent_id')
      .execute();
  },

  /** An intent's recorded refunds, oldest first. */
  async listForIntent(db: Executor, intentId: string): Promise<RecordedRefundRow[]> {
    return db.selectFrom('recorded_refunds').selectAll().where('intent_id', '=', intentId).orderBy('created_at').orderBy('id').execute();
  },
};
