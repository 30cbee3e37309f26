import type { Executor, Tx } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

export type ManualReturnStatus = 'TO_RETURN' | 'RETURNED';

/**
 * Late payments whose connector cannot send money back (migration 0081): the payer's money is held
 * in `refund_transit` until an operator returns it by hand and says so. The charges module's own.
 */
export interface ManualReturnsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  intent_id: string;
  attempt_id: string;
  connector: string;
  provider_account: string;
  phone_number: string;
  amount_minor: bigint;
  currency: string;
  status: ManualReturnStatus;
  note: string | null;
  returned_by: string | null;
  created_at: Date;
  returned_at: Date | null;
}

declare module '../../platform/database.ts' {
  interface Database {
    manual_returns: ManualReturnsTable;
  }
}

export type ManualReturnRow = ManualReturnsTable;

export const manualReturnsRepository = {
  async insert(tx: Tx, row: ManualReturnRow): Promise<void> {
    await tx.insertInto('manual_returns').values(row).execute();
  },

  async lock(tx: Tx, id: string): Promise<ManualReturnRow | undefined> {
    return tx.selectFrom('manual_returns').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  },

  async update(tx: Tx, id: string, patch: Partial<Omit<ManualReturnRow, 'id'>>): Promise<ManualReturnRow> {
    return tx.updateTable('manual_returns').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },

  /** The open ones first (oldest first), then the latest returned. */
  async list(db: Executor, q: { status?: ManualReturnStatus; limit: number }): Promise<ManualReturnRow[]> {
    let query = db.selectFrom('manual_returns').selectAll();
    if (q.status !== undefined) query = query.where('status', '=', q.status);
    return query.orderBy('status', 'desc').orderBy('created_at').orderBy('id').limit(q.limit).execute();
  },

  async countOpen(db: Executor): Promise<{ mode: KeyMode; n: number }[]> {
    const rows = await db
      .selectFrom('manual_returns')
      .select(['mode', (eb) => eb.fn.countAll<string>().as('n')])
      .where('status', '=', 'TO_RETURN')
      .groupBy('mode')
      .execute();
    return rows.map((r) => ({ mode: r.mode, n: Number(r.n) }));
  },
};
