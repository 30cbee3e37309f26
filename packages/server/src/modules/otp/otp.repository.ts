import { type Generated, type Selectable, sql } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import type { KeyMode } from '../merchants/merchants.repository.ts';
import type { Channel } from '../messaging/messaging.service.ts';

export interface OtpCodesTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  user_id: string;
  intent_id: string | null;
  channel: Channel;
  code_hash: Buffer;
  attempts: Generated<number>;
  expires_at: Date;
  created_at: Date;
  consumed_at: Date | null;
}

export interface OtpAuthorizationsTable {
  token_hash: Buffer;
  merchant_id: string;
  mode: KeyMode;
  user_id: string;
  intent_id: string | null;
  otp_id: string;
  expires_at: Date;
  created_at: Date;
  used_at: Date | null;
}

declare module '../../platform/database.ts' {
  interface Database {
    otp_codes: OtpCodesTable;
    otp_authorizations: OtpAuthorizationsTable;
  }
}

export type OtpCodeRow = Selectable<OtpCodesTable>;
export type OtpAuthorizationRow = Selectable<OtpAuthorizationsTable>;

export interface UserScope {
  merchantId: string;
  mode: KeyMode;
  userId: string;
}

/** The user's codes, of one merchant and mode only. */
function codesOf(db: Executor, scope: UserScope) {
  return db.selectFrom('otp_codes').where('user_id', '=', scope.userId).where('merchant_id', '=', scope.merchantId).where('mode', '=', scope.mode);
}

export const otpRepository = {
  /**
   * Serialises the sends of one user until the transaction ends (a transaction-level advisory
   * lock keyed by the user id), so two initOtp calls at once cannot both pass the send limits.
   */
  async lockUserSends(tx: Tx, userId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`otp:${userId}`}, 0))`.execute(tx);
  },

  /** When the user's codes were sent since `since`. */
  async sendsSince(db: Executor, scope: UserScope, since: Date): Promise<Date[]> {
    const rows = await codesOf(db, scope).select('created_at').where('created_at', '>', since).execute();
    return rows.map((r) => r.created_at);
  },

  /**
   * Forgets what can no longer matter: authorizations expired by `now`, and codes sent before
   * `sentBefore` (dead, and out of the send limits' window) with whatever authorization they gave.
   */
  async deleteStale(db: Executor, userId: string, q: { now: Date; sentBefore: Date }): Promise<void> {
    await db.deleteFrom('otp_authorizations').where('user_id', '=', userId).where('expires_at', '<=', q.now).execute();
    await db.deleteFrom('otp_codes').where('user_id', '=', userId).where('created_at', '<', q.sentBefore).execute();
  },

  async insertCode(db: Executor, row: Omit<OtpCodesTable, 'attempts' | 'consumed_at'>): Promise<void> {
    await db.insertInto('otp_codes').values(row).execute();
  },

  async deleteCode(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('otp_codes').where('id', '=', id).execute();
  },

  /** The user's newest code (the only live one), locked for the transaction so tries count exactly. */
  async lockNewestCode(tx: Tx, scope: UserScope): Promise<OtpCodeRow | undefined> {
    return codesOf(tx, scope).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).forUpdate().executeTakeFirst();
  },

  async countWrongAttempt(tx: Tx, id: string): Promise<number> {
    const row = await tx
      .updateTable('otp_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .returning('attempts')
      .executeTakeFirstOrThrow();
    return row.attempts;
  },

  async consumeCode(tx: Tx, id: string, at: Date): Promise<void> {
    await tx.updateTable('otp_codes').set({ consumed_at: at }).where('id', '=', id).execute();
  },

  async insertAuthorization(tx: Tx, row: Omit<OtpAuthorizationsTable, 'used_at'>): Promise<void> {
    await tx.insertInto('otp_authorizations').values(row).execute();
  },

  /** The authorization with this token hash, locked until the transaction ends. */
  async lockAuthorization(tx: Tx, tokenHash: Buffer): Promise<OtpAuthorizationRow | undefined> {
    return tx.selectFrom('otp_authorizations').selectAll().where('token_hash', '=', tokenHash).forUpdate().executeTakeFirst();
  },

  async markAuthorizationUsed(tx: Tx, tokenHash: Buffer, at: Date): Promise<void> {
    await tx.updateTable('otp_authorizations').set({ used_at: at }).where('token_hash', '=', tokenHash).execute();
  },
};
