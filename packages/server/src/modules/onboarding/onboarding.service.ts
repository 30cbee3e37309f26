import { HOUR } from '../../platform/clock.ts';
import { retryAfterHeader } from '../../platform/codes.ts';
import type { Country } from '../../platform/countries.ts';
import { decrypt, encrypt, randomToken, sha256 } from '../../platform/crypto.ts';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { type Language, translator } from '../../platform/i18n.ts';
import type { MerchantsService } from '../merchants/index.ts';
import type { MessagingService } from '../messaging/index.ts';
import { assertPasswordPolicy } from '../users/index.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { type AttemptRule, createThrottle } from '../../platform/throttle.ts';
import { checkDocument } from './onboarding.documents.ts';
import { type ProfileDetails, type ProfileRow, type ProfileState, onboardingRepository as repo } from './onboarding.repository.ts';

/** An e-mail verification link works for 7 days. */
export const VERIFICATION_TTL_MS = 7 * 24 * HOUR;
/** `ver_` + 32 random bytes in base62; the logs mask `token` parameters and members. */
const VERIFICATION_TOKEN_SHAPE = /^ver_[0-9A-Za-z]{40,50}$/;
/** The review list shows at most this many, oldest submission first. */
const REVIEW_LIST_LIMIT = 100;
/** Verification links resent: 3 an hour per e-mail address, 10 an hour per client address. */
export const RESEND_PER_EMAIL = 3;
export const RESEND_PER_ADDRESS = 10;

/** Sign-ups with one e-mail address: 3 an hour (each sends an e-mail to it). */
export const SIGNUP_PER_EMAIL = 3;

/** What a sign-up answers, the same for a new address and one with an account. */
export interface SignUpAnswer {
  object: 'sign_up_request';
  expiresInSeconds: number;
  /** Where the e-mail went: `email` (SMTP), or `operator_outbox` (no SMTP: development). */
  delivery: 'email' | 'operator_outbox';
}

/** A delivery as the console shows it: SMTP (a real mailbox) or the development outbox. */
function viaOf(provider: string | null): 'smtp' | 'outbox' | null {
  if (provider === null) return null;
  return provider === 'outbox' ? 'outbox' : 'smtp';
}

/** A verification that another opening of the same link did first. */
class ClaimedElsewhere extends Error {}

/**
 * The tax number's local name, by country: Cameroon's NIU, Senegal's NINEA, Côte d'Ivoire's NCC,
 * the IFU of Benin and Burkina Faso (identifiant fiscal unique), the NIF of Mali and Togo.
 */
export const TAX_NUMBER_NAMES: Record<Country, string> = { CM: 'NIU', SN: 'NINEA', CI: 'NCC', BJ: 'IFU', BF: 'IFU', ML: 'NIF', TG: 'NIF' };

const EMPTY_DETAILS: ProfileDetails = {
  legalName: '',
  tradeName: '',
  registrationNumber: '',
  taxNumber: '',
  address: '',
  activity: '',
  website: '',
  ownerName: '',
};
/** What a profile needs before it is submitted (the trade name may be the legal name: optional). */
const REQUIRED: (keyof ProfileDetails)[] = ['legalName', 'registrationNumber', 'taxNumber', 'address', 'activity', 'website', 'ownerName'];

/** The before and after of a review, as the operator audit log records them. */
export interface ReviewState {
  state: ProfileState;
  rejectionReason: string | null;
}

/**
 * Merchant sign-up and the business profile reviewed for live mode (issue 34): the sign-up with
 * its e-mail verification, the profile and the owner's identity document (encrypted with the
 * master key, in a table of its own), and the operator's review. Rules in
 * docs/decisions/0037-merchant-sign-up.md.
 */
