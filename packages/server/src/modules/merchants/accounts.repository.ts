import { sql } from 'kysely';
import type { Executor } from '../../platform/db.ts';

/** A dashboard user's credentials besides the password: recovery codes and reset links. */
export interface DashboardRecoveryCodesTable {
  dashboard_user_id: string;
  code_hash: Buffer;
  created_at: Date;
  used_at: Date | null;
}

export interface DashboardPasswordResetsTable {
  token_hash: Buffer;
  dashboard_user_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

declare module '../../platform/database.ts' {
  interface Database {
    dashboard_recovery_codes: DashboardRecoveryCodesTable;
    dashboard_password_resets: DashboardPasswordResetsTable;
  }
}

/** dashboard_users' credentials (password, TOTP) and their two tables: the merchants module's own. */
export const accountsRepository = {
  async findCredentials(db: Executor, id: string) {
    return db
      .selectFrom('dashboard_users')
      .select(['id', 'email', 'password_hash', 'totp_secret_encrypted', 'totp_enabled_at', 'totp_last_step'])
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async setPassword(db: Executor, id: string, passwordHash: string) {
    await db.updateTable('dashboard_users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
  },

  /** A new pending secret; refused (false) once TOTP is enabled. */
  async setPendingTotp(db: Executor, id: string, secret: Buffer): Promise<boolean> {
    const r = await db
      .updateTable('dashboard_users')
      .set({ totp_secret_encrypted: secret, totp_last_step: null })
      .where('id', '=', id)
      .where('totp_enabled_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  async enableTotp(db: Executor, id: string, at: Date, step: number): Promise<boolean> {
    const r = await db
      .updateTable('dashboard_users')
      .set({ totp_enabled_at: at, totp_last_step: step })
      .where('id', '=', id)
      .where('totp_enabled_at', 'is', null)
      .where('totp_secret_encrypted', 'is not', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  async disableTotp(db: Executor, id: string) {
    await db.updateTable('dashboard_users').set({ totp_secret_encrypted: null, totp_enabled_at: null, totp_last_step: null }).where('id', '=', id).execute();
    await db.deleteFrom('dashboard_recovery_codes').where('dashboard_user_id', '=', id).execute();
  },

  /** Records `step` as used unless it (or a later one) already was: false is a replay. */
  async claimTotpStep(db: Executor, id: string, step: number): Promise<boolean> {
    const r = await db
      .updateTable('dashboard_users')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step as unknown as bigint)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  async replaceRecoveryCodes(db: Executor, id: string, hashes: Buffer[], now: Date) {
    await db.deleteFrom('dashboard_recovery_codes').where('dashboard_user_id', '=', id).execute();
    await db
      .insertInto('dashboard_recovery_codes')
      .values(hashes.map((code_hash) => ({ dashboard_user_id: id, code_hash, created_at: now, used_at: null })))
      .execute();
  },

  /** Marks an unused recovery code used; false when it is unknown or was used. */
  async useRecoveryCode(db: Executor, id: string, hash: Buffer, now: Date): Promise<boolean> {
    const r = await db
      .updateTable('dashboard_recovery_codes')
      .set({ used_at: now })
      .where('dashboard_user_id', '=', id)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  async countRecoveryCodesLeft(db: Executor, id: string): Promise<number> {
    const row = await db
      .selectFrom('dashboard_recovery_codes')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .where('dashboard_user_id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async insertReset(db: Executor, row: DashboardPasswordResetsTable) {
    await db.insertInto('dashboard_password_resets').values(row).execute();
  },

  /** Uses a reset link: its user when it is unused and not expired (then marked used), else undefined. */
  async claimReset(db: Executor, tokenHash: Buffer, now: Date): Promise<string | undefined> {
    const row = await db
      .updateTable('dashboard_password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('dashboard_user_id')
      .executeTakeFirst();
    return row?.dashboard_user_id;
  },

  async findReset(db: Executor, tokenHash: Buffer) {
    return db.selectFrom('dashboard_password_resets').select(['used_at', 'expires_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
  },

  /** Deletes up to `limit` reset links past their expiry (used or not). Returns how many. */
  async purgeExpiredResets(db: Executor, now: Date, limit: number): Promise<number> {
    const batch = db.selectFrom('dashboard_password_resets').select('token_hash').where('expires_at', '<=', now).limit(limit);
    const r = await db
      .deleteFrom('dashboard_password_resets')
      .where(sql<boolean>`token_hash = any(array(${batch}))`)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  },

  /** Every reset link of a user still open is closed (its password changed another way). */
  async closeResets(db: Executor, id: string, now: Date) {
    await db.updateTable('dashboard_password_resets').set({ used_at: now }).where('dashboard_user_id', '=', id).where('used_at', 'is', null).execute();
  },
};
