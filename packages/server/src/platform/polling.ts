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

/**
 * What a lifecycle asks of every table of provider requests besides its claim (`id`,
 * `reference`, `status`, `submitted_at`, `updated_at`, `next_poll_at`): the same statements for
 * each, so each repository spreads these instead of writing them again.
 */
export function providerRequestStatements<Row>(table: string) {
  const t = sql.table(table);
  return {
    async findByReference(db: Executor, reference: string): Promise<Row | undefined> {
      return (await sql<Row>`select * from ${t} where reference = ${reference}`.execute(db)).rows[0];
    },
    /** The provider accepted the request (only the first time is recorded). */
    async markSubmitted(db: Executor, id: string, now: Date): Promise<void> {
      await sql`update ${t} set submitted_at = ${now}, updated_at = ${now} where id = ${id} and submitted_at is null`.execute(db);
    },
    async scheduleNextPoll(db: Executor, id: string, at: Date): Promise<void> {
      await sql`update ${t} set next_poll_at = ${at} where id = ${id} and status = 'PENDING'`.execute(db);
    },
    /** PENDING rows due for a poll, claimed until `leaseUntil` (see claimDueForPoll). */
    claimDue: (db: Executor, now: Date, leaseUntil: Date, limit: number) => claimDueForPoll<Row>(db, table, now, leaseUntil, limit),
  };
}
