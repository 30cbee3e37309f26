import { MINUTE } from '../../platform/clock.ts';
import { codeMatches, generateCode, hashCode } from '../../platform/codes.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { Country } from '../../platform/countries.ts';
import { type Executor, readExecutor, type Tx } from '../../platform/db.ts';
import { type Language, languageToSave, type MessageId, translator } from '../../platform/i18n.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { retryAfterHeader } from '../../platform/codes.ts';
import { assertCurrency, type Currency, minorUnits, parseAmount } from '../../platform/money.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { type KeyMode, type MerchantContext, type Scope, scopeOf, type UserContext } from '../../platform/tenancy.ts';
import { type AttemptRule, createThrottle, type LoginSubject, loginRules } from '../../platform/throttle.ts';
import type { Balance, LedgerService, WalletView } from '../ledger/index.ts';
import type { MessageSender } from '../messaging/index.ts';
import { assertPasswordPolicy, assertPhoneNumber, PASSWORD_MAX_LENGTH } from './users.policy.ts';
import { type UserRow, usersRepository as repo } from './users.repository.ts';
import { createTokenService, type IssuedToken } from './users.tokens.ts';

/** Phone verification and password reset codes: 10 minutes, 5 wrong tries; sends as OTP codes. */
export const VERIFICATION_TTL_MS = 10 * MINUTE;
export const VERIFICATION_MAX_ATTEMPTS = 5;
/** How long a session of the customer's account page lasts. */
export const ACCOUNT_SESSION_MS = 30 * MINUTE;
/** How many movements the account page shows. */
const ACCOUNT_MOVEMENTS = 100;
/** The wallet currency every customer starts with (the flow's currency). */
export const DEFAULT_CURRENCY: Currency = 'XAF';

export interface UserView {
  id: string;
  object: 'user';
  phoneNumber: string;
  email: string | null;
  phoneVerified: boolean;
  /** The language of the customer's messages; null: none chosen yet. */
  language: Language | null;
  livemode: boolean;
  createdAt: string;
}

export interface AuthResult {
  id: string;
  token: string;
  phoneNumber: string;
  roles: string[];
  expiresAt: string;
  /** The customer's saved language, for the checkout to follow; null: none. */
  language: Language | null;
}

/**
 * What the publishable-key routes about a phone number answer, known number or not (docs/spec/customers.md):
 * the same status and shape, and no customer data. What differs goes by SMS to the number.
 */
export interface CodeSent<Kind extends 'phone_verification' | 'password_reset' = 'phone_verification', Phone extends string | null = string> {
  object: Kind;
  phoneNumber: Phone;
  channel: 'sms';
  expiresAt: string;
}

export function userView(u: UserRow): UserView {
  return {
    id: u.id,
    object: 'user',
    phoneNumber: u.phone_number,
    email: u.email,
    phoneVerified: u.phone_verified_at !== null,
    language: u.language,
    livemode: u.mode === 'live',
    createdAt: u.created_at.toISOString(),
  };
}

/** A code check: 5 tries per code (a new code starts them again), the sixth 429 `otp_attempts_exceeded`. */
function codeRule(what: string): AttemptRule {
  return {
    max: VERIFICATION_MAX_ATTEMPTS,
    windowMs: VERIFICATION_TTL_MS,
    refuse: (ms) => new ApiError('otp_attempts_exceeded', `Too many wrong codes; ask for a new one with ${what}`, { headers: retryAfterHeader(ms) }),
  };
}

/** A wrong, expired or never-sent code: one answer, so it tells nothing about the number. */
function incorrect(remaining: number): ApiError {
  return new ApiError('otp_incorrect', `The code is incorrect or no longer valid; ${remaining} attempt${remaining === 1 ? '' : 's'} left`, {
    param: 'code',
    extra: { attemptsRemaining: remaining },
  });
}

/** A top-up credited to a customer's wallet (the topups module tells, once, after the commit). */
export interface TopupCredited {
  merchantId: string;
  mode: KeyMode;
  userId: string;
  amount: bigint;
  currency: Currency;
  /** The provider as people know it ("MTN MoMo"). */
  providerName: string;
}

/**
 * Customers (docs/spec/customers.md): one account per mode and phone number across the deployment, one
 * password, one wallet per currency. A merchant sees a customer once linked to it (registration
 * through its key, its test helpers, a payment attempt of one of its intents).
 */
