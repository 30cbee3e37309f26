import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../platform/db.ts';

export interface EventsTable {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  type: string;
  intent_id: string | null;
  api_version: string;
  payload: string;
  created_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    events: EventsTable;
  }
}

export type EventRow = Selectable<EventsTable>;

export const eventsRepository = {
  async insert(db: Executor, row: EventRow) {
    await db.insertInto('events').values(row).execute();
  },
  /**
   * Inserts the event and, in the same statement, a pending delivery due at once for every enabled
   * endpoint of its merchant and mode that wants its type; `deliveryIds` holds an id for each
   * endpoint there may be (they are taken in endpoint order). Returns how many deliveries it made.
   */
  async insertWithDeliveries(db: Executor, row: EventRow, deliveryIds: readonly string[]): Promise<number> {
    const result = await sql<{ n: number }>`
      with event as (
        insert into events (id, merchant_id, mode, type, intent_id, api_version, payload, created_at)
        values (${row.id}, ${row.merchant_id}, ${row.mode}, ${row.type}, ${row.intent_id}, ${row.api_version}, ${row.payload}, ${row.created_at})
      ), deliveries as (
        insert into webhook_deliveries (id, event_id, endpoint_id, merchant_id, mode, status, next_attempt_at, created_at)
        select (${deliveryIds}::text[])[e.n], ${row.id}, e.id, ${row.merchant_id}, ${row.mode}, 'pending', ${row.created_at}, ${row.created_at}
        from (
          select id, row_number() over (order by id) as n from webhook_endpoints
          where merchant_id = ${row.merchant_id} and mode = ${row.mode} and enabled
            and (cardinality(enabled_events) = 0 or ${row.type} = any(enabled_events))
        ) e
        returning id
      )
      select count(*)::int as n from deliveries`.execute(db);
    return result.rows[0]?.n ?? 0;
  },
  async find(db: Executor, merchantId: string, mode: 'test' | 'live', id: string) {
    return db.selectFrom('events').selectAll().where('id', '=', id).where('merchant_id', '=', merchantId).where('mode', '=', mode).executeTakeFirst();
  },
  /** Newest first; `startingAfter` is the id of the last event of the previous page. */
  async list(db: Executor, merchantId: string, mode: 'test' | 'live', opts: { limit: number; startingAfter?: string; type?: string }) {
    let q = db.selectFrom('events').selectAll().where('merchant_id', '=', merchantId).where('mode', '=', mode);
    if (opts.type !== undefined) q = q.where('type', '=', opts.type);
    if (opts.startingAfter !== undefined) q = q.where('id', '<', opts.startingAfter);
    return q.orderBy('id', 'desc').limit(opts.limit).execute();
  },
  async listForIntent(db: Executor, intentId: string) {
    return db.selectFrom('events').selectAll().where('intent_id', '=', intentId).orderBy('id').execute();
  },
  /**
   * Deletes up to `limit` events created before `before` that no delivery names any more (the
   * retention worker deletes final deliveries first; a pending one keeps its event). `beforeId`
   * is the first event id of that moment (`firstIdAt`): the primary key finds the old events.
   * Events a resend is naming right now are skipped (`skip locked`), not waited for. Returns how
   * many it deleted.
   */
  async purgeUndelivered(db: Executor, before: Date, beforeId: string, limit: number): Promise<number> {
    const batch = db
      .selectFrom('events as e')
      .select('e.id')
      .where('e.id', '<', beforeId)
      .where('e.created_at', '<', before)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id'))))
      .orderBy('e.id')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    const result = await db.deleteFrom('events').where(sql<boolean>`id = any(array(${batch}))`).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
