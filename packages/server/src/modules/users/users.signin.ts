import type { Country } from '../../platform/countries.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { dummyPasswordHash, verifyPassword } from '../../platform/passwords.ts';
import type { KeyMode, MerchantContext, UserContext } from '../../platform/tenancy.ts';
import { type LoginSubject, loginRules, type Throttle } from '../../platform/throttle.ts';
import { subject } from './users.messages.ts';
import { assertPhoneNumber } from './users.policy.ts';
import { type UserRow, usersRepository as repo } from './users.repository.ts';
import type { createTokenService, IssuedToken } from './users.tokens.ts';
import type { AuthResult } from './users.views.ts';

/** 403 `customer_locked`: an operator locked the account (docs/spec/request-rules.md). */
function lockedError(): ApiError {
  return new ApiError('customer_locked', 'This account is locked by the platform operator: contact its support');
}

/** A customer's sign-in, limited per number and client address, then per number (issue 20). */
export const loginOf = (mode: KeyMode, phoneNumber: string, address: string): LoginSubject => ({
  subject: subject('login', mode, phoneNumber),
  address,
  what: 'this phone number',
  remedy: 'reset the password (POST /auth/password-reset)',
});

/** The password check every sign-in goes through (a merchant's checkout, the customer's account page). */
export function createPasswordCheck(deps: Pick<Deps, 'db'>, throttle: Throttle) {
  const { db } = deps;
  return {
    /**
     * The customer of this number and password, or 401 `invalid_credentials` (the same answer and
     * work for an unknown number). Each attempt counts before the password is checked, per number
     * and client address, then per number; a success forgets the number's failures.
     */
    async checkPassword(mode: KeyMode, country: Country | undefined, input: { phoneNumber: string; password: string }, address: string): Promise<UserRow> {
      const phoneNumber = assertPhoneNumber(input.phoneNumber, country);
      const attempt = await throttle.beginAll(loginRules(loginOf(mode, phoneNumber, address)));
      const user = await repo.findUserByPhone(db, mode, phoneNumber);
      const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password);
      if (!user || !ok) throw new ApiError('invalid_credentials', 'The phone number or the password is incorrect');
      await attempt.succeeded();
      return user;
    },
  };
}

export type PasswordCheck = ReturnType<typeof createPasswordCheck>;

/** Signing in through a merchant (POST /auth/web) and the access tokens it issues. */
export function createSignIn(check: PasswordCheck, tokens: ReturnType<typeof createTokenService>) {
  const { checkPassword } = check;
  return {
    tokens,

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

    verifyAccessToken: (token: string, merchant: MerchantContext): Promise<UserContext> => tokens.verify(token, merchant),

    jwks: () => tokens.jwks(),
  };
}