/** How long a customer's token version is trusted without reading it again. */
export const TOKEN_VERSION_TTL_MS = 2_000;
const TOKEN_VERSION_CACHE_MAX = 50_000;
const LINKS_REMEMBERED = 100_000;

/**
 * Customers' token versions, read once per TOKEN_VERSION_TTL_MS instead of on every request (a
 * payment's three customer requests read it three times). A password change or reset forgets the
 * customer's at once in this process and, through a broadcast, in the others; the TTL bounds a
 * broadcast that was missed.
 */
function createVersionCache(deps: Pick<Deps, 'clock' | 'wakeups'>, read: (userId: string) => Promise<number | undefined>) {
  const entries = new Map<string, { version: number | undefined; until: number }>();
  deps.wakeups?.subscribe('user_tokens', (message) => ('reset' in message ? entries.clear() : entries.delete(message.payload)));
  return {
    async current(userId: string): Promise<number | undefined> {
      const now = deps.clock.now().getTime();
      const hit = entries.get(userId);
      if (hit && hit.until > now) return hit.version;
      const version = await read(userId);
      entries.delete(userId);
      if (entries.size >= TOKEN_VERSION_CACHE_MAX) entries.delete(entries.keys().next().value as string);
      entries.set(userId, { version, until: now + TOKEN_VERSION_TTL_MS });
      return version;
    },
    /** After the commit that raised the version. */
    async changed(userId: string): Promise<void> {
      entries.delete(userId);
      await deps.wakeups?.broadcast('user_tokens', userId);
    },
  };
}

/** 403 `customer_locked`: an operator locked the account (docs/spec/request-rules.md). */
function lockedError(): ApiError {
  return new ApiError('customer_locked', 'This account is locked by the platform operator: contact its support');
}

