import type { ColumnType, Selectable } from 'kysely';
import type { Executor } from '../../platform/db.ts';

export type ProfileState = 'not_submitted' | 'submitted' | 'approved' | 'rejected';
export type DocumentType = 'application/pdf' | 'image/jpeg' | 'image/png';

/** What the merchant tells of its business; every field a string, '' until given. */
export interface ProfileDetails {
  legalName: string;
  tradeName: string;
  registrationNumber: string;
  taxNumber: string;
  address: string;
  activity: string;
  website: string;
  ownerName: string;
}

export interface MerchantSignupsTable {
  merchant_id: string;
  email: string;
  token_hash: Buffer;
  token_expires_at: Date;
  verified_at: Date | null;
  created_at: Date;
  /** How the current link was delivered: `smtp` or `outbox` (null before issue 52). */
  link_via: string | null;
  /** The link_via of the link that verified the address. */
  verified_via: string | null;
}

/** A sign-up waiting for its link: nothing else exists until it is opened. */
export interface MerchantSignupRequestsTable {
  email: string;
  business_name: string;
  country: string;
  language: string;
  password_hash: string;
  token_hash: Buffer;
  token_expires_at: Date;
  link_via: string;
  created_at: Date;
}

export interface MerchantProfilesTable {
  merchant_id: string;
  state: ProfileState;
  details: ColumnType<ProfileDetails, string, string>;
  rejection_reason: string | null;
  submitted_at: Date | null;
  reviewed_at: Date | null;
  reviewed_by: string | null;
  updated_at: Date;
}

export interface MerchantDocumentsTable {
  merchant_id: string;
  content_type: DocumentType;
  size: number;
  bytes_encrypted: Buffer;
  uploaded_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    merchant_signups: MerchantSignupsTable;
    merchant_signup_requests: MerchantSignupRequestsTable;
    merchant_profiles: MerchantProfilesTable;
    merchant_documents: MerchantDocumentsTable;
  }
}

export type ProfileRow = Selectable<MerchantProfilesTable>;
export type SignupRow = Selectable<MerchantSignupsTable>;
export type SignupRequestRow = Selectable<MerchantSignupRequestsTable>;

export const onboardingRepository = {
  async insertSignup(db: Executor, row: MerchantSignupsTable) {
    await db.insertInto('merchant_signups').values(row).execute();
  },

  async findSignup(db: Executor, merchantId: string) {
    return db.selectFrom('merchant_signups').selectAll().where('merchant_id', '=', merchantId).executeTakeFirst();
  },

  async findSignupByHash(db: Executor, hash: Buffer) {
    return db.selectFrom('merchant_signups').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  },

  async findUnverifiedSignupByEmail(db: Executor, email: string) {
    return db.selectFrom('merchant_signups').selectAll().where('email', '=', email).where('verified_at', 'is', null).executeTakeFirst();
  },

  /** The request of this address in place of the one before (whose link stops working). */
  async putRequest(db: Executor, row: MerchantSignupRequestsTable) {
    const { email: _email, ...rest } = row;
    await db
      .insertInto('merchant_signup_requests')
      .values(row)
      .onConflict((oc) => oc.column('email').doUpdateSet(rest))
      .execute();
  },

  /** Requests whose link expired, as of `now`: they would never become anything. */
  async deleteExpiredRequests(db: Executor, now: Date) {
    await db.deleteFrom('merchant_signup_requests').where('token_expires_at', '<=', now).execute();
  },

  async findRequestByHash(db: Executor, hash: Buffer) {
    return db.selectFrom('merchant_signup_requests').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  },

  async findRequestByEmail(db: Executor, email: string) {
    return db.selectFrom('merchant_signup_requests').selectAll().where('email', '=', email).executeTakeFirst();
  },

  /** Takes the request away; false when another verification took it first (the row lock decides). */
  async claimRequest(db: Executor, hash: Buffer): Promise<boolean> {
    const result = await db.deleteFrom('merchant_signup_requests').where('token_hash', '=', hash).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** A fresh link's hash in place of the one before (which stops working); false when it is gone. */
  async replaceRequestToken(db: Executor, email: string, hash: Buffer, expiresAt: Date, via: string): Promise<boolean> {
    const result = await db
      .updateTable('merchant_signup_requests')
      .set({ token_hash: hash, token_expires_at: expiresAt, link_via: via })
      .where('email', '=', email)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** A fresh link's hash in place of the one before (which stops working); false once verified. */
  async replaceToken(db: Executor, merchantId: string, hash: Buffer, expiresAt: Date, via: string): Promise<boolean> {
    const result = await db
      .updateTable('merchant_signups')
      .set({ token_hash: hash, token_expires_at: expiresAt, link_via: via })
      .where('merchant_id', '=', merchantId)
      .where('verified_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async markVerified(db: Executor, merchantId: string, at: Date, via: string | null) {
    await db
      .updateTable('merchant_signups')
      .set({ verified_at: at, verified_via: via })
      .where('merchant_id', '=', merchantId)
      .where('verified_at', 'is', null)
      .execute();
  },

  async insertProfile(db: Executor, merchantId: string, details: ProfileDetails, now: Date) {
    await db
      .insertInto('merchant_profiles')
      .values({
        merchant_id: merchantId,
        state: 'not_submitted',
        details: JSON.stringify(details),
        rejection_reason: null,
        submitted_at: null,
        reviewed_at: null,
        reviewed_by: null,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('merchant_id').doNothing())
      .execute();
  },

  async findProfile(db: Executor, merchantId: string, lock = false) {
    let q = db.selectFrom('merchant_profiles').selectAll().where('merchant_id', '=', merchantId);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  },

  async updateProfile(db: Executor, merchantId: string, patch: Partial<Omit<MerchantProfilesTable, 'merchant_id' | 'details'>> & { details?: string }) {
    return db.updateTable('merchant_profiles').set(patch).where('merchant_id', '=', merchantId).returningAll().executeTakeFirstOrThrow();
  },

  async listByState(db: Executor, state: ProfileState, limit: number) {
    return db
      .selectFrom('merchant_profiles')
      .innerJoin('merchants', 'merchants.id', 'merchant_profiles.merchant_id')
      .selectAll('merchant_profiles')
      .select(['merchants.name as merchant_name', 'merchants.country as merchant_country'])
      .where('merchant_profiles.state', '=', state)
      .orderBy('merchant_profiles.submitted_at')
      .limit(limit)
      .execute();
  },

  async putDocument(db: Executor, row: MerchantDocumentsTable) {
    await db
      .insertInto('merchant_documents')
      .values(row)
      .onConflict((oc) =>
        oc
          .column('merchant_id')
          .doUpdateSet({ content_type: row.content_type, size: row.size, bytes_encrypted: row.bytes_encrypted, uploaded_at: row.uploaded_at }),
      )
      .execute();
  },

  async documentInfo(db: Executor, merchantId: string) {
    return db.selectFrom('merchant_documents').select(['content_type', 'size', 'uploaded_at']).where('merchant_id', '=', merchantId).executeTakeFirst();
  },

  async document(db: Executor, merchantId: string) {
    return db.selectFrom('merchant_documents').selectAll().where('merchant_id', '=', merchantId).executeTakeFirst();
  },
};
