import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import type { Country } from '../../platform/countries.ts';
import type { KeyMode, KeyPermissions } from '../../platform/tenancy.ts';

/** Publishable (pk_…), secret (sk_…: everything) or restricted (rk_…: its permissions only). */
export type KeyKind = 'publishable' | 'secret' | 'restricted';
/** A dashboard user's team role; what each may do is the dashboard module's (dashboard.roles.ts). */
export type TeamRole = 'owner' | 'developer' | 'analyst' | 'support';

export interface MerchantsTable {
  id: string;
  name: string;
  email: string | null;
  intent_expires_in: Generated<number>;
  api_version: Generated<string>;
  created_at: Date;
  /** Own fee schedule (docs/spec/money-out.md); null: the configured default. */
  fee_bps: ColumnType<number | null, number | null | undefined, number | null>;
  fee_fixed: ColumnType<Record<string, number | string> | null, string | null | undefined, string | null>;
  /** The default language of its customers' messages. */
  language: Generated<'fr' | 'en'>;
  /** Own settlement delay in days (docs/spec/money-out.md); null: the configured default. */
  settlement_delay_days: ColumnType<number | null, number | null | undefined, number | null>;
  /** The rolling reserve: basis points of each charge's net held, for `reserve_days` (both null: off). */
  reserve_bps: ColumnType<number | null, number | null | undefined, number | null>;
  reserve_days: ColumnType<number | null, number | null | undefined, number | null>;
  /** Where it sells (docs/spec/providers.md): selects the providers and the currency offered. */
  country: Generated<Country>;
  /** Frozen by an operator (modules/operators): new intents, charges and payouts are refused. */
  frozen_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  frozen_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** Approved for live mode by an operator (modules/onboarding); null: live keys and calls refused. */
  approved_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface ApiKeysTable {
  id: string;
  merchant_id: string;
  kind: KeyKind;
  mode: KeyMode;
  name: string;
  key_hash: Buffer;
  display: string;
  allowed_origins: Generated<string[]>;
  /** A restricted key's permissions (null for the other kinds), written as JSON text. */
  permissions: ColumnType<KeyPermissions | null, string | null | undefined, string | null>;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  rolled_to: string | null;
}

export interface DashboardUsersTable {
  id: string;
  merchant_id: string;
  email: string;
  password_hash: string;
  failed_logins: Generated<number>;
  locked_until: Date | null;
  created_at: Date;
  /** The language the user chose for the dashboard; null: their browser's, then the merchant's. */
  language: ColumnType<'fr' | 'en' | null, 'fr' | 'en' | null | undefined, 'fr' | 'en' | null>;
  /** The TOTP secret, AES-256-GCM under the master key; set at enrolment, before it is enabled. */
  totp_secret_encrypted: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  totp_enabled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The last time step a code was accepted for: a code of that step or older is refused. */
  totp_last_step: ColumnType<bigint | null, number | null | undefined, number | null>;
  role: Generated<TeamRole>;
}

/** An invitation to a merchant's team: single use, 7 days; only the SHA-256 of its token is kept. */
export interface DashboardInvitationsTable {
  id: string;
  merchant_id: string;
  email: string;
  role: TeamRole;
  token_hash: Buffer;
  invited_by: string;
  invited_by_email: string;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  accepted_user_id: string | null;
  revoked_at: Date | null;
}

declare module '../../platform/database.ts' {
  interface Database {
    merchants: MerchantsTable;
    api_keys: ApiKeysTable;
    dashboard_users: DashboardUsersTable;
    dashboard_invitations: DashboardInvitationsTable;
  }
}

export type MerchantRow = Selectable<MerchantsTable>;
export type InvitationRow = Selectable<DashboardInvitationsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

export type KeyWithMerchant = ApiKeyRow & {
  merchant_api_version: string;
  merchant_intent_expires_in: number;
  merchant_name: string;
  merchant_fee_bps: number | null;
  merchant_fee_fixed: Record<string, number | string> | null;
  merchant_language: 'fr' | 'en';
  merchant_country: Country;
  merchant_settlement_delay_days: number | null;
  merchant_reserve_bps: number | null;
  merchant_reserve_days: number | null;
  merchant_frozen_at: Date | null;
  merchant_approved_at: Date | null;
};

export const merchantsRepository = {
  async insertMerchant(
    db: Executor,
    row: { id: string; name: string; email: string | null; language?: 'fr' | 'en'; country?: Country; created_at: Date; approved_at: Date | null },
  ) {
    return db.insertInto('merchants').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async findMerchant(db: Executor, id: string, opts: { forUpdate?: boolean } = {}) {
    const q = db.selectFrom('merchants').selectAll().where('id', '=', id);
    return (opts.forUpdate ? q.forUpdate() : q).executeTakeFirst();
  },

  async countMerchants(db: Executor): Promise<number> {
    const row = await db
      .selectFrom('merchants')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** Merchants whose id or e-mail is the text, or whose name or e-mail contains it; newest first. */
  async searchMerchants(db: Executor, text: string, limit: number) {
    let q = db.selectFrom('merchants').select(['id', 'name', 'email', 'country', 'frozen_at', 'created_at']);
    const t = text.trim();
    if (t !== '') {
      // LIKE's own characters are taken literally.
      const like = `%${t.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) => eb.or([eb('id', '=', t), eb(eb.fn('lower', ['name']), 'like', like), eb(eb.fn('lower', ['email']), 'like', like)]));
    }
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  },

  /** Sets or clears the freeze; answers the row as it was before, locked (undefined: no merchant). */
  async setApproved(db: Executor, id: string, at: Date | null) {
    await db.updateTable('merchants').set({ approved_at: at }).where('id', '=', id).execute();
  },

  async setFrozen(db: Executor, id: string, frozen: { at: Date; reason: string } | null) {
    const before = await db.selectFrom('merchants').select(['frozen_at', 'frozen_reason']).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!before) return undefined;
    await db
      .updateTable('merchants')
      .set({ frozen_at: frozen?.at ?? null, frozen_reason: frozen?.reason ?? null })
      .where('id', '=', id)
      .execute();
    return before;
  },

  async countKeys(db: Executor, merchantId: string, now: Date) {
    return db
      .selectFrom('api_keys')
      .select(['mode', (eb) => eb.fn.countAll<bigint>().as('n')])
      .where('merchant_id', '=', merchantId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .groupBy('mode')
      .execute();
  },

  async listMerchants(db: Executor, limit: number) {
    return db.selectFrom('merchants').select(['id', 'name', 'email', 'created_at']).orderBy('created_at').orderBy('id').limit(limit).execute();
  },

  async insertKey(
    db: Executor,
    row: Omit<ApiKeysTable, 'allowed_origins' | 'permissions' | 'last_used_at' | 'expires_at' | 'revoked_at' | 'rolled_to'> & {
      allowed_origins?: string[];
      permissions?: string | null;
    },
  ) {
    return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** The key with this hash and its merchant's pinned API version: one indexed query. */
  async findKeyByHash(db: Executor, hash: Buffer): Promise<KeyWithMerchant | undefined> {
    return db
      .selectFrom('api_keys')
      .innerJoin('merchants', 'merchants.id', 'api_keys.merchant_id')
      .selectAll('api_keys')
      .select([
        'merchants.api_version as merchant_api_version',
        'merchants.intent_expires_in as merchant_intent_expires_in',
        'merchants.name as merchant_name',
        'merchants.fee_bps as merchant_fee_bps',
        'merchants.fee_fixed as merchant_fee_fixed',
        'merchants.language as merchant_language',
        'merchants.country as merchant_country',
        'merchants.settlement_delay_days as merchant_settlement_delay_days',
        'merchants.reserve_bps as merchant_reserve_bps',
        'merchants.reserve_days as merchant_reserve_days',
        'merchants.frozen_at as merchant_frozen_at',
        'merchants.approved_at as merchant_approved_at',
      ])
      .where('api_keys.key_hash', '=', hash)
      .executeTakeFirst();
  },

  async findKey(db: Executor, id: string) {
    return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async listKeys(db: Executor, merchantId: string) {
    return db.selectFrom('api_keys').selectAll().where('merchant_id', '=', merchantId).orderBy('created_at').orderBy('id').execute();
  },

  async updateKey(
    db: Executor,
    id: string,
    patch: Partial<Pick<ApiKeyRow, 'expires_at' | 'revoked_at' | 'rolled_to' | 'last_used_at' | 'name' | 'allowed_origins'>>,
  ) {
    return db.updateTable('api_keys').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  },

  async touchKey(db: Executor, id: string, at: Date) {
    await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  },

  /** The pinned API version of each of these merchants. */
  async pinnedVersions(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .selectFrom('merchants')
      .select(['id', 'api_version'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((r) => [r.id, r.api_version]));
  },

  /** A dashboard account by e-mail (case-insensitive), with its merchant's name. */
  async findDashboardUserByEmail(db: Executor, email: string) {
    return db
      .selectFrom('dashboard_users')
      .innerJoin('merchants', 'merchants.id', 'dashboard_users.merchant_id')
      .select([
        'dashboard_users.id',
        'dashboard_users.merchant_id',
        'dashboard_users.email',
        'dashboard_users.password_hash',
        'dashboard_users.language',
        'dashboard_users.totp_enabled_at',
        'dashboard_users.role',
        'merchants.name as merchant_name',
        'merchants.api_version as merchant_api_version',
        'merchants.language as merchant_language',
      ])
      .where((eb) => eb(eb.fn('lower', ['dashboard_users.email']), '=', email))
      .executeTakeFirst();
  },

  /** A dashboard account by id, with its merchant's name and pinned API version. */
  async findDashboardUser(db: Executor, id: string) {
    return db
      .selectFrom('dashboard_users')
      .innerJoin('merchants', 'merchants.id', 'dashboard_users.merchant_id')
      .select([
        'dashboard_users.id',
        'dashboard_users.merchant_id',
        'dashboard_users.email',
        'dashboard_users.language',
        'dashboard_users.totp_enabled_at',
        'dashboard_users.role',
        'merchants.name as merchant_name',
        'merchants.api_version as merchant_api_version',
        'merchants.language as merchant_language',
        'merchants.approved_at as merchant_approved_at',
        'merchants.country as merchant_country',
      ])
      .where('dashboard_users.id', '=', id)
      .executeTakeFirst();
  },

  /** Sets a merchant's fee schedule (null: back to the configured default). */
  async setFees(db: Executor, id: string, bps: number | null, fixedMinor: Record<string, string> | null): Promise<boolean> {
    const r = await db
      .updateTable('merchants')
      .set({ fee_bps: bps, fee_fixed: fixedMinor === null ? null : JSON.stringify(fixedMinor) })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  async setCountry(db: Executor, id: string, country: Country): Promise<boolean> {
    const r = await db.updateTable('merchants').set({ country }).where('id', '=', id).executeTakeFirst();
    return r.numUpdatedRows > 0n;
  },

  async setLanguage(db: Executor, id: string, language: 'fr' | 'en'): Promise<boolean> {
    const r = await db.updateTable('merchants').set({ language }).where('id', '=', id).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  async setDashboardUserLanguage(db: Executor, id: string, language: 'fr' | 'en' | null): Promise<void> {
    await db.updateTable('dashboard_users').set({ language }).where('id', '=', id).execute();
  },

  /** Sets a merchant's settlement delay (null: back to the configured default). */
  async setSettlementDelay(db: Executor, id: string, days: number | null): Promise<boolean> {
    const r = await db.updateTable('merchants').set({ settlement_delay_days: days }).where('id', '=', id).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  /** Sets a merchant's rolling reserve (null: off). */
  async setReserve(db: Executor, id: string, reserve: { bps: number; days: number } | null): Promise<boolean> {
    const r = await db
      .updateTable('merchants')
      .set({ reserve_bps: reserve?.bps ?? null, reserve_days: reserve?.days ?? null })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  async insertDashboardUser(
    db: Executor,
    row: { id: string; merchant_id: string; email: string; password_hash: string; created_at: Date; role?: TeamRole; language?: 'fr' | 'en' | null },
  ) {
    return db.insertInto('dashboard_users').values(row).returningAll().executeTakeFirstOrThrow();
  },

  // ---- team ---------------------------------------------------------------------------------

  /** A merchant's dashboard users, oldest first (no password hashes). */
  async listDashboardUsers(db: Executor, merchantId: string) {
    return db
      .selectFrom('dashboard_users')
      .select(['id', 'email', 'role', 'created_at'])
      .where('merchant_id', '=', merchantId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  /** Every dashboard user of a merchant, locked: role changes and removals queue here, so the last owner stays. */
  async lockDashboardUsers(db: Executor, merchantId: string) {
    return db.selectFrom('dashboard_users').select(['id', 'email', 'role']).where('merchant_id', '=', merchantId).orderBy('id').forUpdate().execute();
  },

  async setDashboardUserRole(db: Executor, id: string, role: TeamRole): Promise<void> {
    await db.updateTable('dashboard_users').set({ role }).where('id', '=', id).execute();
  },

  async deleteDashboardUser(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('dashboard_users').where('id', '=', id).execute();
  },

  async insertInvitation(db: Executor, row: Omit<InvitationRow, 'accepted_at' | 'accepted_user_id' | 'revoked_at'>) {
    return db.insertInto('dashboard_invitations').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** An invitation by the hash of its token, locked when `lock` (acceptance: one use only). */
  async findInvitationByHash(db: Executor, hash: Buffer, lock = false) {
    const q = db.selectFrom('dashboard_invitations').selectAll().where('token_hash', '=', hash);
    return (lock ? q.forUpdate() : q).executeTakeFirst();
  },

  async findInvitation(db: Executor, merchantId: string, id: string) {
    return db.selectFrom('dashboard_invitations').selectAll().where('merchant_id', '=', merchantId).where('id', '=', id).forUpdate().executeTakeFirst();
  },

  /** Invitations neither used nor revoked nor expired, newest first. */
  async listPendingInvitations(db: Executor, merchantId: string, now: Date) {
    return db
      .selectFrom('dashboard_invitations')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .execute();
  },

  /** Revokes the pending invitations of an e-mail (a new one replaces them). */
  async revokePendingInvitationsOf(db: Executor, merchantId: string, email: string, at: Date): Promise<void> {
    await db
      .updateTable('dashboard_invitations')
      .set({ revoked_at: at })
      .where('merchant_id', '=', merchantId)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
  },

  async updateInvitation(db: Executor, id: string, patch: Partial<Pick<InvitationRow, 'accepted_at' | 'accepted_user_id' | 'revoked_at'>>) {
    return db.updateTable('dashboard_invitations').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },
};
