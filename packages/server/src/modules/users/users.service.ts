import { MINUTE } from '../../platform/clock.ts';
import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { assertCurrency, type Currency, parseAmount } from '../../platform/money.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../platform/passwords.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { Balance, WalletView } from '../ledger/index.ts';
import type { MessageSender, MessagingService } from '../messaging/index.ts';
import { codeMatches, generateCode, hashCode, retryAfterHeader, sendDecision } from '../../platform/codes.ts';
import { createThrottle, loginRule } from '../../platform/throttle.ts';
import { assertPasswordPolicy, assertPhoneNumber, PASSWORD_MAX_LENGTH } from './users.policy.ts';
import { type UserRow, usersRepository as repo } from './users.repository.ts';
import { createTokenService, type IssuedToken } from './users.tokens.ts';
import { type MerchantContext, type Scope, scopeOf, type UserContext } from '../../platform/tenancy.ts';

/** Phone verification codes: 10 minutes, 5 wrong tries; resent at most once per 30 s, 5 per 15 min. */
export const VERIFICATION_TTL_MS = 10 * MINUTE;
export const VERIFICATION_MAX_ATTEMPTS = 5;
/** The wallet currency every user starts with (the flow's currency). */
export const DEFAULT_CURRENCY: Currency = 'XAF';

export interface UserView {
  id: string;
  object: 'user';
  phoneNumber: string;
  email: string | null;
  phoneVerified: boolean;
  livemode: boolean;
  createdAt: string;
}

export interface AuthResult {
  id: string;
  token: string;
  phoneNumber: string;
  roles: string[];
  expiresAt: string;
}

export function userView(u: UserRow): UserView {
  return {
    id: u.id,
    object: 'user',
    phoneNumber: u.phone_number,
    email: u.email,
    phoneVerified: u.phone_verified_at !== null,
    livemode: u.mode === 'live',
    createdAt: u.created_at.toISOString(),
  };
}

const retryAfter = retryAfterHeader;

function verificationText(code: string): string {
  return `Your verification code is ${code}. It expires in ${VERIFICATION_TTL_MS / MINUTE} minutes. Never share it.`;
}

