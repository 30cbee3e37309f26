import { type ColumnType, type Generated, type Insertable, type Selectable, sql } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import { prepare } from '../../platform/prepared.ts';
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
  /** Set on a user merged into another at the move to customers: it can no longer be found. */
  merged_into: ColumnType<string | null, string | null | undefined, string | null>;
  /** Raised by every password reset or change: access tokens of an older version are refused. */
  token_version: Generated<number>;
  /** The customer's language for their messages; null: none chosen yet. */
  language: ColumnType<'fr' | 'en' | null, 'fr' | 'en' | null | undefined, 'fr' | 'en' | null>;
  /** Set while an operator has locked the customer: no sign-in, no token works. */
  locked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  locked_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Which merchants see a customer (docs/spec/customers.md): registration, test helpers, a payment attempt. */
export interface CustomerLinksTable {
  merchant_id: string;
  mode: KeyMode;
  user_id: string;
  linked_at: Date;
}

/** A password reset code: one live per customer, its keyed hash only. */
export interface PasswordResetsTable {
  user_id: string;
  code_hash: Buffer;
  expires_at: Date;
  created_at: Date;
}

/** A session of the customer's own account page: the cookie's token as SHA-256 only. */
export interface AccountSessionsTable {
  token_hash: Buffer;
  user_id: string;
  mode: KeyMode;
  token_version: number;
  created_at: Date;
  expires_at: Date;
}

/** Tables of one-time codes of one live code per customer: password resets, account sign-ins. */
type CodeTable = 'password_resets' | 'account_codes';

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
    customer_links: CustomerLinksTable;
    password_resets: PasswordResetsTable;
    account_codes: PasswordResetsTable;
    account_sessions: AccountSessionsTable;
    phone_verifications: PhoneVerificationsTable;
    signing_keys: SigningKeysTable;
  }
}

export type UserRow = Selectable<UsersTable>;
export type PhoneVerificationRow = Selectable<PhoneVerificationsTable>;
export type SigningKeyRow = Selectable<SigningKeysTable>;

/** Any constant: the advisory lock taken while a signing key is created or rotated. */
const SIGNING_KEYS_LOCK = 72_616_472;

// Read or written by every payment: compiled once (platform/prepared.ts).
const findUserById = prepare((db, p: { id: string; mode: KeyMode }) =>
  db.selectFrom('users').selectAll().where('id', '=', p.id).where('mode', '=', p.mode).where('merged_into', 'is', null),
);
// Nobody reads its answer: inside a payment's transaction it rides with the next statement.
const linkCustomer = prepare(
  (db, p: { merchant_id: string; mode: KeyMode; user_id: string; linked_at: Date }) =>
    db
      .insertInto('customer_links')
      .values({ merchant_id: p.merchant_id, mode: p.mode, user_id: p.user_id, linked_at: p.linked_at })
      .onConflict((oc) => oc.columns(['merchant_id', 'user_id']).doNothing()),
  { deferred: true },
);
// Where a code goes, and whether the merchant already sees the customer (sent ahead by initOtp).
const contactOf = prepare((db, p: { id: string; mode: KeyMode; merchantId: string }) =>
  db
    .selectFrom('users as u')
    .select(['u.email', 'u.phone_number', 'u.phone_verified_at', 'u.language'])
    .select((eb) =>
      eb
        .exists(eb.selectFrom('customer_links as l').select('l.user_id').where('l.merchant_id', '=', p.merchantId).whereRef('l.user_id', '=', 'u.id'))
        .as('linked'),
    )
    .where('u.id', '=', p.id)
    .where('u.mode', '=', p.mode)
    .where('u.merged_into', 'is', null),
);
const tokenVersionOf = prepare((db, p: { id: string }) =>
  db.selectFrom('users').select('token_version').where('id', '=', p.id).where('merged_into', 'is', null),
);