export function createOnboardingService(deps: Deps, services: { merchants: MerchantsService; messaging: MessagingService }) {
  const { db, clock, random, config } = deps;
  const { merchants, messaging } = services;
  const throttle = createThrottle(deps);
  // Where proofs of control go is a fact of the configuration, the same for every address.
  const delivery = config.messaging.email.provider === 'smtp' ? ('email' as const) : ('operator_outbox' as const);
  const answer: SignUpAnswer = { object: 'sign_up_request', expiresInSeconds: VERIFICATION_TTL_MS / 1000, delivery };

  /** E-mail as the invitations send it: SMTP (live channel) when configured, else the test outbox. */
  async function sendEmail(merchantId: string, to: string, subject: string, body: string, code?: string) {
    const mode = config.messaging.email.provider === 'smtp' || config.mode === 'production' ? 'live' : 'test';
    await messaging.send({ merchantId, mode, userId: null, channel: 'email', to, subject, body, code });
  }

  async function merchantOf(merchantId: string) {
    const merchant = await merchants.findMerchant(merchantId);
    if (!merchant) throw new ApiError('not_found', `No merchant ${merchantId}`, { param: 'id' });
    return merchant;
  }

  async function profileView(merchantId: string, row?: ProfileRow) {
    const merchant = await merchantOf(merchantId);
    const profile = row ?? (await repo.findProfile(db, merchantId));
    const signup = await repo.findSignup(db, merchantId);
    const document = await repo.documentInfo(db, merchantId);
    return {
      object: 'business_profile' as const,
      merchantId,
      merchantName: merchant.name,
      country: merchant.country,
      taxNumberName: TAX_NUMBER_NAMES[merchant.country],
      // Merchants made by the CLI have no profile: approved at creation.
      state: profile?.state ?? (merchant.approved ? 'approved' : 'not_submitted'),
      liveApproved: merchant.approved,
      emailVerified: signup === undefined || signup.verified_at !== null,
      // How the link that verified it was delivered: only `smtp` shows the owner read a real mailbox.
      emailVerifiedVia: signup?.verified_at ? viaOf(signup.verified_via) : null,
      details: { ...EMPTY_DETAILS, ...(profile?.details ?? {}) },
      shortName: await merchants.shortName(merchantId),
      document: document ? { contentType: document.content_type, size: document.size, uploadedAt: document.uploaded_at.toISOString() } : null,
      rejectionReason: profile?.rejection_reason ?? null,
      submittedAt: profile?.submitted_at?.toISOString() ?? null,
      reviewedAt: profile?.reviewed_at?.toISOString() ?? null,
    };
  }

  /** The profile locked for a change by the merchant: only before submission or after a rejection. */
  async function editable(tx: Executor, merchantId: string): Promise<ProfileRow> {
    const row = await repo.findProfile(tx, merchantId, true);
    if (!row) throw new ApiError('profile_state_invalid', 'This merchant was onboarded by the platform operator: it has no profile to change');
    if (row.state === 'submitted') throw new ApiError('profile_state_invalid', 'The profile is being reviewed: it cannot change until the review is done');
    if (row.state === 'approved') throw new ApiError('profile_state_invalid', 'The profile is approved: ask the platform operator to change it');
    return row;
  }

  return {
    /**
     * A sign-up request (issue 52): nothing is created until its link is opened, and the answer is
     * the same whoever owns the address. A new address gets the verification link; an address with
     * a dashboard account gets a notice that someone tried to sign up with it; the password is
     * hashed either way. Both e-mails are proofs of control (messaging's operator outbox without
     * SMTP). A second request of the same address replaces the first. Limited per address
     * (`signup:email:`, 429 whoever asks) besides the route's per-client limit.
     */
    async signUp(input: { businessName: string; country: Country; email: string; password: string; language: Language }, base: string): Promise<SignUpAnswer> {
      const email = input.email.trim().toLowerCase();
      const name = input.businessName.trim();
      if (name === '') throw new ApiError('validation_error', 'Give the name of the business', { param: 'businessName' });
      assertPasswordPolicy(input.password, null);
      await throttle.begin(`signup:email:${email}`, {
        max: SIGNUP_PER_EMAIL,
        windowMs: HOUR,
        refuse: (ms) => new ApiError('rate_limited', 'Too many sign-ups with this e-mail address; try again later', { headers: retryAfterHeader(ms) }),
      });
      const passwordHash = await hashPassword(input.password);
      const existing = await merchants.findDashboardAccountByEmail(email);
      const now = clock.now();
      if (existing) {
        const t = translator({ saved: existing.language, merchantDefault: existing.merchant_language });
        const text = t.text('onboarding.tried', { email, merchant: existing.merchant_name, signIn: `${base}/dashboard` });
        await messaging.sendProof({
          merchantId: existing.merchant_id,
          userId: existing.id,
          channel: 'email',
          to: email,
          subject: t.text('onboarding.triedSubject'),
          body: text,
        });
        return answer;
      }
      const token = `ver_${randomToken(random, 32)}`;
      const t = translator({ saved: input.language });
      const link = `${base}/dashboard/verify-email?token=${token}`;
      const staged = await db.transaction().execute(async (tx) => {
        await repo.deleteExpiredRequests(tx, now);
        const message = await messaging.stageProof(tx, {
          merchantId: null,
          userId: null,
          channel: 'email',
          to: email,
          subject: t.text('onboarding.verifySubject'),
          body: t.text('onboarding.verify', { merchant: name, link }),
          code: token,
        });
        await repo.putRequest(tx, {
          email,
          business_name: name,
          country: input.country,
          language: input.language,
          password_hash: passwordHash,
          token_hash: sha256(token),
          token_expires_at: new Date(now.getTime() + VERIFICATION_TTL_MS),
          link_via: message.provider,
          created_at: now,
        });
        return message;
      });
      await staged.deliver();
      return answer;
    },

    /**
     * Verifies the address by its link: a waiting request becomes the merchant (not approved for
     * live mode), its owner's account and an empty profile, in one transaction; a sign-up made
     * before issue 52 (merchant already there) is marked verified. A link used again answers the
     * same (it did its work). The link's delivery (`smtp`, `outbox`) is kept as how the address
     * was verified.
     */
    async verifyEmail(token: string) {
      const hash = VERIFICATION_TOKEN_SHAPE.test(token) ? sha256(token) : undefined;
      const invalid = () =>
        new ApiError('verification_link_invalid', 'This verification link is not known or has expired: sign up again or ask for a new one', { param: 'token' });
      const now = clock.now();
      const request = hash && (await repo.findRequestByHash(db, hash));
      if (request && request.token_expires_at > now) {
        if (await merchants.findDashboardAccountByEmail(request.email)) {
          // The address got an account meanwhile (an invitation): this sign-up has nothing to make.
          await repo.claimRequest(db, request.token_hash);
          throw new ApiError('verification_link_invalid', `${request.email} has a dashboard account already: sign in instead`, { param: 'token' });
        }
        const language: Language = request.language === 'en' ? 'en' : 'fr';
        try {
          await merchants.createMerchant(
            {
              name: request.business_name,
              email: request.email,
              passwordHash: request.password_hash,
              language,
              country: request.country as Country,
              approved: false,
            },
            async (tx, merchantId) => {
              // The row lock decides between two openings of the link at once: the second rolls back.
              if (!(await repo.claimRequest(tx, request.token_hash))) throw new ClaimedElsewhere();
              await repo.insertSignup(tx, {
                merchant_id: merchantId,
                email: request.email,
                token_hash: request.token_hash,
                token_expires_at: request.token_expires_at,
                verified_at: now,
                created_at: request.created_at,
                link_via: request.link_via,
                verified_via: request.link_via,
              });
              await repo.insertProfile(tx, merchantId, EMPTY_DETAILS, now);
            },
          );
        } catch (err) {
          if (!(err instanceof ClaimedElsewhere)) throw err;
        }
        return { object: 'email_verification' as const, email: request.email, verified: true as const };
      }
      const row = hash && (await repo.findSignupByHash(db, hash));
      if (!row || (row.verified_at === null && row.token_expires_at <= now)) throw invalid();
      await repo.markVerified(db, row.merchant_id, now, row.link_via);
      return { object: 'email_verification' as const, email: row.email, verified: true as const };
    },

    /**
     * A fresh verification link for a sign-up whose e-mail is not verified yet; the link before
     * stops working. Nothing is said of whether the address signed up (the route always answers
     * 202); limited per e-mail address and per client address (429 `rate_limited`, whoever asks).
     */
    async resendVerification(emailInput: string, client: { address: string }, base: string): Promise<void> {
      const email = emailInput.trim().toLowerCase();
      const rule = (max: number): AttemptRule => ({
        max,
        windowMs: HOUR,
        refuse: (ms) => new ApiError('rate_limited', 'Too many verification links asked for; try again later', { headers: retryAfterHeader(ms) }),
      });
      await throttle.beginAll([
        { subject: `signup-resend:address:${client.address}`, rule: rule(RESEND_PER_ADDRESS) },
        { subject: `signup-resend:email:${email}`, rule: rule(RESEND_PER_EMAIL) },
      ]);
      const token = `ver_${randomToken(random, 32)}`;
      const link = `${base}/dashboard/verify-email?token=${token}`;
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + VERIFICATION_TTL_MS);
      const request = await repo.findRequestByEmail(db, email);
      // A sign-up waiting for its link, else one made before issue 52 (its merchant exists).
      const signup = request ? undefined : await repo.findUnverifiedSignupByEmail(db, email);
      const merchant = signup ? await merchants.findMerchant(signup.merchant_id) : undefined;
      const target = request
        ? { merchantId: null, name: request.business_name, language: request.language === 'en' ? ('en' as const) : ('fr' as const) }
        : signup && merchant
          ? { merchantId: signup.merchant_id, name: merchant.name, language: merchant.language }
          : undefined;
      if (!target) return;
      const t = translator({ saved: target.language });
      const staged = await db.transaction().execute(async (tx) => {
        const message = await messaging.stageProof(tx, {
          merchantId: target.merchantId,
          userId: null,
          channel: 'email',
          to: email,
          subject: t.text('onboarding.verifySubject'),
          body: t.text('onboarding.verify', { merchant: target.name, link }),
          code: token,
        });
        const replaced =
          target.merchantId === null
            ? await repo.replaceRequestToken(tx, email, sha256(token), expiresAt, message.provider)
            : await repo.replaceToken(tx, target.merchantId, sha256(token), expiresAt, message.provider);
        return replaced ? message : undefined;
      });
      await staged?.deliver();
    },

    profile: profileView,

    async updateProfile(merchantId: string, details: Partial<ProfileDetails>) {
      const row = await db.transaction().execute(async (tx) => {
        const old = await editable(tx, merchantId);
        const merged: ProfileDetails = { ...EMPTY_DETAILS, ...old.details };
        for (const [k, v] of Object.entries(details)) if (typeof v === 'string' && k in EMPTY_DETAILS) merged[k as keyof ProfileDetails] = v.trim();
        // The payer-facing name's default follows the trade name (the merchant's own choice stays).
        await merchants.setShortNameFrom(merchantId, merged.tradeName, tx);
        return repo.updateProfile(tx, merchantId, { details: JSON.stringify(merged), updated_at: clock.now() });
      });
      return profileView(merchantId, row);
    },

    /** The payer-facing short name, in any state of the profile: it is not reviewed. */
    async setShortName(merchantId: string, name: string | null) {
      await merchants.setShortName(merchantId, name);
      return profileView(merchantId);
    },

    /** Replaces the owner's identity document; a bad one (400 `document_invalid`) stores nothing. */
    async uploadDocument(merchantId: string, body: unknown, declaredType: string | undefined) {
      const type = await checkDocument(body, declaredType);
      const bytes = body as Buffer;
      await db.transaction().execute(async (tx) => {
        await editable(tx, merchantId);
        await repo.putDocument(tx, {
          merchant_id: merchantId,
          content_type: type,
          size: bytes.length,
          // crypto.ts seals text: the bytes go in as base64.
          bytes_encrypted: encrypt(config.masterKey, bytes.toString('base64'), random),
          uploaded_at: clock.now(),
        });
      });
      return profileView(merchantId);
    },

    /** Submits the profile for review: the e-mail verified, every required field and the document given. */
    async submit(merchantId: string) {
      const signup = await repo.findSignup(db, merchantId);
      if (signup && signup.verified_at === null) {
        throw new ApiError('email_not_verified', `Verify ${signup.email} first: open the link of the e-mail we sent`);
      }
      const row = await db.transaction().execute(async (tx) => {
        const old = await editable(tx, merchantId);
        const details: ProfileDetails = { ...EMPTY_DETAILS, ...old.details };
        const missing = REQUIRED.filter((k) => details[k] === '');
        if (missing.length > 0) {
          throw new ApiError('validation_error', `The profile is incomplete: ${missing.join(', ')}`, {
            errors: missing.map((param) => ({ param, message: 'Required before the profile is submitted' })),
          });
        }
        if (!(await repo.documentInfo(tx, merchantId))) {
          throw new ApiError('validation_error', "Upload the owner's identity document first", { param: 'document' });
        }
        return repo.updateProfile(tx, merchantId, { state: 'submitted', submitted_at: clock.now(), rejection_reason: null, updated_at: clock.now() });
      });
      return profileView(merchantId, row);
    },

    /** Submitted profiles, oldest first: what operators review. */
    async listSubmitted() {
      const rows = await repo.listByState(db, 'submitted', REVIEW_LIST_LIMIT);
      return {
        object: 'list' as const,
        data: rows.map((r) => ({
          merchantId: r.merchant_id,
          merchantName: r.merchant_name,
          country: r.merchant_country,
          legalName: r.details.legalName,
          submittedAt: r.submitted_at?.toISOString() ?? null,
        })),
      };
    },

    /** The document's bytes, decrypted, for a signed-in operator only (the route checks). */
    async document(merchantId: string) {
      const row = await repo.document(db, merchantId);
      if (!row) throw new ApiError('not_found', `Merchant ${merchantId} has no identity document`, { param: 'id' });
      return { contentType: row.content_type, bytes: Buffer.from(decrypt(config.masterKey, row.bytes_encrypted), 'base64') };
    },

    /**
     * Approves or rejects a submitted profile, with live mode opened on approval, and `within`
     * (the audit entry) in the same transaction. The row is locked: of two reviews at once, the
     * second finds it reviewed (409 `profile_state_invalid`). The merchant is told by e-mail.
     */
    async review(
      merchantId: string,
      decision: { approve: true; reason?: string } | { approve: false; reason: string },
      reviewer: string,
      within: (tx: Executor, before: ReviewState, after: ReviewState) => Promise<void>,
    ) {
      const merchant = await merchantOf(merchantId);
      const now = clock.now();
      const row = await db.transaction().execute(async (tx) => {
        const old = await repo.findProfile(tx, merchantId, true);
        if (!old || old.state !== 'submitted') {
          throw new ApiError('profile_state_invalid', `The profile of ${merchantId} is ${old?.state ?? 'missing'}, not submitted: there is nothing to review`);
        }
        const state: ProfileState = decision.approve ? 'approved' : 'rejected';
        const rejectionReason = decision.approve ? null : decision.reason;
        const updated = await repo.updateProfile(tx, merchantId, {
          state,
          rejection_reason: rejectionReason,
          reviewed_at: now,
          reviewed_by: reviewer,
          updated_at: now,
        });
        if (decision.approve) await merchants.setApproved(tx, merchantId, now);
        await within(tx, { state: old.state, rejectionReason: old.rejection_reason }, { state, rejectionReason });
        return updated;
      });
      const signup = await repo.findSignup(db, merchantId);
      const to = signup?.email ?? merchant.email;
      if (to) {
        const t = translator({ saved: merchant.language });
        if (decision.approve) {
          await sendEmail(merchantId, to, t.text('onboarding.approvedSubject'), t.text('onboarding.approved', { merchant: merchant.name }));
        } else {
          await sendEmail(
            merchantId,
            to,
            t.text('onboarding.rejectedSubject'),
            t.text('onboarding.rejected', { merchant: merchant.name, reason: decision.reason }),
          );
        }
      }
      return profileView(merchantId, row);
    },
  };
}

export type OnboardingService = ReturnType<typeof createOnboardingService>;
