import { type ColumnType, type Generated, type Selectable, sql } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import type { OperatorAuditAction, OperatorRole } from './operators.roles.ts';

export interface OperatorsTable {
  id: string;
  email: string;
  password_hash: string;
  role: OperatorRole;
  totp_secret_encrypted: Buffer | null;
  totp_enabled_at: Date | null;
  totp_last_step: ColumnType<bigint | null, number | null | undefined, number | null>;
  invited_by: string | null;
  created_at: Date;
}

export interface OperatorSessionsTable {
  token_hash: Buffer;
  id: string;
  operator_id: string;
  /** `enrol`: password given, no TOTP yet (only enrolment is open); `full`: signed in. */
  stage: 'enrol' | 'full';
  address: string | null;
  user_agent: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  absolute_expires_at: Date;
}

export interface OperatorAuditLogTable {
  id: string;
  seq: Generated<string>;
  actor_id: string | null;
  actor_email: string;
  action: OperatorAuditAction;
  target_type: string | null;
  target_id: string | null;
  before: ColumnType<unknown, string | null, never>;
  after: ColumnType<unknown, string | null, never>;
  reason: string | null;
  created_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    operators: OperatorsTable;
    operator_sessions: OperatorSessionsTable;
    operator_audit_log: OperatorAuditLogTable;
  }
}

export type OperatorRow = Selectable<OperatorsTable>;
export type OperatorAuditRow = Selectable<OperatorAuditLogTable>;

export const operatorsRepository = {
  async insertOperator(db: Executor, row: Omit<OperatorRow, 'totp_secret_encrypted' | 'totp_enabled_at' | 'totp_last_step'>): Promise<OperatorRow> {
    return db.insertInto('operators').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async findOperator(db: Executor, id: string): Promise<OperatorRow | undefined> {
    return db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async findOperatorByEmail(db: Executor, email: string): Promise<OperatorRow | undefined> {
    return db
      .selectFrom('operators')
      .selectAll()
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  },

  async listOperators(db: Executor): Promise<OperatorRow[]> {
    return db.selectFrom('operators').selectAll().orderBy('created_at').orderBy('id').execute();
  },

  async setTotpSecret(db: Executor, id: string, encrypted: Buffer): Promise<void> {
    await db.updateTable('operators').set({ totp_secret_encrypted: encrypted, totp_enabled_at: null, totp_last_step: null }).where('id', '=', id).execute();
  },

  async enableTotp(db: Executor, id: string, at: Date): Promise<void> {
    await db.updateTable('operators').set({ totp_enabled_at: at }).where('id', '=', id).execute();
  },

  /** Claims a TOTP step for the operator: false when it (or a later one) was already accepted. */
  async claimTotpStep(db: Executor, id: string, step: number): Promise<boolean> {
    const r = await db
      .updateTable('operators')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step as unknown as bigint)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  // ---- sessions -----------------------------------------------------------------------------

  async insertSession(db: Executor, row: OperatorSessionsTable): Promise<void> {
    await db.insertInto('operator_sessions').values(row).execute();
  },

  async findSession(db: Executor, tokenHash: Buffer) {
    return db.selectFrom('operator_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  },

  async touchSession(db: Executor, tokenHash: Buffer, now: Date, expiresAt: Date): Promise<void> {
    await db.updateTable('operator_sessions').set({ last_seen_at: now, expires_at: expiresAt }).where('token_hash', '=', tokenHash).execute();
  },

  async upgradeSession(db: Executor, tokenHash: Buffer): Promise<void> {
    await db.updateTable('operator_sessions').set({ stage: 'full' }).where('token_hash', '=', tokenHash).execute();
  },

  /** A session's new token (rotation): the same row, its other columns kept. */
  async rekeySession(db: Executor, oldHash: Buffer, newHash: Buffer, seenAt: Date, expiresAt: Date): Promise<void> {
    await db
      .updateTable('operator_sessions')
      .set({ token_hash: newHash, last_seen_at: seenAt, expires_at: expiresAt })
      .where('token_hash', '=', oldHash)
      .execute();
  },

  async deleteSession(db: Executor, tokenHash: Buffer): Promise<void> {
    await db.deleteFrom('operator_sessions').where('token_hash', '=', tokenHash).execute();
  },

  /** Retention: up to `limit` sessions past their idle or absolute expiry; how many went. */
  async purgeExpiredSessions(db: Executor, now: Date, limit: number): Promise<number> {
    const doomed = db
      .selectFrom('operator_sessions')
      .select('token_hash')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('absolute_expires_at', '<=', now)]))
      .limit(limit);
    const r = await db.deleteFrom('operator_sessions').where('token_hash', 'in', doomed).executeTakeFirst();
    return Number(r.numDeletedRows);
  },

  async deleteExpiredSessions(db: Executor, operatorId: string, now: Date): Promise<void> {
    await db.deleteFrom('operator_sessions').where('operator_id', '=', operatorId).where('expires_at', '<=', now).execute();
  },

  // ---- audit log ----------------------------------------------------------------------------

  async insertAudit(db: Executor, row: Omit<OperatorAuditRow, 'seq' | 'before' | 'after'> & { before: string | null; after: string | null }): Promise<void> {
    await db.insertInto('operator_audit_log').values(row).execute();
  },

  /** Entries newest (last written) first, of one target if asked, after a cursor (an entry id). */
  async listAudit(db: Executor, q: { targetId?: string; startingAfter?: string; limit: number }): Promise<OperatorAuditRow[]> {
    let query = db.selectFrom('operator_audit_log').selectAll();
    if (q.targetId !== undefined) query = query.where('target_id', '=', q.targetId);
    if (q.startingAfter !== undefined) {
      const cursor = db.selectFrom('operator_audit_log').select('seq').where('id', '=', q.startingAfter);
      query = query.where('seq', '<', cursor);
    }
    return query.orderBy('seq', 'desc').limit(q.limit).execute();
  },
};