export const usersRepository = {
  /** Inserts a customer unless one of this mode has the phone number (then undefined). */
  async insertUser(db: Executor, row: Insertable<UsersTable>): Promise<UserRow | undefined> {
    return db
      .insertInto('users')
      .values(row)
      .onConflict((oc) => oc.columns(['mode', 'phone_number']).where('merged_into', 'is', null).doNothing())
      .returningAll()
      .executeTakeFirst();
  },

  /** The customer with this id in this mode, whichever merchant (a token holder acts for it). */
  async findUser(db: Executor, mode: KeyMode, id: string): Promise<UserRow | undefined> {
    return findUserById.first(db, { id, mode });
  },

  /** The operator console: a customer by id (any mode), or every mode's customer of a number. */
  async findAnyUser(db: Executor, id: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).where('merged_into', 'is', null).executeTakeFirst();
  },

  async findUsersByPhone(db: Executor, phoneNumber: string): Promise<UserRow[]> {
    return db.selectFrom('users').selectAll().where('phone_number', '=', phoneNumber).where('merged_into', 'is', null).orderBy('mode').execute();
  },

  /** Locks (raising the token version: its tokens stop) or unlocks a customer. */
  async setLocked(db: Executor, id: string, lock: { at: Date; reason: string } | null): Promise<void> {
    await db
      .updateTable('users')
      .set((eb) =>
        lock ? { locked_at: lock.at, locked_reason: lock.reason, token_version: eb('token_version', '+', 1) } : { locked_at: null, locked_reason: null },
      )
      .where('id', '=', id)
      .execute();
  },

  async findUserByPhone(db: Executor, mode: KeyMode, phoneNumber: string): Promise<UserRow | undefined> {
    return db
      .selectFrom('users')
      .selectAll()
      .where('mode', '=', mode)
      .where('phone_number', '=', phoneNumber)
      .where('merged_into', 'is', null)
      .executeTakeFirst();
  },

  /** The customer locked for this transaction (a password change and a payment never interleave). */
  async lockUser(db: Executor, id: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).where('merged_into', 'is', null).forUpdate().executeTakeFirst();
  },

  /** The customer if the merchant sees it (a link), else undefined. */
  async findLinkedUser(db: Executor, scope: Scope, id: string) {
    return db
      .selectFrom('users as u')
      .innerJoin('customer_links as l', (join) => join.onRef('l.user_id', '=', 'u.id').on('l.merchant_id', '=', scope.merchantId))
      .selectAll('u')
      .select('l.linked_at')
      .where('u.id', '=', id)
      .where('u.mode', '=', scope.mode)
      .where('u.merged_into', 'is', null)
      .executeTakeFirst();
  },

  /** The merchant's customers, newest user first; one more row than asked. */
  /** The phone numbers of these customers of the merchant (those linked to it), by id. */
  async phoneNumbersOfLinked(db: Executor, scope: Scope, ids: readonly string[]) {
    if (ids.length === 0) return [];
    return db
      .selectFrom('users as u')
      .innerJoin('customer_links as l', (join) => join.onRef('l.user_id', '=', 'u.id').on('l.merchant_id', '=', scope.merchantId))
      .select(['u.id', 'u.phone_number'])
      .where('u.mode', '=', scope.mode)
      .where('u.id', 'in', [...ids])
      .execute();
  },

  async listLinkedUsers(db: Executor, scope: Scope, q: { limit: number; startingAfter?: string }) {
    let query = db
      .selectFrom('users as u')
      .innerJoin('customer_links as l', (join) => join.onRef('l.user_id', '=', 'u.id').on('l.merchant_id', '=', scope.merchantId))
      .selectAll('u')
      .select('l.linked_at')
      .where('u.mode', '=', scope.mode)
      .where('u.merged_into', 'is', null);
    if (q.startingAfter !== undefined) query = query.where('u.id', '<', q.startingAfter);
    return query
      .orderBy('u.id', 'desc')
      .limit(q.limit + 1)
      .execute();
  },

  /**
   * The merchant's customers whose phone number ends with `digits` (the users_phone_suffix index of
   * migration 0024 reads `reverse(phone_number) like 'reversed digits%'`), at most `limit`.
   */
  async findLinkedByPhoneSuffix(db: Executor, scope: Scope, digits: string, limit: number): Promise<string[]> {
    const rows = await db
      .selectFrom('users as u')
      .innerJoin('customer_links as l', (join) => join.onRef('l.user_id', '=', 'u.id').on('l.merchant_id', '=', scope.merchantId))
      .select('u.id')
      .where('u.mode', '=', scope.mode)
      .where('u.merged_into', 'is', null)
      .where(sql<string>`reverse(u.phone_number)`, 'like', `${[...digits].reverse().join('')}%`)
      .orderBy('u.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  },

  /** Lets the merchant see the customer from now on (idempotent). */
  async link(db: Executor, row: Insertable<CustomerLinksTable>): Promise<void> {
    await linkCustomer.execute(db, { merchant_id: row.merchant_id, mode: row.mode, user_id: row.user_id, linked_at: row.linked_at });
  },

  /** A customer's contact details and whether `merchantId` sees them, sent ahead (Prepared.ahead). */
  async contactAhead(db: Executor, q: { id: string; mode: KeyMode; merchantId: string }) {
    return (await contactOf.ahead(db, q))[0];
  },

  /** The customer's token version, or undefined when it no longer exists. */
  async tokenVersion(db: Executor, id: string): Promise<number | undefined> {
    const row = await tokenVersionOf.first(db, { id });
    return row?.token_version;
  },

  /** A new password: the token version goes up (older tokens are refused) when `voidTokens`. */
  async setPassword(db: Executor, id: string, passwordHash: string, voidTokens: boolean): Promise<UserRow> {
    return db
      .updateTable('users')
      .set((eb) => ({ password_hash: passwordHash, ...(voidTokens ? { token_version: eb('token_version', '+', 1) } : {}) }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async setLanguage(db: Executor, id: string, language: 'fr' | 'en'): Promise<UserRow | undefined> {
    return db.updateTable('users').set({ language }).where('id', '=', id).where('merged_into', 'is', null).returningAll().executeTakeFirst();
  },

  async updateUnverified(
    db: Executor,
    id: string,
    patch: { password_hash: string; email: string | null; language?: 'fr' | 'en' | null },
  ): Promise<UserRow | undefined> {
    return db.updateTable('users').set(patch).where('id', '=', id).where('phone_verified_at', 'is', null).returningAll().executeTakeFirst();
  },

  async saveReset(db: Executor, row: PasswordResetsTable, table: CodeTable = 'password_resets'): Promise<void> {
    await db
      .insertInto(table)
      .values(row)
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ code_hash: row.code_hash, expires_at: row.expires_at, created_at: row.created_at }))
      .execute();
  },

  async lockReset(db: Executor, userId: string, table: CodeTable = 'password_resets') {
    return db.selectFrom(table).selectAll().where('user_id', '=', userId).forUpdate().executeTakeFirst();
  },

  async deleteReset(db: Executor, userId: string, table: CodeTable = 'password_resets'): Promise<void> {
    await db.deleteFrom(table).where('user_id', '=', userId).execute();
  },

  async insertAccountSession(db: Executor, row: AccountSessionsTable): Promise<void> {
    await db.insertInto('account_sessions').values(row).execute();
  },

  /** A live session of the account page, with its customer's current token version. */
  async findAccountSession(db: Executor, tokenHash: Buffer, mode: KeyMode, now: Date) {
    return db
      .selectFrom('account_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.user_id', 's.token_version', 'u.token_version as current_version', 'u.language'])
      .where('s.token_hash', '=', tokenHash)
      .where('s.mode', '=', mode)
      .where('s.expires_at', '>', now)
      .executeTakeFirst();
  },

  async purgeExpiredAccountRows(db: Executor, now: Date, limit: number): Promise<number> {
    const sessions = db.selectFrom('account_sessions').select('token_hash').where('expires_at', '<=', now).limit(limit);
    const codes = db.selectFrom('account_codes').select('user_id').where('expires_at', '<=', now).limit(limit);
    const a = await db
      .deleteFrom('account_sessions')
      .where(sql<boolean>`token_hash = any(array(${sessions}))`)
      .executeTakeFirst();
    const b = await db
      .deleteFrom('account_codes')
      .where(sql<boolean>`user_id = any(array(${codes}))`)
      .executeTakeFirst();
    return Number(a.numDeletedRows) + Number(b.numDeletedRows);
  },

  async deleteAccountSession(db: Executor, tokenHash: Buffer): Promise<void> {
    await db.deleteFrom('account_sessions').where('token_hash', '=', tokenHash).execute();
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
