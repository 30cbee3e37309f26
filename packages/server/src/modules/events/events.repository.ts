import { type RawBuilder, type Selectable, sql } from 'kysely';
import { DEFERRED, type Executor } from '../../platform/db.ts';
import type { KeyMode, Scope } from '../../platform/tenancy.ts';

export interface EventsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
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

export interface ListOptions {
  limit: number;
  startingAfter?: string;
  type?: string;
  floor?: string;
  ids?: readonly string[];
}

/**
 * What a subscriber of the outbox (the webhooks module) adds to its statements, as SQL fragments,
 * so an event and its fan-out are written by one statement without this module knowing the
 * subscriber's tables.
 */
export interface OutboxSubscriber {
  /** An INSERT … SELECT … RETURNING run in the event's own statement, as a CTE. */
  fanOut(event: EventRow): RawBuilder<unknown>;
  /** True while the subscriber still needs the event `e` (e.g. a delivery names it). */
  needs(eventAlias: 'e'): RawBuilder<boolean>;
}

export const eventsRepository = {
  /**
   * Inserts the event and, in the same statement, what the subscriber fans it out to. Nobody reads
   * its answer, so inside a transaction it is DEFERRED: sent with the transaction's next statement.
   */
  async insert(db: Executor, row: EventRow, subscriber: OutboxSubscriber | undefined): Promise<void> {
    const insert = sql`insert into events (id, merchant_id, mode, type, intent_id, api_version, payload, created_at)
        values (${row.id}, ${row.merchant_id}, ${row.mode}, ${row.type}, ${row.intent_id}, ${row.api_version}, ${row.payload}, ${row.created_at})`;
    if (!subscriber) {
      await sql`${sql.raw(DEFERRED)}${insert}`.execute(db);
      return;
    }
    await sql`${sql.raw(DEFERRED)}with event as (${insert}), fan_out as (${subscriber.fanOut(row)}) select count(*)::int as n from fan_out`.execute(db);
  },

  async find(db: Executor, scope: Scope, id: string) {
    return db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .executeTakeFirst();
  },

  /**
   * Newest first; `startingAfter` is the id of the last event of the previous page, `floor` the
   * smallest id wanted (ids sort by creation time: a period is a range of ids), `ids` only these.
   */
  async list(db: Executor, scope: Scope, opts: ListOptions) {
    let q = db.selectFrom('events').selectAll().where('merchant_id', '=', scope.merchantId).where('mode', '=', scope.mode);
    if (opts.type !== undefined) q = q.where('type', '=', opts.type);
    if (opts.startingAfter !== undefined) q = q.where('id', '<', opts.startingAfter);
    if (opts.floor !== undefined) q = q.where('id', '>=', opts.floor);
    if (opts.ids !== undefined) q = q.where('id', 'in', opts.ids.length > 0 ? opts.ids : ['']);
    return q.orderBy('id', 'desc').limit(opts.limit).execute();
  },

  /** The events of one intent in one scope, oldest first. */
  async listForIntent(db: Executor, scope: Scope, intentId: string) {
    return db
      .selectFrom('events')
      .selectAll()
      .where('intent_id', '=', intentId)
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .orderBy('id')
      .execute();
  },

  /** Ids (oldest first) of a scope's events after `afterId`; only `types` when given. */
  async idsAfter(db: Executor, scope: Scope, afterId: string, types: readonly string[] | undefined, limit: number) {
    let q = db.selectFrom('events').select('id').where('merchant_id', '=', scope.merchantId).where('mode', '=', scope.mode).where('id', '>', afterId);
    if (types !== undefined && types.length > 0) q = q.where('type', 'in', types);
    const rows = await q.orderBy('id', 'asc').limit(limit).execute();
    return rows.map((r) => r.id);
  },

  /** Type and raw payload (the exact bytes delivered) of these events, oldest first. */
  async payloads(db: Executor, ids: readonly string[]) {
    if (ids.length === 0) return [];
    return db.selectFrom('events').select(['id', 'type', 'payload']).where('id', 'in', ids).orderBy('id', 'asc').execute();
  },

  /**
   * Deletes up to `limit` events created before `before` that the subscriber no longer needs (the
   * webhooks retention deletes final deliveries first; a pending one keeps its event). `beforeId`
   * is the first event id of that moment (`firstIdAt`): the primary key finds the old events.
   * Events a resend is naming right now are skipped (`skip locked`), not waited for. Returns how
   * many it deleted.
   */
  async purgeUnneeded(db: Executor, before: Date, beforeId: string, limit: number, subscriber: OutboxSubscriber | undefined): Promise<number> {
    let batch = db.selectFrom('events as e').select('e.id').where('e.id', '<', beforeId).where('e.created_at', '<', before);
    if (subscriber) batch = batch.where(sql<boolean>`not ${subscriber.needs('e')}`);
    const ids = batch.orderBy('e.id').limit(limit).forUpdate().skipLocked();
    const result = await db
      .deleteFrom('events')
      .where(sql<boolean>`id = any(array(${ids}))`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
