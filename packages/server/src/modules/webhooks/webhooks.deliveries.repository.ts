import { sql } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/tenancy.ts';
import type { OutboxSubscriber } from '../events/index.ts';
import type { DeliveryRow, DeliveryStatus } from './webhooks.tables.repository.ts';

/** A claimed delivery with what is needed to send it. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  endpointId: string;
  leaseToken: string;
  /** When the claim lapses and another dispatcher may take the delivery. */
  leaseUntil: Date;
  attempts: number;
  createdAt: Date;
}

export interface AttemptResult {
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  /** The headers sent (null: the request never left, e.g. its address was refused). */
  requestHeaders: Record<string, string> | null;
  responseExcerpt: string | null;
  error: string | null;
  succeeded: boolean;
}

/**
 * The webhooks module as the events outbox's subscriber: a pending delivery due at once for every
 * enabled endpoint of the event's merchant and mode that wants its type, written by the event's
 * own statement. Delivery ids: one new id whose last character (5 of its 80 random bits) is the
 * endpoint's rank, 0 to 15, for every endpoint there may be: as unique and time-ordered as any
 * id, for one draw of randomness.
 */
export function deliveriesOutbox(newDeliveryId: () => string, maxEndpoints: number): OutboxSubscriber {
  return {
    fanOut(row) {
      const base = newDeliveryId().slice(0, -1);
      const deliveryIds = Array.from({ length: maxEndpoints }, (_, rank) => base + rank.toString(32));
      return sql`insert into webhook_deliveries (id, event_id, endpoint_id, merchant_id, mode, status, next_attempt_at, created_at)
        select (${deliveryIds}::text[])[e.n], ${row.id}, e.id, ${row.merchant_id}, ${row.mode}, 'pending', ${row.created_at}, ${row.created_at}
        from (
          select id, row_number() over (order by id) as n from webhook_endpoints
          where merchant_id = ${row.merchant_id} and mode = ${row.mode} and enabled
            and (cardinality(enabled_events) = 0 or ${row.type} = any(enabled_events))
        ) e
        returning id`;
    },
    needs(alias) {
      return sql<boolean>`exists (select 1 from webhook_deliveries d where d.event_id = ${sql.ref(`${alias}.id`)})`;
    },
  };
}

