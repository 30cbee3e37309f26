import { sql, type Insertable, type Selectable } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import type { AttemptStatus } from './charges.attempts.repository.ts';

export interface MobileMoneyRefundsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  intent_id: string;
  attempt_id: string;
  provider: string;
  /** How Caisse reaches the provider (today the provider's own API: the same name). */
  connector: string;
  /** The provider account (`pac_…`) the request was made with. */
  provider_account: string;
  phone_number: string;
  amount_minor: bigint;
  currency: string;
  fee_returned_minor: bigint;
  reason: string | null;
  late: boolean;
  reference: string;
  status: AttemptStatus;
  failure_reason: string | null;
  provider_transaction_id: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

declare module '../../platform/database.ts' {
  interface Database {
    mobile_money_refunds: MobileMoneyRefundsTable;
  }
}

export type MobileRefundRow = Selectable<MobileMoneyRefundsTable>;

/** Refunds of direct mobile-money payments (migration 0044): provider requests, polled like payouts. */
export const mobileRefundsRepository = {
  /** The row of a provider request (its id is the request's), for the lifecycle. */
  async byId(db: Executor, id: string): Promise<MobileRefundRow | undefined> {
    return db.selectFrom('mobile_money_refunds').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The row of a provider request by our reference, for the lifecycle. */
  async byReference(db: Executor, reference: string): Promise<MobileRefundRow | undefined> {
    return db.selectFrom('mobile_money_refunds').selectAll().where('reference', '=', reference).executeTakeFirst();
  },

  async insert(tx: Tx, row: Insertable<MobileMoneyRefundsTable>): Promise<MobileRefundRow> {
    return tx.insertInto('mobile_money_refunds').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** The refund, locked until the transaction ends: every change of its status goes through this. */
  async lock(tx: Tx, id: string): Promise<MobileRefundRow | undefined> {
    return tx.selectFrom('mobile_money_refunds').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  },

  async update(db: Executor, id: string, patch: Partial<Omit<MobileRefundRow, 'id'>>): Promise<MobileRefundRow> {
    return db.updateTable('mobile_money_refunds').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },

  /** What the merchant's refunds of this intent still waiting for the provider hold (late payments are not the merchant's). */
  async pendingAmount(db: Executor, intentId: string): Promise<bigint> {
    const row = await db
      .selectFrom('mobile_money_refunds')
      .select(sql<string>`coalesce(sum(amount_minor), 0)`.as('held'))
      .where('intent_id', '=', intentId)
      .where('status', '=', 'PENDING')
      .where('late', '=', false)
      .executeTakeFirstOrThrow();
    return BigInt(row.held);
  },

  /** Every refund through a provider created in [from, to), for reconciliation. */
  async listForProvider(db: Executor, provider: string, from: Date, to: Date): Promise<MobileRefundRow[]> {
    return (
      db
        .selectFrom('mobile_money_refunds')
        .selectAll()
        // The connector reconciled: a method reached through an aggregator is that aggregator's.
        .where('connector', '=', provider)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .orderBy('id')
        .execute()
    );
  },

  /** An intent's refunds to mobile money, oldest first. */
  async listForIntent(db: Executor, intentId: string): Promise<MobileRefundRow[]> {
    return db.selectFrom('mobile_money_refunds').selectAll().where('intent_id', '=', intentId).orderBy('created_at').orderBy('id').execute();
  },
};
