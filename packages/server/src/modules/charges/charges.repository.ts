import type { Selectable } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

export type ChargeStatus = 'succeeded' | 'failed';

export interface ChargesTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  intent_id: string;
  user_id: string;
  status: ChargeStatus;
  amount_minor: bigint;
  currency: string;
  failure_code: string | null;
  failure_message: string | null;
  transfer_id: string | null;
  created_at: Date;
}

export interface RefundsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  intent_id: string;
  charge_id: string;
  amount_minor: bigint;
  currency: string;
  reason: string | null;
  transfer_id: string;
  created_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    charges: ChargesTable;
    refunds: RefundsTable;
  }
}

export type ChargeRow = Selectable<ChargesTable>;
export type RefundRow = Selectable<RefundsTable>;

export const chargesRepository = {
  async insertCharge(tx: Tx, row: ChargesTable): Promise<ChargeRow> {
    return tx.insertInto('charges').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** The charge that paid the intent, if any (there is at most one). */
  async findSucceeded(db: Executor, intentId: string): Promise<ChargeRow | undefined> {
    return db.selectFrom('charges').selectAll().where('intent_id', '=', intentId).where('status', '=', 'succeeded').executeTakeFirst();
  },

  async listCharges(db: Executor, intentId: string): Promise<ChargeRow[]> {
    return db.selectFrom('charges').selectAll().where('intent_id', '=', intentId).orderBy('id').execute();
  },

  async insertRefund(tx: Tx, row: RefundsTable): Promise<RefundRow> {
    return tx.insertInto('refunds').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async listRefunds(db: Executor, intentId: string): Promise<RefundRow[]> {
    return db.selectFrom('refunds').selectAll().where('intent_id', '=', intentId).orderBy('id').execute();
  },
};
