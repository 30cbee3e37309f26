import { sql } from 'kysely';
import type { Executor } from './db.ts';

/**
 * Claims up to `limit` PENDING rows of a table of provider requests (columns `status`,
 * `next_poll_at`, `polls`) that are due for a poll, and pushes their next poll to `leaseUntil`:
 * SKIP LOCKED, so pollers of several processes share the work, and one that dies leaves its rows
 * due again at the lease's end. Returns them as claimed.
 */
export async function claimDueForPoll<Row>(db: Executor, table: string, now: Date, leaseUntil: Date, limit: number): Promise<Row[]> {
  const t = sql.table(table);
  const result = await sql<Row>`
    update ${t} set next_poll_at = ${leaseUntil}, polls = polls + 1
    where id = any(array(
      select id from ${t} where status = 'PENDING' and next_poll_at <= ${now}
      order by next_poll_at limit ${limit} for update skip locked))
    returning *`.execute(db);
  return result.rows;
}
