import { codeMatches } from '../../platform/codes.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { type MerchantContext, scopeOf, type UserContext } from '../../platform/tenancy.ts';
import { loginRules, type Throttle } from '../../platform/throttle.ts';
import { codeRule, incorrect, subject, type UserMessages } from './users.messages.ts';
import { assertPasswordPolicy, assertPhoneNumber } from './users.policy.ts';
import { usersRepository as repo } from './users.repository.ts';
import { loginOf } from './users.signin.ts';
import type { VersionCache } from './users.versions.ts';
import type { CodeSent } from './users.views.ts';

/** A customer's password: a reset with a code by SMS, a change while signed in; either voids older tokens. */
export function createPasswords(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  shared: { throttle: Throttle; messages: Pick<UserMessages, 'codeExpiry' | 'sendReset'>; versions: Pick<VersionCache, 'changed'> },
) {
  const { db, clock, config } = deps;
  const { throttle, versions } = shared;
  const { codeExpiry, sendReset } = shared.messages;
  return {
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
  };
}