/** Deliveries: the queue the dispatchers claim from, their attempts, and what the dashboard reads of them. */
export const webhookDeliveriesRepository = {
  async insertDeliveries(db: Executor, rows: Omit<DeliveryRow, 'attempts'>[]) {
    if (rows.length === 0) return [];
    return db.insertInto('webhook_deliveries').values(rows).returningAll().execute();
  },

  async listDeliveries(db: Executor, endpointId: string, limit: number, startingAfter: string | undefined, eventId?: string) {
    let q = db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId);
    if (eventId !== undefined) q = q.where('event_id', '=', eventId);
    if (startingAfter !== undefined) q = q.where('id', '<', startingAfter);
    return q.orderBy('id', 'desc').limit(limit).execute();
  },

  /**
   * Deliveries to an endpoint last attempted since `since`, and how many of those succeeded (a
   * success is final, so its last attempt is the success). One aggregate over the
   * `(endpoint_id, last_attempt_at)` index (migration 0021): it reads only the window's rows.
   */
  async attemptedSince(db: Executor, endpointId: string, since: Date): Promise<{ attempted: number; succeeded: number }> {
    const row = await db
      .selectFrom('webhook_deliveries')
      .select([sql<string>`count(*)`.as('attempted'), sql<string>`count(*) filter (where status = 'succeeded')`.as('succeeded')])
      .where('endpoint_id', '=', endpointId)
      .where('last_attempt_at', '>=', since)
      .executeTakeFirstOrThrow();
    return { attempted: Number(row.attempted), succeeded: Number(row.succeeded) };
  },

  /** The delivery last attempted since `since`, if any: whether it failed, and how. */
  async lastAttemptedSince(db: Executor, endpointId: string, since: Date) {
    return (
      db
        .selectFrom('webhook_deliveries')
        .select(['status', 'last_attempt_at', 'last_status_code', 'last_error'])
        .where('endpoint_id', '=', endpointId)
        .where('last_attempt_at', '>=', since)
        .orderBy('last_attempt_at', 'desc')
        // Attempts of one millisecond have no order between them: a failure among them is the one told.
        .orderBy(sql`status = 'succeeded'`)
        .limit(1)
        .executeTakeFirst()
    );
  },

  /** Every delivery of these events, to any endpoint of the scope, newest first (at most 200). */
  async deliveriesOfEvents(db: Executor, scope: Scope, eventIds: string[]) {
    if (eventIds.length === 0) return [];
    return db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('event_id', 'in', eventIds)
      .orderBy('id', 'desc')
      .limit(200)
      .execute();
  },

  /**
   * Ids of the scope's events, newest first, with a delivery whose last attempt failed (retrying
   * or given up: only a success clears `last_error`), below `before` and from `floor` on. Reads
   * the partial index `webhook_deliveries_failing` (migration 0025), which holds only those.
   */
  async failingEventIds(db: Executor, scope: Scope, before: string | undefined, floor: string | undefined, limit: number): Promise<string[]> {
    let q = db
      .selectFrom('webhook_deliveries')
      .select('event_id')
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('last_error', 'is not', null);
    if (before !== undefined) q = q.where('event_id', '<', before);
    if (floor !== undefined) q = q.where('event_id', '>=', floor);
    const rows = await q.groupBy('event_id').orderBy('event_id', 'desc').limit(limit).execute();
    return rows.map((r) => r.event_id);
  },

  async attemptsOf(db: Executor, deliveryIds: string[]) {
    if (deliveryIds.length === 0) return [];
    return db.selectFrom('webhook_delivery_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('id').execute();
  },

  /**
   * Claims up to `limit` due deliveries: `FOR UPDATE SKIP LOCKED` lets several dispatchers share
   * the queue without waiting on each other; the claim pushes `next_attempt_at` to the lease's end
   * and sets a fresh lease token, all in one statement.
   */
  async claimDue(db: Executor, now: Date, leaseUntil: Date, leaseToken: string, limit: number): Promise<ClaimedDelivery[]> {
    const due = db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    // `= any(array(…))` makes the sub-select an InitPlan, run exactly once. With `in (…)` the
    // planner may choose a semi join that re-runs it per row and claims more than `limit`.
    const rows = await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ next_attempt_at: leaseUntil, lease_token: leaseToken, attempts: eb('attempts', '+', 1) }))
      .where(sql<boolean>`id = any(array(${due}))`)
      .where('status', '=', 'pending')
      .returning(['id', 'event_id', 'endpoint_id', 'lease_token', 'attempts', 'created_at'])
      .execute();
    return rows.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      endpointId: r.endpoint_id,
      leaseToken: r.lease_token as string,
      leaseUntil,
      attempts: r.attempts,
      createdAt: r.created_at,
    }));
  },

  /** Logs attempts, in one statement. */
  async insertAttempts(db: Executor, attempts: readonly { deliveryId: string; result: AttemptResult }[]) {
    if (attempts.length === 0) return;
    await db
      .insertInto('webhook_delivery_attempts')
      .values(
        attempts.map(({ deliveryId, result: r }) => ({
          delivery_id: deliveryId,
          attempted_at: r.attemptedAt,
          status_code: r.statusCode,
          latency_ms: r.latencyMs,
          request_headers: r.requestHeaders === null ? null : JSON.stringify(r.requestHeaders),
          response_excerpt: r.responseExcerpt,
          error: r.error,
          succeeded: r.succeeded,
        })),
      )
      .execute();
  },

  /**
   * Records acknowledged deliveries, in one statement (so one commit, and each delivery's attempt
   * row commits with its state change): logs every attempt, makes each delivery still pending
   * succeeded (a success is final, whoever holds the claim), and ends the failing runs of their
   * endpoints. The columns go as one array each: the statement's text and its plan are the
   * same whatever the batch's size. Returns the ids it made succeeded.
   */
  async recordSucceeded(db: Executor, settled: readonly { id: string; result: AttemptResult }[], now: Date): Promise<string[]> {
    if (settled.length === 0) return [];
    const col = <T>(f: (r: AttemptResult) => T) => settled.map((s) => f(s.result));
    const result = await sql<{ id: string }>`
      with v as (
        select * from unnest(${settled.map((s) => s.id)}::text[], ${col((r) => r.attemptedAt)}::timestamptz[], ${col((r) => r.statusCode)}::int[],
          ${col((r) => r.latencyMs)}::int[], ${col((r) => (r.requestHeaders === null ? null : JSON.stringify(r.requestHeaders)))}::text[],
          ${col((r) => r.responseExcerpt)}::text[])
          as v(id, attempted_at, status_code, latency_ms, request_headers, response_excerpt)
      ), logged as (
        insert into webhook_delivery_attempts (delivery_id, attempted_at, status_code, latency_ms, request_headers, response_excerpt, error, succeeded)
        select id, attempted_at, status_code, latency_ms, request_headers, response_excerpt, null, true from v
      ), done as (
        update webhook_deliveries d
        set status = 'succeeded', next_attempt_at = null, completed_at = ${now}, lease_token = null,
            last_attempt_at = v.attempted_at, last_status_code = v.status_code, last_error = null
        from v
        where d.id = v.id and d.status = 'pending'
        returning d.id, d.endpoint_id
      ), healthy as (
        -- Reads \`done\` whole (distinct) before it locks an endpoint: deliveries, then endpoints,
        -- the order in which a failure's transaction locks them.
        update webhook_endpoints set failing_since = null
        where id in (select distinct endpoint_id from done) and failing_since is not null
      )
      select id from done`.execute(db);
    return result.rows.map((r) => r.id);
  },

  /** Logs one attempt. */
  async insertAttempt(db: Executor, deliveryId: string, r: AttemptResult) {
    await webhookDeliveriesRepository.insertAttempts(db, [{ deliveryId, result: r }]);
  },

  /**
   * Records the outcome of a claim while the delivery is pending. A success is final and is
   * recorded whoever holds the claim; anything else only while the claim is still ours (same
   * lease token). Returns false when the outcome was not recorded.
   */
  async settle(
    db: Executor,
    id: string,
    leaseToken: string,
    patch: {
      status: DeliveryStatus;
      next_attempt_at: Date | null;
      last_attempt_at?: Date;
      last_status_code?: number | null;
      last_error?: string | null;
      completed_at?: Date | null;
    },
  ): Promise<boolean> {
    let q = db
      .updateTable('webhook_deliveries')
      .set({ ...patch, lease_token: null })
      .where('id', '=', id)
      .where('status', '=', 'pending');
    if (patch.status !== 'succeeded') q = q.where('lease_token', '=', leaseToken);
    const row = await q.returning('id').executeTakeFirst();
    return row !== undefined;
  },

  /**
   * Gives back claimed deliveries that were never sent (a claim about to lapse, or a dispatcher
   * stopping): due again at once, their claims not counted as attempts. Only those whose claim
   * is still the one given (same lease token).
   */
  async releaseUnsent(db: Executor, claims: readonly { id: string; leaseToken: string }[], now: Date) {
    if (claims.length === 0) return;
    await sql`
      update webhook_deliveries d
      set next_attempt_at = ${now}, lease_token = null, attempts = d.attempts - 1
      from unnest(${claims.map((c) => c.id)}::text[], ${claims.map((c) => c.leaseToken)}::text[]) as v(id, lease_token)
      where d.id = v.id and d.lease_token = v.lease_token and d.status = 'pending'`.execute(db);
  },

  /** Parks the pending deliveries of an endpoint that was disabled. */
  /**
   * Parks the endpoint's pending deliveries, but for those another transaction holds: the caller
   * holds the endpoint's row, and a delivery's own failure holds its delivery while it waits for
   * that row (deliveries, then endpoints), so waiting for them would deadlock. Each of those parks
   * itself once it has the row and finds the endpoint disabled (`endpointEnabled`).
   */
  async parkPending(db: Executor, endpointId: string) {
    await sql`
      update webhook_deliveries set next_attempt_at = null, lease_token = null
      where id in (select id from webhook_deliveries where endpoint_id = ${endpointId} and status = 'pending' for update skip locked)`.execute(db);
  },

  /** Whether the endpoint takes deliveries, as last committed (a failure that waited for its row reads it after). */
  async endpointEnabled(db: Executor, endpointId: string): Promise<boolean> {
    const row = await db.selectFrom('webhook_endpoints').select('enabled').where('id', '=', endpointId).executeTakeFirst();
    return row?.enabled === true;
  },

  /** Wakes the parked deliveries of an endpoint enabled again. */
  async wakeParked(db: Executor, endpointId: string, now: Date) {
    await db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: now })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending')
      .where('next_attempt_at', 'is', null)
      .execute();
  },
};
