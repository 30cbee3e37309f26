import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import type { KeyMode, Scope } from '../../platform/tenancy.ts';
import type { MetadataMap } from '../intents/index.ts';

export interface PaymentLinksTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  amount_minor: bigint;
  currency: string;
  description: string;
  /** A `json` column: read as the parsed object, written as JSON text (key order kept). */
  metadata: ColumnType<MetadataMap, string, string>;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface PaymentLinkIntentsTable {
  link_id: string;
  intent_id: string;
}

declare module '../../platform/database.ts' {
  interface Database {
    payment_links: PaymentLinksTable;
    payment_link_intents: PaymentLinkIntentsTable;
  }
}

export type PaymentLinkRow = Selectable<PaymentLinksTable>;

function scoped(db: Executor, scope: Scope) {
  return db.selectFrom('payment_links').selectAll().where('merchant_id', '=', scope.merchantId).where('mode', '=', scope.mode);
}

export const paymentLinksRepository = {
  async insert(db: Executor, row: Insertable<PaymentLinksTable>): Promise<PaymentLinkRow> {
    return db.insertInto('payment_links').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async find(db: Executor, scope: Scope, id: string): Promise<PaymentLinkRow | undefined> {
    return scoped(db, scope).where('id', '=', id).executeTakeFirst();
  },

  /** By id alone: a visit knows no key. */
  async findById(db: Executor, id: string): Promise<PaymentLinkRow | undefined> {
    return db.selectFrom('payment_links').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Newest first; one more row than asked, so the caller knows whether there are more. */
  async list(db: Executor, scope: Scope, q: { limit: number; startingAfter?: string }): Promise<PaymentLinkRow[]> {
    let query = scoped(db, scope);
    if (q.startingAfter !== undefined) query = query.where('id', '<', q.startingAfter);
    return query
      .orderBy('id', 'desc')
      .limit(q.limit + 1)
      .execute();
  },

  async setActive(db: Executor, scope: Scope, id: string, active: boolean, now: Date): Promise<PaymentLinkRow | undefined> {
    return db
      .updateTable('payment_links')
      .set({ active, updated_at: now })
      .where('id', '=', id)
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .returningAll()
      .executeTakeFirst();
  },

  async recordIntent(db: Executor, linkId: string, intentId: string): Promise<void> {
    await db.insertInto('payment_link_intents').values({ link_id: linkId, intent_id: intentId }).execute();
  },

  /** The ids of the intents a link created, newest first (the primary key's order); one more than asked. */
  async intentIds(db: Executor, linkId: string, q: { limit: number; startingAfter?: string }): Promise<string[]> {
    let query = db.selectFrom('payment_link_intents').select('intent_id').where('link_id', '=', linkId);
    if (q.startingAfter !== undefined) query = query.where('intent_id', '<', q.startingAfter);
    const rows = await query
      .orderBy('intent_id', 'desc')
      .limit(q.limit + 1)
      .execute();
    return rows.map((r) => r.intent_id);
  },
};