export function createUsersService(deps: Deps, collaborators: { messaging: MessageSender & Pick<MessagingService, 'sentSince'>; ledger: LedgerService }) {
  const { db, clock, ids, config, random } = deps;
  const throttle = createThrottle(deps);
  const { messaging, ledger } = collaborators;
  const tokens = createTokenService(deps);

  async function findUser(scope: Scope, ref: { userId?: string; phoneNumber?: string }): Promise<UserRow> {
    let user: UserRow | undefined;
    if (ref.userId !== undefined) user = await repo.findUser(db, scope, ref.userId);
    else if (ref.phoneNumber !== undefined) user = await repo.findUserByPhone(db, scope, assertPhoneNumber(ref.phoneNumber));
    else throw new ApiError('validation_error', 'Send userId or phoneNumber', { param: 'userId', errors: [{ param: 'userId', message: 'userId or phoneNumber is required' }] });
    if (!user) throw new ApiError('not_found', ref.userId !== undefined ? `No user ${ref.userId}` : 'No user with this phone number');
    return user;
  }

  /** A fresh verification code for the user's phone: stored as a keyed hash, sent by SMS. */
  async function sendVerification(scope: Scope, user: UserRow): Promise<Date> {
    const code = generateCode(random);
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + VERIFICATION_TTL_MS);
    await repo.saveVerification(db, { user_id: user.id, code_hash: hashCode(config.masterKey, user.id, code), expires_at: expiresAt, created_at: now });
    await messaging.send({ ...scope, userId: user.id, channel: 'sms', to: user.phone_number, body: verificationText(code), subject: 'Your verification code' });
    return expiresAt;
  }

  /** Inserts the user and its XAF wallet; `also` runs in the same transaction. */
  async function insertUser(
    scope: Scope,
    input: { phoneNumber: string; password: string; email?: string },
    verifiedAt: Date | null,
    also?: (tx: Tx, user: UserRow) => Promise<void>,
  ): Promise<UserRow> {
    const passwordHash = await hashPassword(input.password);
    return db.transaction().execute(async (tx) => {
      const user = await repo.insertUser(tx, {
        id: ids('user'),
        merchant_id: scope.merchantId,
        mode: scope.mode,
        phone_number: input.phoneNumber,
        email: input.email ?? null,
        password_hash: passwordHash,
        phone_verified_at: verifiedAt,
        created_at: clock.now(),
      });
      if (!user) throw new ApiError('already_exists', `A user with phone number ${input.phoneNumber} already exists`, { param: 'phoneNumber' });
      await ledger.userWallet(tx, { ...scope, userId: user.id, currency: DEFAULT_CURRENCY });
      await also?.(tx, user);
      return user;
    });
  }

  return {
    tokens,

    /** POST /users: registers a user and sends a code to verify the phone. */
    async register(merchant: MerchantContext, input: { phoneNumber: string; password: string; email?: string }): Promise<UserView> {
      const scope = scopeOf(merchant);
      const phoneNumber = assertPhoneNumber(input.phoneNumber);
      assertPasswordPolicy(input.password, phoneNumber);
      const user = await insertUser(scope, { ...input, phoneNumber }, null);
      try {
        await sendVerification(scope, user);
      } catch (err) {
        // The user exists; a provider outage must not turn registration into an error the client
        // would retry into 409. The failed message is recorded; POST /users/verify-phone/resend.
        if (!(err instanceof ApiError)) throw err;
      }
      return userView(user);
    },

    /** POST /users/verify-phone/resend: a fresh code, with the OTP send limits. */
    async resendVerification(merchant: MerchantContext, ref: { userId?: string; phoneNumber?: string }) {
      const scope = scopeOf(merchant);
      const user = await findUser(scope, ref);
      if (user.phone_verified_at) throw new ApiError('phone_already_verified', 'This phone number is already verified');
      const now = clock.now();
      const sends = await messaging.sentSince({ ...scope, userId: user.id, channel: 'sms', since: new Date(now.getTime() - 15 * MINUTE) });
      const decision = sendDecision(sends, now);
      if (!decision.allowed) {
        throw new ApiError('otp_rate_limited', 'A code was sent moments ago; wait before asking for another', { headers: retryAfter(decision.retryAfterMs) });
      }
      const expiresAt = await sendVerification(scope, user);
      return { object: 'phone_verification' as const, userId: user.id, channel: 'sms' as const, expiresAt: expiresAt.toISOString() };
    },

    /** POST /users/verify-phone: the code from the SMS marks the phone verified. */
    async verifyPhone(merchant: MerchantContext, input: { userId?: string; phoneNumber?: string; code?: string; otp?: string }): Promise<UserView> {
      const scope = scopeOf(merchant);
      const code = input.code ?? input.otp;
      if (code === undefined) {
        throw new ApiError('validation_error', 'code is required', { param: 'code', errors: [{ param: 'code', message: 'code is required' }] });
      }
      const user = await findUser(scope, input);
      if (user.phone_verified_at) return userView(user);
      const outcome = await db.transaction().execute(async (tx) => {
        const v = await repo.lockVerification(tx, user.id);
        const now = clock.now();
        if (!v || v.expires_at <= now) return { kind: 'expired' as const };
        if (v.attempts >= VERIFICATION_MAX_ATTEMPTS) return { kind: 'exhausted' as const, since: v.created_at };
        if (!codeMatches(config.masterKey, user.id, code, v.code_hash)) {
          await repo.countVerificationAttempt(tx, user.id);
          return { kind: 'wrong' as const, remaining: VERIFICATION_MAX_ATTEMPTS - v.attempts - 1 };
        }
        await repo.deleteVerification(tx, user.id);
        return { kind: 'verified' as const, user: await repo.markPhoneVerified(tx, user.id, now) };
      });
      switch (outcome.kind) {
        case 'verified':
          return userView(outcome.user);
        case 'wrong':
          throw new ApiError('otp_incorrect', `The code is incorrect; ${outcome.remaining} attempt${outcome.remaining === 1 ? '' : 's'} left`, {
            param: 'code',
            extra: { attemptsRemaining: outcome.remaining },
          });
        case 'exhausted': {
          const decision = sendDecision([outcome.since], clock.now());
          throw new ApiError('otp_attempts_exceeded', 'Too many wrong codes; ask for a new one with POST /users/verify-phone/resend', {
            headers: retryAfter(decision.allowed ? 0 : decision.retryAfterMs),
          });
        }
        case 'expired':
          throw new ApiError('otp_expired', 'The code has expired; ask for a new one with POST /users/verify-phone/resend', { param: 'code' });
      }
    },

    /**
     * POST /auth/web. One answer (401 invalid_credentials) and the same work (an argon2id
     * verification) for an unknown phone number and a wrong password. Each attempt is counted
     * before the password is checked, so parallel guesses cannot slip past the lockout; a success
     * forgets the phone's failures.
     */
    async login(merchant: MerchantContext, input: { phoneNumber: string; password: string }): Promise<AuthResult> {
      const scope = scopeOf(merchant);
      const phoneNumber = assertPhoneNumber(input.phoneNumber);
      const attempt = await throttle.begin(`user:${scope.mode}:${scope.merchantId}:${phoneNumber}`, loginRule('this phone number'));
      const user = await repo.findUserByPhone(db, scope, phoneNumber);
      const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password);
      if (!user || !ok) throw new ApiError('invalid_credentials', 'The phone number or the password is incorrect');
      await attempt.succeeded();
      if (!user.phone_verified_at) {
        throw new ApiError('phone_not_verified', 'Verify the phone number first with the code sent by SMS (POST /users/verify-phone)');
      }
      const roles = ['USER'];
      const issued: IssuedToken = await tokens.sign({ userId: user.id, merchantId: user.merchant_id, mode: user.mode, roles });
      return { id: user.id, token: issued.token, phoneNumber: user.phone_number, roles, expiresAt: issued.expiresAt.toISOString() };
    },

    verifyAccessToken: (token: string, merchant: MerchantContext): Promise<UserContext> => tokens.verify(token, merchant),

    /** Where a user's codes go (the OTP module's PayerContacts). */
    async contact(scope: Scope, userId: string) {
      const u = await repo.findUser(db, scope, userId);
      return u && { email: u.email, phoneNumber: u.phone_number, phoneVerified: u.phone_verified_at !== null };
    },

    async getUser(merchant: Pick<MerchantContext, 'merchantId' | 'mode'>, userId: string): Promise<UserRow | undefined> {
      return repo.findUser(db, { merchantId: merchant.merchantId, mode: merchant.mode }, userId);
    },

    jwks: () => tokens.jwks(),

    /** POST /test/users: a verified user with a funded wallet (test mode only). */
    async createTestUser(
      merchant: Scope,
      input: { phoneNumber: string; password: string; email?: string; balance?: string; currency?: string },
    ): Promise<UserView & { balances: Balance[] }> {
      const scope = scopeOf(merchant);
      const phoneNumber = assertPhoneNumber(input.phoneNumber);
      if (input.password.length === 0 || input.password.length > PASSWORD_MAX_LENGTH) {
        throw new ApiError('password_weak', `The password must have 1 to ${PASSWORD_MAX_LENGTH} characters`, { param: 'password' });
      }
      const currency = assertCurrency(input.currency ?? DEFAULT_CURRENCY);
      const amount = input.balance === undefined || input.balance === '0' ? 0n : parseAmount(input.balance, currency, 'balance');
      const user = await insertUser(scope, { ...input, phoneNumber }, clock.now(), async (tx, u) => {
        await ledger.userWallet(tx, { ...scope, userId: u.id, currency });
        if (amount > 0n) await ledger.fund(tx, { ...scope, userId: u.id, currency, amount });
      });
      const wallet = await ledger.wallet({ userId: user.id, mode: scope.mode }, db, 0);
      return { ...userView(user), balances: wallet.balances };
    },

    /** POST /test/wallets/fund: money from the external account into a user's wallet. */
    async fundTestWallet(merchant: Scope, input: { userId: string; amount: string; currency: string }): Promise<WalletView> {
      const scope = scopeOf(merchant);
      const currency = assertCurrency(input.currency);
      const amount = parseAmount(input.amount, currency);
      const user = await findUser(scope, { userId: input.userId });
      return db.transaction().execute(async (tx) => {
        await ledger.fund(tx, { ...scope, userId: user.id, currency, amount });
        return ledger.wallet({ userId: user.id, mode: scope.mode }, tx);
      });
    },

    /** GET /wallet for the signed-in user. */
    wallet: (merchant: MerchantContext, user: UserContext) => ledger.wallet({ userId: user.userId, mode: merchant.mode }),
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