export function createUsersService(
  deps: Deps,
  collaborators: {
    messaging: MessageSender;
    ledger: LedgerService;
    /** A merchant's default language, for messages sent outside a request (the merchants module's). */
    merchantLanguage?: (merchantId: string) => Promise<string | undefined>;
    /** A merchant's name, for the customer's own account page (the merchants module's). */
    merchantName?: (merchantId: string) => Promise<string | undefined>;
  },
) {
  const { db, clock, ids, config, random } = deps;
  const throttle = createThrottle(deps);
  const { messaging, ledger } = collaborators;
  const versions = createVersionCache(deps, (userId) => repo.tokenVersion(db, userId));
  const tokens = createTokenService(deps, versions.current);

  const subject = (kind: 'login' | 'verify' | 'reset' | 'account' | 'send:verify' | 'send:reset' | 'send:account', mode: KeyMode, phoneNumber: string) =>
    `${kind}:${mode}:${phoneNumber}`;
  const codeExpiry = () => new Date(clock.now().getTime() + VERIFICATION_TTL_MS);
  /** A customer's sign-in, limited per number and client address, then per number (issue 20). */
  const loginOf = (mode: KeyMode, phoneNumber: string, address: string): LoginSubject => ({
    subject: subject('login', mode, phoneNumber),
    address,
    what: 'this phone number',
    remedy: 'reset the password (POST /auth/password-reset)',
  });

  const minutes = VERIFICATION_TTL_MS / MINUTE;

  /**
   * Sends an SMS in the customer's language (docs/spec/languages.md: theirs, else what the request asked
   * for, else the merchant's default); a provider outage is recorded by messaging and must not
   * change the answer. `values.code`, when there is one, is the one-time code the text carries
   * (a live outbox row keeps the text without it).
   */
  async function sms(
    merchant: Scope & { merchantLanguage?: string },
    user: UserRow,
    requested: readonly string[],
    text: MessageId,
    subjectLine: MessageId,
    values?: Record<string, string | number>,
  ): Promise<void> {
    const t = translator({ saved: user.language, requested, merchantDefault: merchant.merchantLanguage });
    try {
      await messaging.send({
        ...scopeOf(merchant),
        userId: user.id,
        channel: 'sms',
        to: user.phone_number,
        body: t.text(text, values),
        subject: t.text(subjectLine, values),
        code: typeof values?.code === 'string' ? values.code : undefined,
      });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }

  /**
   * The customer of this number and password, or 401 `invalid_credentials` (the same answer and
   * work for an unknown number). Each attempt counts before the password is checked, per number
   * and client address, then per number; a success forgets the number's failures.
   */
  async function checkPassword(
    mode: KeyMode,
    country: Country | undefined,
    input: { phoneNumber: string; password: string },
    address: string,
  ): Promise<UserRow> {
    const phoneNumber = assertPhoneNumber(input.phoneNumber, country);
    const attempt = await throttle.beginAll(loginRules(loginOf(mode, phoneNumber, address)));
    const user = await repo.findUserByPhone(db, mode, phoneNumber);
    const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password);
    if (!user || !ok) throw new ApiError('invalid_credentials', 'The phone number or the password is incorrect');
    await attempt.succeeded();
    return user;
  }

  /** A fresh password reset code, stored as a keyed hash (it replaces the last one), sent by SMS. */
  async function sendReset(merchant: Scope & { merchantLanguage?: string }, user: UserRow, requested: readonly string[]): Promise<void> {
    const code = generateCode(random);
    await repo.saveReset(db, {
      user_id: user.id,
      code_hash: hashCode(config.masterKey, `reset:${user.id}`, code),
      expires_at: codeExpiry(),
      created_at: clock.now(),
    });
    await throttle.clear(subject('reset', user.mode, user.phone_number));
    await sms(merchant, user, requested, 'users.reset', 'users.resetSubject', { code, minutes });
  }

  /** A fresh verification code for the customer's phone: stored as a keyed hash, sent by SMS. */
  async function sendVerification(merchant: MerchantContext, user: UserRow, requested: readonly string[]): Promise<void> {
    const code = generateCode(random);
    const now = clock.now();
    await repo.saveVerification(db, { user_id: user.id, code_hash: hashCode(config.masterKey, user.id, code), expires_at: codeExpiry(), created_at: now });
    await throttle.clear(subject('verify', user.mode, user.phone_number));
    await sms(merchant, user, requested, 'users.verification', 'users.verificationSubject', { code, minutes });
  }

  /**
   * Links are never removed: one this process saw committed needs no insert again (a payment
   * links its customer when the code is sent and again when it is charged). Only links written
   * outside a transaction are remembered: a transaction's may still roll back.
   */
  const linked = new Set<string>();
  const linkKey = (scope: Scope, userId: string) => `${scope.merchantId}|${scope.mode}|${userId}`;
  function remember(scope: Scope, userId: string): void {
    if (linked.size >= LINKS_REMEMBERED) linked.clear();
    linked.add(linkKey(scope, userId));
  }
  async function link(executor: Executor, scope: Scope, userId: string): Promise<void> {
    if (linked.has(linkKey(scope, userId))) return;
    await repo.link(executor, { merchant_id: scope.merchantId, mode: scope.mode, user_id: userId, linked_at: clock.now() });
    if (!executor.isTransaction) remember(scope, userId);
  }

  /** Inserts the customer with its XAF wallet and its link to the merchant; `also` runs in the same transaction. */
  async function insertUser(
    scope: Scope,
    input: { phoneNumber: string; passwordHash: string; email?: string; language?: Language | null },
    verifiedAt: Date | null,
    also?: (tx: Tx, user: UserRow) => Promise<void>,
  ): Promise<UserRow | undefined> {
    return db.transaction().execute(async (tx) => {
      const user = await repo.insertUser(tx, {
        id: ids('user'),
        merchant_id: scope.merchantId,
        mode: scope.mode,
        phone_number: input.phoneNumber,
        email: input.email ?? null,
        password_hash: input.passwordHash,
        language: input.language ?? null,
        phone_verified_at: verifiedAt,
        created_at: clock.now(),
      });
      if (!user) return undefined;
      await link(tx, scope, user.id);
      await ledger.userWallet(tx, { ...scope, userId: user.id, currency: DEFAULT_CURRENCY });
      await also?.(tx, user);
      return user;
    });
  }

  /** The customer a phone-verification call names (by phone number, or by id within the mode). */
  async function named(
    mode: KeyMode,
    country: Country,
    ref: { userId?: string; phoneNumber?: string },
  ): Promise<{ phoneNumber: string; user: UserRow | undefined }> {
    if (ref.phoneNumber !== undefined) {
      const phoneNumber = assertPhoneNumber(ref.phoneNumber, country);
      return { phoneNumber, user: await repo.findUserByPhone(db, mode, phoneNumber) };
    }
    if (ref.userId !== undefined) {
      const user = await repo.findUser(db, mode, ref.userId);
      return { phoneNumber: user?.phone_number ?? ref.userId, user };
    }
    throw new ApiError('validation_error', 'Send phoneNumber', {
      param: 'phoneNumber',
      errors: [{ param: 'phoneNumber', message: 'phoneNumber is required' }],
    });
  }

  return {
    tokens,

    /**
     * POST /users. A new number: the customer, its wallet and its link to this merchant, and a
     * code by SMS. A number registered but never verified: the password (and e-mail) of this
     * registration replace the unproven ones and a new code goes out. A verified number: the
     * account is untouched and its owner is told by SMS. The answer is the same in all three.
     * The language saved is `language` (a tag of French or English), else the first of the
     * request's languages (`requested`, from Accept-Language) we have; else none.
     */
    async register(
      merchant: MerchantContext,
      input: { phoneNumber: string; password: string; email?: string; language?: string },
      requested: readonly string[] = [],
    ): Promise<CodeSent> {
      const scope = scopeOf(merchant);
      const phoneNumber = assertPhoneNumber(input.phoneNumber, merchant.merchantCountry);
      const language = languageToSave(input.language, requested);
      assertPasswordPolicy(input.password, phoneNumber);
      await throttle.send(subject('send:verify', scope.mode, phoneNumber));
      // The hash is made whatever the number, so the answer takes as long for a known one.
      const passwordHash = await hashPassword(input.password);
      let user = await insertUser(scope, { phoneNumber, passwordHash, email: input.email, language }, null);
      if (user) {
        await sendVerification(merchant, user, requested);
      } else {
        const existing = await repo.findUserByPhone(db, scope.mode, phoneNumber);
        if (existing && !existing.phone_verified_at) {
          user = await repo.updateUnverified(db, existing.id, { password_hash: passwordHash, email: input.email ?? null, ...(language ? { language } : {}) });
          if (user) {
            await link(db, scope, user.id);
            await sendVerification(merchant, user, requested);
          }
        } else if (existing) {
          await sms(merchant, existing, requested, 'users.alreadyRegistered', 'users.alreadyRegisteredSubject');
        }
      }
      return { object: 'phone_verification', phoneNumber, channel: 'sms', expiresAt: codeExpiry().toISOString() };
    },

    /**
     * POST /users/verify-phone/resend: a fresh code if the number awaits verification; the same
     * answer otherwise. Named by id, the answer carries no number (an id must not give away a
     * phone) and the send limit that can refuse it is the id's own; the number's limit then
     * holds the SMS back silently, since its 429 would tell which number the id belongs to.
     */
    async resendVerification(
      merchant: MerchantContext,
      ref: { userId?: string; phoneNumber?: string },
      requested: readonly string[] = [],
    ): Promise<CodeSent<'phone_verification', string | null>> {
      const scope = scopeOf(merchant);
      if (ref.phoneNumber === undefined && ref.userId !== undefined) {
        await throttle.send(subject('send:verify', scope.mode, `id:${ref.userId}`));
        const user = await repo.findUser(db, scope.mode, ref.userId);
        if (user && !user.phone_verified_at && (await throttle.trySend(subject('send:verify', scope.mode, user.phone_number)))) {
          await sendVerification(merchant, user, requested);
        }
        return { object: 'phone_verification', phoneNumber: null, channel: 'sms', expiresAt: codeExpiry().toISOString() };
      }
      const { phoneNumber, user } = await named(scope.mode, merchant.merchantCountry, ref);
      await throttle.send(subject('send:verify', scope.mode, phoneNumber));
      if (user && !user.phone_verified_at) await sendVerification(merchant, user, requested);
      return { object: 'phone_verification', phoneNumber, channel: 'sms', expiresAt: codeExpiry().toISOString() };
    },

    /**
     * POST /users/verify-phone: the code from the SMS marks the phone verified and answers the
     * customer (who just proved the phone is theirs). Tries are counted per number, known or not:
     * a wrong or expired code, a verified or an unknown number all answer 400 `otp_incorrect`
     * with the tries left, then 429 `otp_attempts_exceeded`.
     */
    async verifyPhone(merchant: MerchantContext, input: { userId?: string; phoneNumber?: string; code?: string; otp?: string }): Promise<UserView> {
      const scope = scopeOf(merchant);
      const code = input.code ?? input.otp;
      if (code === undefined) {
        throw new ApiError('validation_error', 'code is required', { param: 'code', errors: [{ param: 'code', message: 'code is required' }] });
      }
      const { phoneNumber, user } = await named(scope.mode, merchant.merchantCountry, input);
      const attempt = await throttle.begin(subject('verify', scope.mode, phoneNumber), codeRule('POST /users/verify-phone/resend'));
      const verified =
        user && !user.phone_verified_at
          ? await db.transaction().execute(async (tx) => {
              const v = await repo.lockVerification(tx, user.id);
              if (!v || v.expires_at <= clock.now() || !codeMatches(config.masterKey, user.id, code, v.code_hash)) return undefined;
              await repo.deleteVerification(tx, user.id);
              await link(tx, scope, user.id);
              return repo.markPhoneVerified(tx, user.id, clock.now());
            })
          : undefined;
      if (!verified) throw incorrect(attempt.remaining);
      await attempt.succeeded();
      return userView(verified);
    },

    /**
     * POST /auth/web. One answer (401 invalid_credentials) and the same work (an argon2id
     * verification) for an unknown phone number and a wrong password. Each attempt is counted
     * before the password is checked, per number and client address (5 in 15 minutes) and per
     * number (100 in 24 hours); a success forgets the number's failures. The token is good
     * with this merchant's keys of this mode only.
     */
    async login(merchant: MerchantContext, input: { phoneNumber: string; password: string }, address: string): Promise<AuthResult> {
      const user = await checkPassword(merchant.mode, merchant.merchantCountry, input, address);
      if (user.locked_at) throw lockedError();
      if (!user.phone_verified_at) {
        throw new ApiError('phone_not_verified', 'Verify the phone number first with the code sent by SMS (POST /users/verify-phone)');
      }
      const roles = ['USER'];
      const issued: IssuedToken = await tokens.sign({
        userId: user.id,
        merchantId: merchant.merchantId,
        mode: merchant.mode,
        roles,
        version: user.token_version,
      });
      return { id: user.id, token: issued.token, phoneNumber: user.phone_number, roles, expiresAt: issued.expiresAt.toISOString(), language: user.language };
    },

    /** POST /auth/password-reset: a code by SMS to a customer's number; the same answer for any number. */
    async requestPasswordReset(
      merchant: MerchantContext,
      input: { phoneNumber: string },
      requested: readonly string[] = [],
    ): Promise<CodeSent<'password_reset'>> {
      const scope = scopeOf(merchant);
      const phoneNumber = assertPhoneNumber(input.phoneNumber, merchant.merchantCountry);
      await throttle.send(subject('send:reset', scope.mode, phoneNumber));
      const user = await repo.findUserByPhone(db, scope.mode, phoneNumber);
      if (user) await sendReset(merchant, user, requested);
      return { object: 'password_reset', phoneNumber, channel: 'sms', expiresAt: codeExpiry().toISOString() };
    },

    /**
     * The operator console (support): the same reset code by SMS as POST /auth/password-reset,
     * to a customer named by id, through the merchant that registered them (its language when
     * the customer chose none). The number's send limit applies as for the customer's own request.
     */
    async sendPasswordResetForOperator(id: string): Promise<{ user: UserRow; expiresAt: Date }> {
      const user = await repo.findAnyUser(db, id);
      if (!user) throw new ApiError('not_found', `No customer ${id}`, { param: 'id' });
      await throttle.send(subject('send:reset', user.mode, user.phone_number));
      const merchantLanguage = await collaborators.merchantLanguage?.(user.merchant_id);
      await sendReset({ merchantId: user.merchant_id, mode: user.mode, merchantLanguage }, user, []);
      return { user, expiresAt: codeExpiry() };
    },

    /**
     * POST /auth/password-reset/confirm: the code sets the new password and voids every access
     * token issued before (the token version goes up). A weak password is 400 `password_weak`
     * before anything else; a wrong code answers as phone verification does.
     */
    async confirmPasswordReset(merchant: MerchantContext, input: { phoneNumber: string; code: string; newPassword: string }, address: string): Promise<void> {
      const phoneNumber = assertPhoneNumber(input.phoneNumber, merchant.merchantCountry);
      assertPasswordPolicy(input.newPassword, phoneNumber, 'newPassword');
      const attempt = await throttle.begin(subject('reset', merchant.mode, phoneNumber), codeRule('POST /auth/password-reset'));
      const user = await repo.findUserByPhone(db, merchant.mode, phoneNumber);
      const passwordHash = await hashPassword(input.newPassword);
      const done = user
        ? await db.transaction().execute(async (tx) => {
            const reset = await repo.lockReset(tx, user.id);
            if (!reset || reset.expires_at <= clock.now() || !codeMatches(config.masterKey, `reset:${user.id}`, input.code, reset.code_hash)) return false;
            await repo.lockUser(tx, user.id);
            await repo.deleteReset(tx, user.id);
            await repo.setPassword(tx, user.id, passwordHash, true);
            // The code came by SMS to the number: the phone is the customer's.
            if (!user.phone_verified_at) await repo.markPhoneVerified(tx, user.id, clock.now());
            return true;
          })
        : false;
      if (!done) throw incorrect(attempt.remaining);
      if (user) await versions.changed(user.id);
      await attempt.succeeded();
      // The way out of a sign-in lock: this address's and the number's own are lifted.
      for (const limit of loginRules(loginOf(merchant.mode, phoneNumber, address))) await throttle.clear(limit.subject);
    },

    /** POST /users/me/password: the current password, then the new one; older tokens are refused from then on. */
    async changePassword(merchant: MerchantContext, me: UserContext, input: { currentPassword: string; newPassword: string }, address: string): Promise<void> {
      const user = await repo.findUser(db, merchant.mode, me.userId);
      if (!user) throw new ApiError('access_token_invalid', 'The access token is not valid or has expired; sign in again with POST /auth/web');
      assertPasswordPolicy(input.newPassword, user.phone_number, 'newPassword');
      const attempt = await throttle.beginAll(loginRules(loginOf(merchant.mode, user.phone_number, address)));
      if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
        throw new ApiError('invalid_credentials', 'The current password is incorrect', { param: 'currentPassword' });
      }
      await attempt.succeeded();
      const passwordHash = await hashPassword(input.newPassword);
      await db.transaction().execute(async (tx) => {
        await repo.lockUser(tx, user.id);
        await repo.setPassword(tx, user.id, passwordHash, true);
      });
      await versions.changed(user.id);
    },

    /** PATCH /users/me: the signed-in customer's language, for their messages from now on. */
    async setLanguage(merchant: MerchantContext, me: UserContext, language: string): Promise<UserView> {
      const chosen = languageToSave(language, []);
      if (!chosen) throw new ApiError('validation_error', 'language must be fr or en', { param: 'language' });
      const user = await repo.setLanguage(db, me.userId, chosen);
      if (!user || user.mode !== merchant.mode)
        throw new ApiError('access_token_invalid', 'The access token is not valid or has expired; sign in again with POST /auth/web');
      return userView(user);
    },

    /**
     * Tells the customer by SMS that a top-up reached their wallet, in their language (else the
     * merchant's default: no request asked for one). A provider outage loses the notice, not money.
     */
    async notifyTopupCredited(topup: TopupCredited): Promise<void> {
      const user = await repo.findUser(db, topup.mode, topup.userId);
      if (!user) return;
      const merchantLanguage = await collaborators.merchantLanguage?.(topup.merchantId);
      const t = translator({ saved: user.language, merchantDefault: merchantLanguage });
      await sms({ merchantId: topup.merchantId, mode: topup.mode, merchantLanguage }, user, [], 'topups.credited', 'topups.creditedSubject', {
        amount: t.amount(topup.amount, topup.currency),
        provider: topup.providerName,
      });
    },

    /** The operator console (support): every mode's customer of a phone number, and one by id. */
    /** No merchant in the request: the number must carry its country code. */
    findForOperator: async (phoneNumber: string) => repo.findUsersByPhone(db, assertPhoneNumber(phoneNumber, undefined, 'phone')),
    findAnyForOperator: async (id: string) => repo.findAnyUser(db, id),

    /**
     * Locks or unlocks a customer; `within` runs in the same transaction (the operator's audit
     * entry). A lock raises the token version: the customer's access tokens stop at once.
     */
    async setLocked(id: string, lock: { reason: string } | null, within: (tx: Executor, before: UserRow) => Promise<void>): Promise<UserRow> {
      const after = await db.transaction().execute(async (tx) => {
        const before = await repo.findAnyUser(tx, id);
        if (!before) throw new ApiError('not_found', `No customer ${id}`, { param: 'id' });
        await repo.setLocked(tx, id, lock ? { at: clock.now(), reason: lock.reason } : null);
        await within(tx, before);
        return (await repo.findAnyUser(tx, id)) as UserRow;
      });
      await versions.changed(id);
      return after;
    },

    verifyAccessToken: (token: string, merchant: MerchantContext): Promise<UserContext> => tokens.verify(token, merchant),

    /** Where a customer's codes go (the OTP module's PayerContacts): any customer of the mode, with their language. */
    async contact(scope: Scope, userId: string, executor: Executor = db) {
      const u = await repo.contactAhead(executor, { id: userId, mode: scope.mode, merchantId: scope.merchantId });
      if (!u) return undefined;
      // A link seen is committed (links are never removed): this process need not write it again.
      if (u.linked === true) remember(scope, userId);
      return { email: u.email, phoneNumber: u.phone_number, phoneVerified: u.phone_verified_at !== null, language: u.language, linked: u.linked === true };
    },

    /** Lets the merchant see the customer (a payment attempt), in the caller's transaction when given. */
    link: (scope: Scope, userId: string, executor: Executor = db) => link(executor, scope, userId),

    /** GET /users/{id}: a customer the merchant sees, or 404 `not_found`. No wallet: that is the customer's own. */
    async retrieve(scope: Scope, userId: string): Promise<UserView> {
      const user = await repo.findLinkedUser(db, scopeOf(scope), userId);
      if (!user) throw new ApiError('not_found', `No user ${userId}`, { param: 'id' });
      return userView(user);
    },

    /** The phone numbers of these customers the merchant sees, by id (the payments export). */
    async phoneNumbersOf(scope: Scope, userIds: readonly string[]): Promise<Map<string, string>> {
      const rows = await repo.phoneNumbersOfLinked(readExecutor(db), scopeOf(scope), userIds);
      return new Map(rows.map((r) => [r.id, r.phone_number]));
    },

    /** The merchant's customers whose phone number ends with these digits (the dashboard's search; digits only). */
    findByPhoneSuffix: (scope: Scope, digits: string, limit: number) => repo.findLinkedByPhoneSuffix(readExecutor(db), scopeOf(scope), digits, limit),

    /** GET /users: the merchant's customers, newest first. */
    async list(scope: Scope, q: { limit?: number; startingAfter?: string }) {
      const limit = q.limit ?? 20;
      const rows = await repo.listLinkedUsers(readExecutor(db), scopeOf(scope), { limit, startingAfter: q.startingAfter });
      return { object: 'list' as const, data: rows.slice(0, limit).map(userView), hasMore: rows.length > limit };
    },

    jwks: () => tokens.jwks(),

    /**
     * POST /test/users: a verified customer with a funded wallet, linked to the merchant (test mode
     * only). A number that already has a customer in test mode is 409 `already_exists`.
     */
    async createTestUser(
      merchant: Scope & { merchantCountry: Country },
      input: { phoneNumber: string; password: string; email?: string; balance?: string; currency?: string; language?: string },
    ): Promise<UserView & { balances: Balance[] }> {
      const scope = scopeOf(merchant);
      const phoneNumber = assertPhoneNumber(input.phoneNumber, merchant.merchantCountry);
      if (input.password.length === 0 || input.password.length > PASSWORD_MAX_LENGTH) {
        throw new ApiError('password_weak', `The password must have 1 to ${PASSWORD_MAX_LENGTH} characters`, { param: 'password' });
      }
      const currency = assertCurrency(input.currency ?? DEFAULT_CURRENCY);
      const amount = input.balance === undefined || input.balance === '0' ? minorUnits(0n) : parseAmount(input.balance, currency, 'balance');
      const passwordHash = await hashPassword(input.password);
      const user = await insertUser(
        scope,
        { phoneNumber, passwordHash, email: input.email, language: languageToSave(input.language, []) },
        clock.now(),
        async (tx, u) => {
          await ledger.userWallet(tx, { ...scope, userId: u.id, currency });
          if (amount > 0n) await ledger.fund(tx, { ...scope, userId: u.id, currency, amount });
        },
      );
      if (!user) throw new ApiError('already_exists', `A customer with phone number ${phoneNumber} already exists in test mode`, { param: 'phoneNumber' });
      const wallet = await ledger.wallet({ userId: user.id, mode: scope.mode }, db, 0);
      return { ...userView(user), balances: wallet.balances };
    },

    /** POST /test/wallets/fund: money from the external account into a customer's wallet. */
    async fundTestWallet(merchant: Scope, input: { userId: string; amount: string; currency: string }): Promise<WalletView> {
      const scope = scopeOf(merchant);
      const currency = assertCurrency(input.currency);
      const amount = parseAmount(input.amount, currency);
      const user = await repo.findLinkedUser(db, scope, input.userId);
      if (!user) throw new ApiError('not_found', `No user ${input.userId}`, { param: 'userId' });
      return db.transaction().execute(async (tx) => {
        await ledger.fund(tx, { ...scope, userId: user.id, currency, amount });
        return ledger.wallet({ userId: user.id, mode: scope.mode, merchantId: scope.merchantId }, tx);
      });
    },

    /**
     * The customer's own account page (`/account`), signed in there and not through a merchant:
     * the password, then a code by SMS (the same two steps as paying), then a session of its own.
     */
    account: {
      /** The password is right: a sign-in code goes by SMS, in the customer's language (else the page's). */
      async sendCode(mode: KeyMode, input: { phoneNumber: string; password: string }, address: string, requested: readonly string[]): Promise<void> {
        const user = await checkPassword(mode, undefined, input, address);
        await throttle.send(subject('send:account', mode, user.phone_number));
        const code = generateCode(random);
        await repo.saveReset(
          db,
          { user_id: user.id, code_hash: hashCode(config.masterKey, `account:${user.id}`, code), expires_at: codeExpiry(), created_at: clock.now() },
          'account_codes',
        );
        await throttle.clear(subject('account', mode, user.phone_number));
        const t = translator({ saved: user.language, requested });
        try {
          await messaging.send({
            merchantId: null,
            mode,
            userId: user.id,
            channel: 'sms',
            to: user.phone_number,
            body: t.text('users.accountCode', { code, minutes }),
            subject: t.text('users.accountCodeSubject'),
            code,
          });
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
        }
      },

      /** The code: a new session (its token, shown once, for the cookie), or 400 `otp_incorrect`. */
      async confirm(mode: KeyMode, input: { phoneNumber: string; code: string }): Promise<{ token: string; expiresAt: Date }> {
        const phoneNumber = assertPhoneNumber(input.phoneNumber, undefined);
        const attempt = await throttle.begin(subject('account', mode, phoneNumber), codeRule('the sign-in form'));
        const user = await repo.findUserByPhone(db, mode, phoneNumber);
        const token = randomToken(random, 32);
        const expiresAt = new Date(clock.now().getTime() + ACCOUNT_SESSION_MS);
        const done = user
          ? await db.transaction().execute(async (tx) => {
              const row = await repo.lockReset(tx, user.id, 'account_codes');
              if (!row || row.expires_at <= clock.now() || !codeMatches(config.masterKey, `account:${user.id}`, input.code, row.code_hash)) return false;
              await repo.deleteReset(tx, user.id, 'account_codes');
              await repo.insertAccountSession(tx, {
                token_hash: sha256(token),
                user_id: user.id,
                mode,
                token_version: user.token_version,
                created_at: clock.now(),
                expires_at: expiresAt,
              });
              return true;
            })
          : false;
        if (!done) throw incorrect(attempt.remaining);
        await attempt.succeeded();
        return { token, expiresAt };
      },

      /** The session's customer, or undefined (unknown, expired, or the password changed since). */
      async session(mode: KeyMode, token: string | undefined): Promise<{ userId: string; language: Language | null } | undefined> {
        if (token === undefined || token.length > 100) return undefined;
        const row = await repo.findAccountSession(db, sha256(token), mode, clock.now());
        if (!row || row.token_version !== row.current_version) return undefined;
        return { userId: row.user_id, language: row.language };
      },

      signOut: (token: string) => repo.deleteAccountSession(db, sha256(token)),

      /** Deletes up to `limit` expired sessions and sign-in codes of the account page (retention); how many. */
      purgeExpired: (now: Date, limit: number) => repo.purgeExpiredAccountRows(db, now, limit),

      /** Every balance and the latest movements across every merchant, each with its merchant's name. */
      async history(mode: KeyMode, userId: string) {
        const wallet = await ledger.wallet({ userId, mode }, db, ACCOUNT_MOVEMENTS);
        const names = new Map<string, string>();
        for (const id of new Set(wallet.movements.map((m) => m.merchantId))) names.set(id, (await collaborators.merchantName?.(id)) ?? id);
        return { balances: wallet.balances, movements: wallet.movements.map((m) => ({ ...m, merchantName: names.get(m.merchantId) ?? m.merchantId })) };
      },
    },

    /** GET /wallet for the signed-in customer: balances, and the movements made with this merchant only. */
    wallet: (merchant: MerchantContext, user: UserContext) => ledger.wallet({ userId: user.userId, mode: merchant.mode, merchantId: merchant.merchantId }),
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
