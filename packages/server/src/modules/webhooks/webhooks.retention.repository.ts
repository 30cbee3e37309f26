import { sql } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import type { DeliveryStatus } from './webhooks.tables.repository.ts';

/**
 * 'pending' written into the SQL text, not sent as a parameter: `status <> 'pending'` then matches
 * the predicate of the partial index `webhook_deliveries_completed` in a prepared statement's
 * generic plan too.
 */
const PENDING_LITERAL = sql.lit<DeliveryStatus>('pending');

/** What the retention worker deletes of the webhooks' tables. */
export const webhookRetentionRepository = {
  /**
   * Deletes up to `limit` attempts of deliveries that reached a final state (succeeded or failed)
   * before `before`. Returns how many it deleted. A final delivery never changes again.
   */
  async purgeFinishedAttempts(db: Executor, before: Date, limit: number): Promise<number> {
    const batch = db
      .selectFrom('webhook_delivery_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select('a.id')
      .where('d.status', '<>', PENDING_LITERAL)
      .where('d.completed_at', '<', before)
      .limit(limit);
    const result = await db
      .deleteFrom('webhook_delivery_attempts')
      .where(sql<boolean>`id = any(array(${batch}))`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /**
   * Deletes up to `limit` deliveries that reached a final state before `before` (their attempts
   * go with them; `purgeFinishedAttempts` first keeps that cascade small). Pending deliveries,
   * parked ones included, are never deleted. Returns how many it deleted.
   */
  async purgeFinishedDeliveries(db: Executor, before: Date, limit: number): Promise<number> {
    const batch = db.selectFrom('webhook_deliveries').select('id').where('status', '<>', PENDING_LITERAL).where('completed_at', '<', before).limit(limit);
    const result = await db
      .deleteFrom('webhook_deliveries')
      .where(sql<boolean>`id = any(array(${batch}))`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
