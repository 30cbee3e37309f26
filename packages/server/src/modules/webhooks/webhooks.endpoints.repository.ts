import { sql } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import type { DisabledReason, EndpointRow, SecretRow } from './webhooks.tables.repository.ts';

/** Endpoints and their signing secrets. */
export const webhookEndpointsRepository = {
  async insertEndpoint(db: Executor, row: EndpointRow) {
    return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async findEndpoint(db: Executor, merchantId: string, mode: KeyMode, id: string) {
    return db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .executeTakeFirst();
  },

  async findEndpointsByIds(db: Executor, ids: string[]) {
    if (ids.length === 0) return [];
    return db.selectFrom('webhook_endpoints').selectAll().where('id', 'in', ids).execute();
  },

  async listEndpoints(db: Executor, merchantId: string, mode: KeyMode, limit: number, startingAfter: string | undefined) {
    let q = db.selectFrom('webhook_endpoints').selectAll().where('merchant_id', '=', merchantId).where('mode', '=', mode);
    if (startingAfter !== undefined) q = q.where('id', '<', startingAfter);
    return q.orderBy('id', 'desc').limit(limit).execute();
  },

  async countEndpoints(db: Executor, merchantId: string, mode: KeyMode): Promise<number> {
    const row = await db
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /**
   * Serialises endpoint creation per merchant and mode until the transaction ends, so the
   * endpoint limit holds under concurrency (an advisory lock: the merchant's row is not ours).
   */
  async lockEndpointsOf(db: Executor, merchantId: string, mode: KeyMode) {
    await sql`select pg_advisory_xact_lock(hashtext(${`webhook_endpoints:${merchantId}:${mode}`}))`.execute(db);
  },

  /** Enabled endpoints of a merchant and mode that want this event type. */
  async endpointsFor(db: Executor, merchantId: string, mode: KeyMode, type: string) {
    return db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('enabled', '=', true)
      .where((eb) => eb.or([sql<boolean>`cardinality(enabled_events) = 0`, sql<boolean>`${type} = any(enabled_events)`]))
      .execute();
  },

  async updateEndpoint(
    db: Executor,
    id: string,
    patch: Partial<Pick<EndpointRow, 'url' | 'description' | 'enabled_events' | 'enabled' | 'disabled_reason' | 'failing_since' | 'updated_at'>>,
  ) {
    return db.updateTable('webhook_endpoints').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },

  async deleteEndpoint(db: Executor, id: string) {
    await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
  },

  /** After a failed attempt: start the failing run if none, and disable the endpoint past `disableAfter`. */
  async markEndpointFailing(db: Executor, id: string, now: Date, disableBefore: Date): Promise<boolean> {
    await db.updateTable('webhook_endpoints').set({ failing_since: now }).where('id', '=', id).where('failing_since', 'is', null).execute();
    const disabled = await db
      .updateTable('webhook_endpoints')
      .set({ enabled: false, disabled_reason: 'failing', updated_at: now })
      .where('id', '=', id)
      .where('enabled', '=', true)
      .where('failing_since', '<=', disableBefore)
      .returning('id')
      .executeTakeFirst();
    return disabled !== undefined;
  },

  async disableEndpoint(db: Executor, id: string, reason: DisabledReason, now: Date): Promise<boolean> {
    const row = await db
      .updateTable('webhook_endpoints')
      .set({ enabled: false, disabled_reason: reason, updated_at: now })
      .where('id', '=', id)
      .where('enabled', '=', true)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  // ---- secrets ------------------------------------------------------------------------------

  async insertSecret(db: Executor, row: Omit<SecretRow, 'id'>) {
    await db.insertInto('webhook_endpoint_secrets').values(row).execute();
  },

  /** Secrets that still sign at `now`, newest first. */
  async liveSecrets(db: Executor, endpointIds: string[], now: Date) {
    if (endpointIds.length === 0) return [];
    return db
      .selectFrom('webhook_endpoint_secrets')
      .selectAll()
      .where('endpoint_id', 'in', endpointIds)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  /** Sets the expiry of the current secret (and shortens any older one that would outlive it). */
  async expireSecrets(db: Executor, endpointId: string, expiresAt: Date) {
    await db
      .updateTable('webhook_endpoint_secrets')
      .set({ expires_at: expiresAt })
      .where('endpoint_id', '=', endpointId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', expiresAt)]))
      .execute();
  },
};
