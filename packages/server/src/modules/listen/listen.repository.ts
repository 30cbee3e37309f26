import type { Executor } from '../../platform/db.ts';

/** Reads of the events outbox (table of the webhooks module) for the listen stream. */
export const listenRepository = {
  /** Ids (oldest first) of a merchant's events in one mode after `afterId`; only `types` when given. */
  async idsAfter(db: Executor, merchantId: string, mode: 'test' | 'live', afterId: string, types: readonly string[] | undefined, limit: number) {
    let q = db.selectFrom('events').select('id').where('merchant_id', '=', merchantId).where('mode', '=', mode).where('id', '>', afterId);
    if (types !== undefined && types.length > 0) q = q.where('type', 'in', types);
    const rows = await q.orderBy('id', 'asc').limit(limit).execute();
    return rows.map((r) => r.id);
  },
  /** Type and raw payload (the exact bytes delivered to webhooks) of these events, oldest first. */
  async payloads(db: Executor, ids: readonly string[]) {
    if (ids.length === 0) return [];
    return db.selectFrom('events').select(['id', 'type', 'payload']).where('id', 'in', ids).orderBy('id', 'asc').execute();
  },
};
