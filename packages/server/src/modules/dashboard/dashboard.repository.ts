import { type Generated, type Selectable, sql } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import type { KeyMode } from '../merchants/merchants.repository.ts';

export interface DashboardSessionsTable {
  token_hash: Buffer;
  dashboard_user_id: string;
  merchant_id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  absolute_expires_at: Date;
}

export interface DashboardLoginAttemptsTable {
  id: Generated<bigint>;
  email_hash: Buffer;
  attempted_at: Date;
}

export interface DashboardCheckoutKeysTable {
  merchant_id: string;
  mode: KeyMode;
  api_key_id: string;
  key_encrypted: Buffer;
  created_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    dashboard_sessions: DashboardSessionsTable;
    dashboard_login_attempts: DashboardLoginAttemptsTable;
    dashboard_checkout_keys: DashboardCheckoutKeysTable;
  }
}

export type SessionRow = Selectable<DashboardSessionsTable>;

/**
 * The dashboard's own tables, plus the few reads across modules that no other module offers:
 * the dashboard user by e-mail (the merchants module's table), an intent's owner by its session
 * token alone (the hosted checkout knows no key yet), and the deliveries of an intent's events.
 */
export const dashboardRepository = {
  // ---- accounts and sessions ----------------------------------------------------------------

  async findUserByEmail(db: Executor, email: string) {
    return db
      .selectFrom('dashboard_users')
      .innerJoin('merchants', 'merchants.id', 'dashboard_users.merchant_id')
      .select(['dashboard_users.id', 'dashboard_users.merchant_id', 'dashboard_users.email', 'dashboard_users.password_hash', 'merchants.name as merchant_name'])
      .where((eb) => eb(eb.fn('lower', ['dashboard_users.email']), '=', email))
      .executeTakeFirst();
  },

  async insertSession(db: Executor, row: SessionRow) {
    await db.insertInto('dashboard_sessions').values(row).execute();
  },

  /** The session with its user's e-mail and its merchant's name and pinned API version. */
  async findSession(db: Executor, tokenHash: Buffer) {
    return db
      .selectFrom('dashboard_sessions')
      .innerJoin('dashboard_users', 'dashboard_users.id', 'dashboard_sessions.dashboard_user_id')
      .innerJoin('merchants', 'merchants.id', 'dashboard_sessions.merchant_id')
      .selectAll('dashboard_sessions')
      .select(['dashboard_users.email', 'merchants.name as merchant_name', 'merchants.api_version as merchant_api_version'])
      .where('dashboard_sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
  },

  async touchSession(db: Executor, tokenHash: Buffer, seenAt: Date, expiresAt: Date) {
    await db.updateTable('dashboard_sessions').set({ last_seen_at: seenAt, expires_at: expiresAt }).where('token_hash', '=', tokenHash).execute();
  },

  async deleteSession(db: Executor, tokenHash: Buffer) {
    await db.deleteFrom('dashboard_sessions').where('token_hash', '=', tokenHash).execute();
  },

  /** A user's sessions past either expiry (housekeeping at sign-in; reads already refuse them). */
  async deleteExpiredSessions(db: Executor, dashboardUserId: string, now: Date): Promise<number> {
    const result = await db
      .deleteFrom('dashboard_sessions')
      .where('dashboard_user_id', '=', dashboardUserId)
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('absolute_expires_at', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** Deletes up to `limit` sessions expired by `now`, whoever they belong to. Returns how many. */
  async purgeExpiredSessions(db: Executor, now: Date, limit: number): Promise<number> {
    // The idle expiry never passes the absolute one (touchSession caps it): expires_at says it all.
    const batch = db.selectFrom('dashboard_sessions').select('token_hash').where('expires_at', '<=', now).limit(limit);
    const result = await db.deleteFrom('dashboard_sessions').where(sql<boolean>`token_hash = any(array(${batch}))`).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  // ---- lockout ------------------------------------------------------------------------------

  async insertLoginAttempt(db: Executor, emailHash: Buffer, at: Date): Promise<bigint> {
    const row = await db.insertInto('dashboard_login_attempts').values({ email_hash: emailHash, attempted_at: at }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  },

  /** Attempt times for this e-mail since `since`, newest first. */
  async loginAttemptsSince(db: Executor, emailHash: Buffer, since: Date): Promise<Date[]> {
    const rows = await db
      .selectFrom('dashboard_login_attempts')
      .select('attempted_at')
      .where('email_hash', '=', emailHash)
      .where('attempted_at', '>', since)
      .orderBy('attempted_at', 'desc')
      .execute();
    return rows.map((r) => r.attempted_at);
  },

  async deleteLoginAttempt(db: Executor, id: bigint) {
    await db.deleteFrom('dashboard_login_attempts').where('id', '=', id).execute();
  },

  /** Every attempt for this e-mail (`before` unset), or those no longer in the window. */
  async clearLoginAttempts(db: Executor, emailHash: Buffer, before?: Date) {
    let q = db.deleteFrom('dashboard_login_attempts').where('email_hash', '=', emailHash);
    if (before !== undefined) q = q.where('attempted_at', '<=', before);
    await q.execute();
  },

  /**
   * Deletes up to `limit` sign-in attempts made before `before`, long out of the lockout window:
   * those of e-mails that never signed in again (unknown ones included). Returns how many.
   */
  async purgeLoginAttemptsBefore(db: Executor, before: Date, limit: number): Promise<number> {
    const batch = db.selectFrom('dashboard_login_attempts').select('id').where('attempted_at', '<', before).limit(limit);
    const result = await db.deleteFrom('dashboard_login_attempts').where(sql<boolean>`id = any(array(${batch}))`).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  // ---- hosted checkout ----------------------------------------------------------------------

  /** Whose intent a session token names: merchant, mode and the token's hash to check it against. */
  async findIntentOwner(db: Executor, intentId: string) {
    return db.selectFrom('intents').select(['merchant_id', 'mode', 'session_token_hash']).where('id', '=', intentId).executeTakeFirst();
  },

  async findCheckoutKey(db: Executor, merchantId: string, mode: KeyMode) {
    return db
      .selectFrom('dashboard_checkout_keys')
      .innerJoin('api_keys', 'api_keys.id', 'dashboard_checkout_keys.api_key_id')
      .select(['dashboard_checkout_keys.key_encrypted', 'dashboard_checkout_keys.api_key_id', 'api_keys.revoked_at', 'api_keys.expires_at'])
      .where('dashboard_checkout_keys.merchant_id', '=', merchantId)
      .where('dashboard_checkout_keys.mode', '=', mode)
      .executeTakeFirst();
  },

  /**
   * Records the page's key, replacing `replacing` (a revoked or expired one) if named. Returns
   * false when another request recorded a key first.
   */
  async putCheckoutKey(
    db: Executor,
    row: Selectable<DashboardCheckoutKeysTable>,
    replacing: string | undefined,
  ): Promise<boolean> {
    if (replacing === undefined) {
      const inserted = await db.insertInto('dashboard_checkout_keys').values(row).onConflict((oc) => oc.doNothing()).executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
    }
    const updated = await db
      .updateTable('dashboard_checkout_keys')
      .set({ api_key_id: row.api_key_id, key_encrypted: row.key_encrypted, created_at: row.created_at })
      .where('merchant_id', '=', row.merchant_id)
      .where('mode', '=', row.mode)
      .where('api_key_id', '=', replacing)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1;
  },

  // ---- payment detail -----------------------------------------------------------------------

  /** Every delivery of these events, to any endpoint of the merchant and mode, newest first. */
  async deliveriesOfEvents(db: Executor, merchantId: string, mode: KeyMode, eventIds: string[]) {
    if (eventIds.length === 0) return [];
    return db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('event_id', 'in', eventIds)
      .orderBy('id', 'desc')
      .limit(200)
      .execute();
  },
};
