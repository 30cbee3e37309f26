import { type Generated, type Selectable, sql } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import type { KeyMode, Scope } from '../../platform/tenancy.ts';

export interface UsersTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  phone_number: string;
  email: string | null;
  password_hash: string;
  phone_verified_at: Date | null;
  created_at: Date;
}

export interface PhoneVerificationsTable {
  user_id: string;
  code_hash: Buffer;
  attempts: Generated<number>;
  expires_at: Date;
  created_at: Date;
}

export interface SigningKeysTable {
  kid: string;
  algorithm: Generated<string>;
  public_jwk: Record<string, unknown>;
  private_key_enc: Buffer;
  created_at: Date;
  retired_at: Date | null;
}

declare module '../../platform/database.ts' {
  interface Database {
    users: UsersTable;
    phone_verifications: PhoneVerificationsTable;
    signing_keys: SigningKeysTable;
  }
}

export type UserRow = Selectable<UsersTable>;
export type PhoneVerificationRow = Selectable<PhoneVerificationsTable>;
export type SigningKeyRow = Selectable<SigningKeysTable>;

/** Any constant: the advisory lock taken while a signing key is created or rotated. */
const SIGNING_KEYS_LOCK = 72_616_472;

export const usersRepository = {
  async insertUser(db: Executor, row: UsersTable): Promise<UserRow | undefined> {
    return db
      .insertInto('users')
      .values(row)
      .onConflict((oc) => oc.columns(['merchant_id', 'mode', 'phone_number']).doNothing())
      .returningAll()
      .executeTakeFirst();
  },

  async findUser(db: Executor, scope: Scope, id: string): Promise<UserRow | undefined> {
    return db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .executeTakeFirst();
  },

  async findUserByPhone(db: Executor, scope: Scope, phoneNumber: string): Promise<UserRow | undefined> {
    return db
      .selectFrom('users')
      .selectAll()
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('phone_number', '=', phoneNumber)
      .executeTakeFirst();
  },

  async markPhoneVerified(db: Executor, id: string, at: Date): Promise<UserRow> {
    return db.updateTable('users').set({ phone_verified_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },

  async saveVerification(db: Executor, row: Omit<PhoneVerificationsTable, 'attempts'>): Promise<void> {
    await db
      .insertInto('phone_verifications')
      .values({ ...row, attempts: 0 })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ code_hash: row.code_hash, expires_at: row.expires_at, created_at: row.created_at, attempts: 0 }))
      .execute();
  },

  /** The user's code, locked for the duration of the transaction (attempts are counted exactly). */
  async lockVerification(db: Executor, userId: string): Promise<PhoneVerificationRow | undefined> {
    return db.selectFrom('phone_verifications').selectAll().where('user_id', '=', userId).forUpdate().executeTakeFirst();
  },

  async countVerificationAttempt(db: Executor, userId: string): Promise<void> {
    await db
      .updateTable('phone_verifications')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('user_id', '=', userId)
      .execute();
  },

  async deleteVerification(db: Executor, userId: string): Promise<void> {
    await db.deleteFrom('phone_verifications').where('user_id', '=', userId).execute();
  },

  // --- signing keys ---------------------------------------------------------------------------

  /** Serialises key creation and rotation across processes (transaction-scoped advisory lock). */
  async lockSigningKeys(db: Executor): Promise<void> {
    await sql`select pg_advisory_xact_lock(${SIGNING_KEYS_LOCK})`.execute(db);
  },

  async insertSigningKey(db: Executor, row: Omit<SigningKeysTable, 'algorithm'>): Promise<void> {
    await db.insertInto('signing_keys').values(row).execute();
  },

  /** Keys not retired, or retired after `retiredAfter`: the ones that may have live tokens. */
  async publishedSigningKeys(db: Executor, retiredAfter: Date): Promise<SigningKeyRow[]> {
    return db
      .selectFrom('signing_keys')
      .selectAll()
      .where((eb) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', retiredAfter)]))
      .orderBy('created_at', 'desc')
      .execute();
  },

  async retireSigningKeys(db: Executor, at: Date): Promise<void> {
    await db.updateTable('signing_keys').set({ retired_at: at }).where('retired_at', 'is', null).execute();
  },
};
