import { type ColumnType, type Generated, type Selectable, sql } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

export interface DashboardSessionsTable {
  token_hash: Buffer;
  /** The public id (`dss_…`) the sessions list names it by; the token's hash stays internal. */
  id: string;
  /** The client address and the (truncated) User-Agent of the sign-in. */
  address: string | null;
  user_agent: string | null;
  dashboard_user_id: string;
  merchant_id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  absolute_expires_at: Date;
}

export interface DashboardCheckoutKeysTable {
  merchant_id: string;
  mode: KeyMode;
  api_key_id: string;
  key_encrypted: Buffer;
  created_at: Date;
}

/** The second step of a sign-in with TOTP: SHA-256 of the challenge token, 5 minutes. */
export interface DashboardLoginChallengesTable {
  token_hash: Buffer;
  dashboard_user_id: string;
  created_at: Date;
  expires_at: Date;
}

/** Who did what from the dashboard (ids `aud_…` sort by time). */
export interface DashboardAuditLogTable {
  id: string;
  seq: Generated<string>;
  merchant_id: string;
  mode: KeyMode | null;
  actor_id: string | null;
  actor_email: string;
  action: string;
  target_id: string | null;
  details: ColumnType<Record<string, unknown>, string, never>;
  created_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    dashboard_login_challenges: DashboardLoginChallengesTable;
    dashboard_sessions: DashboardSessionsTable;
    dashboard_checkout_keys: DashboardCheckoutKeysTable;
    dashboard_audit_log: DashboardAuditLogTable;
  }
}

export type AuditRow = Selectable<DashboardAuditLogTable>;

export type SessionRow = Selectable<DashboardSessionsTable>;

/** The dashboard's own tables: sessions and the hosted checkout's keys. */
export const dashboardRepository = {
  // ---- accounts and sessions ----------------------------------------------------------------

  async insertSession(db: Executor, row: SessionRow) {
    await db.insertInto('dashboard_sessions').values(row).execute();
  },

  async findSession(db: Executor, tokenHash: Buffer) {
    return db.selectFrom('dashboard_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  },

  async touchSession(db: Executor, tokenHash: Buffer, seenAt: Date, expiresAt: Date) {
    await db.updateTable('dashboard_sessions').set({ last_seen_at: seenAt, expires_at: expiresAt }).where('token_hash', '=', tokenHash).execute();
  },

  /** A session's new token (rotation): the same row, its other columns kept. */
  async rekeySession(db: Executor, oldHash: Buffer, newHash: Buffer, seenAt: Date, expiresAt: Date): Promise<void> {
    await db
      .updateTable('dashboard_sessions')
      .set({ token_hash: newHash, last_seen_at: seenAt, expires_at: expiresAt })
      .where('token_hash', '=', oldHash)
      .execute();
  },

  async deleteSession(db: Executor, tokenHash: Buffer) {
    await db.deleteFrom('dashboard_sessions').where('token_hash', '=', tokenHash).execute();
  },

  /** A user's sessions still open, newest first. */
  async listSessions(db: Executor, dashboardUserId: string, now: Date) {
    return db
      .selectFrom('dashboard_sessions')
      .select(['id', 'token_hash', 'created_at', 'last_seen_at', 'address', 'user_agent'])
      .where('dashboard_user_id', '=', dashboardUserId)
      .where('expires_at', '>', now)
      .where('absolute_expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  /** Ends one session of a user by its public id; false when the user has none with it. */
  async deleteSessionById(db: Executor, dashboardUserId: string, id: string): Promise<boolean> {
    const r = await db.deleteFrom('dashboard_sessions').where('dashboard_user_id', '=', dashboardUserId).where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  },

  /** Ends every session of a user, but `keep` (the one asking) when named. Returns how many. */
  async deleteUserSessions(db: Executor, dashboardUserId: string, keep?: Buffer): Promise<number> {
    let q = db.deleteFrom('dashboard_sessions').where('dashboard_user_id', '=', dashboardUserId);
    if (keep) q = q.where('token_hash', '!=', keep);
    const r = await q.executeTakeFirst();
    return Number(r.numDeletedRows);
  },

  async insertChallenge(db: Executor, row: DashboardLoginChallengesTable) {
    await db.insertInto('dashboard_login_challenges').values(row).execute();
  },

  async findChallenge(db: Executor, tokenHash: Buffer) {
    return db.selectFrom('dashboard_login_challenges').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  },

  /** Uses a challenge once; false when another request used it first. */
  async deleteChallenge(db: Executor, tokenHash: Buffer): Promise<boolean> {
    const r = await db.deleteFrom('dashboard_login_challenges').where('token_hash', '=', tokenHash).executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  },

  /** Deletes up to `limit` sign-in challenges past their expiry. Returns how many. */
  async purgeExpiredChallenges(db: Executor, now: Date, limit: number): Promise<number> {
    const batch = db.selectFrom('dashboard_login_challenges').select('token_hash').where('expires_at', '<=', now).limit(limit);
    const r = await db
      .deleteFrom('dashboard_login_challenges')
      .where(sql<boolean>`token_hash = any(array(${batch}))`)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
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
    const result = await db
      .deleteFrom('dashboard_sessions')
      .where(sql<boolean>`token_hash = any(array(${batch}))`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  // ---- audit log ----------------------------------------------------------------------------

  async insertAudit(db: Executor, row: Omit<AuditRow, 'details' | 'seq'> & { details: string }) {
    await db.insertInto('dashboard_audit_log').values(row).execute();
  },

  /** A merchant's entries, newest (last written) first, by action, after a cursor (an entry id). */
  async listAudit(db: Executor, q: { merchantId: string; action?: string; startingAfter?: string; limit: number }): Promise<AuditRow[]> {
    let query = db.selectFrom('dashboard_audit_log').selectAll().where('merchant_id', '=', q.merchantId);
    if (q.action !== undefined) query = query.where('action', '=', q.action);
    if (q.startingAfter !== undefined) {
      const cursor = db.selectFrom('dashboard_audit_log').select('seq').where('merchant_id', '=', q.merchantId).where('id', '=', q.startingAfter);
      query = query.where('seq', '<', cursor);
    }
    return query.orderBy('seq', 'desc').limit(q.limit).execute();
  },

  // ---- hosted checkout ----------------------------------------------------------------------

  async findCheckoutKey(db: Executor, merchantId: string, mode: KeyMode) {
    return db
      .selectFrom('dashboard_checkout_keys')
      .select(['key_encrypted', 'api_key_id'])
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .executeTakeFirst();
  },

  /**
   * Records the page's key, replacing `replacing` (a revoked or expired one) if named. Returns
   * false when another request recorded a key first.
   */
  async putCheckoutKey(db: Executor, row: Selectable<DashboardCheckoutKeysTable>, replacing: string | undefined): Promise<boolean> {
    if (replacing === undefined) {
      const inserted = await db
        .insertInto('dashboard_checkout_keys')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
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
};
