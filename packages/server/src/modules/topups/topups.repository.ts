import { type Insertable, type Selectable, sql } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

export type TopupStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface TopupsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  user_id: string;
  provider: string;
  /** How Caisse reaches the provider (today the provider's own API: the same name). */
  connector: string;
  /** The provider account (`pac_…`) the request was made with. */
  provider_account: string;
  phone_number: string;
  amount_minor: bigint;
  currency: string;
  reference: string;
  status: TopupStatus;
  failure_reason: string | null;
  provider_transaction_id: string | null;
  transfer_id: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

declare module '../../platform/database.ts' {
  interface Database {
    topups: TopupsTable;
  }
}

export type TopupRow = Selectable<TopupsTable>;

export const topupsRepository = {
  /** The row of a provider request (its id is the request's), for the lifecycle. */
  async byId(db: Executor, id: string): Promise<TopupRow | undefined> {
    return db.selectFrom('topups').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The row of a provider request by our reference, for the lifecycle. */
  async byReference(db: Executor, reference: string): Promise<TopupRow | undefined> {
    return db.selectFrom('topups').selectAll().where('reference', '=', reference).executeTakeFirst();
  },

  async insert(db: Executor, row: Insertable<TopupsTable>): Promise<TopupRow> {
    return db.insertInto('topups').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** The customer's top-up started through this merchant's key (another merchant's: as unknown). */
  async find(db: Executor, scope: { merchantId: string; mode: KeyMode }, userId: string, id: string): Promise<TopupRow | undefined> {
    return db
      .selectFrom('topups')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .executeTakeFirst();
  },

  /** The top-up, locked until the transaction ends: every change of its status goes through this. */
  async lock(tx: Tx, id: string): Promise<TopupRow | undefined> {
    return tx.selectFrom('topups').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  },

  /** Serialises one customer's new top-ups until the transaction ends (an advisory lock). */
  async lockCustomer(tx: Tx, userId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtext(${`topups:${userId}`}))`.execute(tx);
  },

  /** A customer's top-ups in a currency not failed: still waiting, and created since each date (the limits). */
  async sums(db: Executor, userId: string, currency: string, since: { day: Date; month: Date }) {
    const row = await db
      .selectFrom('topups')
      .select([
        sql<string>`coalesce(sum(amount_minor) filter (where status = 'PENDING'), 0)`.as('pending'),
        sql<string>`coalesce(sum(amount_minor) filter (where created_at >= ${since.day}), 0)`.as('day'),
        sql<string>`coalesce(sum(amount_minor) filter (where created_at >= ${since.month}), 0)`.as('month'),
      ])
      .where('user_id', '=', userId)
      .where('currency', '=', currency)
      .where(sql<boolean>`status in ('PENDING', 'SUCCEEDED')`)
      .executeTakeFirstOrThrow();
    return { pending: BigInt(row.pending), day: BigInt(row.day), month: BigInt(row.month) };
  },

  async countPending(db: Executor, userId: string): Promise<number> {
    const row = await db
      .selectFrom('topups')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .where(sql<boolean>`status = 'PENDING'`)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The customer's top-ups started through this merchant's key, newest first. */
  async listForUser(db: Executor, scope: { merchantId: string; mode: KeyMode }, userId: string, q: { limit: number; startingAfter?: string }) {
    let query = db.selectFrom('topups').selectAll().where('user_id', '=', userId).where('merchant_id', '=', scope.merchantId).where('mode', '=', scope.mode);
    if (q.startingAfter !== undefined) query = query.where('id', '<', q.startingAfter);
    return query
      .orderBy('id', 'desc')
      .limit(q.limit + 1)
      .execute();
  },

  async update(db: Executor, id: string, patch: Partial<Omit<TopupRow, 'id'>>): Promise<TopupRow> {
    return db.updateTable('topups').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },

  /** A customer's top-ups started through one merchant's key, newest first. */
  async listForCustomerAt(db: Executor, merchantId: string, mode: KeyMode, userId: string, limit: number): Promise<TopupRow[]> {
    return db
      .selectFrom('topups')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  /** Every top-up of a provider created in [from, to) (reconciliation). */
  async listForProvider(db: Executor, provider: string, from: Date, to: Date): Promise<TopupRow[]> {
    return db
      .selectFrom('topups')
      .selectAll()
      .where('provider', '=', provider)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .orderBy('id')
      .execute();
  },
};
