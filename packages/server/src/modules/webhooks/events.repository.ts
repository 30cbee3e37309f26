import type { Selectable } from 'kysely';
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
};
