import type { ColumnType, Insertable, Selectable } from 'kysely';
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
  /** The fee the platform took (0 for a declined attempt). */
  fee_minor: ColumnType<bigint, bigint | undefined, bigint>;
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
  /** The part of the payment's fee this refund returned to the merchant's balance. */
  fee_returned_minor: ColumnType<bigint, bigint | undefined, bigint>;
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
  async insertCharge(tx: Tx, row: Insertable<ChargesTable>): Promise<ChargeRow> {
    return tx.insertInto('charges').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** The charge that paid the intent, if any (there is at most one). */
  async findSucceeded(db: Executor, intentId: string): Promise<ChargeRow | undefined> {
    return db.selectFrom('charges').selectAll().where('intent_id', '=', intentId).where('status', '=', 'succeeded').executeTakeFirst();
  },

  async listCharges(db: Executor, intentId: string): Promise<ChargeRow[]> {
    return db.selectFrom('charges').selectAll().where('intent_id', '=', intentId).orderBy('id').execute();
  },

  /** Succeeded charges of these customers to one merchant and mode, per customer and currency. */
  async statsByCustomer(db: Executor, merchantId: string, mode: KeyMode, userIds: readonly string[]) {
    if (userIds.length === 0) return [];
    return db
      .selectFrom('charges')
      .select((eb) => [
        'user_id',
        'currency',
        eb.fn.min('created_at').as('first_at'),
        eb.fn.max('created_at').as('last_at'),
        eb.fn.countAll<string>().as('count'),
        eb.fn.sum<string>('amount_minor').as('volume'),
      ])
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('status', '=', 'succeeded')
      .where('user_id', 'in', [...userIds])
      .groupBy(['user_id', 'currency'])
      .execute();
  },

  /** A customer's charge attempts at one merchant and mode, newest first. */
  async listForCustomer(db: Executor, merchantId: string, mode: KeyMode, userId: string, limit: number): Promise<ChargeRow[]> {
    return db
      .selectFrom('charges')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  /** Who last tried to pay the intent (its latest charge, succeeded or not). */
  async lastPayer(db: Executor, intentId: string): Promise<string | undefined> {
    const row = await db.selectFrom('charges').select('user_id').where('intent_id', '=', intentId).orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row?.user_id;
  },

  /** The declined charges of one customer on one intent (issue 20: attempts count per intent and customer). */
  async countDeclined(tx: Tx, intentId: string, userId: string): Promise<number> {
    const row = await tx
      .selectFrom('charges')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('intent_id', '=', intentId)
      .where('user_id', '=', userId)
      .where('status', '=', 'failed')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async insertRefund(tx: Tx, row: Insertable<RefundsTable>): Promise<RefundRow> {
    return tx.insertInto('refunds').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async listRefunds(db: Executor, intentId: string): Promise<RefundRow[]> {
    return db.selectFrom('refunds').selectAll().where('intent_id', '=', intentId).orderBy('id').execute();
  },
};
