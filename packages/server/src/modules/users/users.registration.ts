import { codeMatches } from '../../platform/codes.ts';
import type { Country } from '../../platform/countries.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { languageToSave } from '../../platform/i18n.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { type KeyMode, type MerchantContext, scopeOf } from '../../platform/tenancy.ts';
import type { Throttle } from '../../platform/throttle.ts';
import { codeRule, incorrect, subject, type UserMessages } from './users.messages.ts';
import { assertPasswordPolicy, assertPhoneNumber } from './users.policy.ts';
import type { UserRecords } from './users.records.ts';
import { type UserRow, usersRepository as repo } from './users.repository.ts';
import { type CodeSent, type UserView, userView } from './users.views.ts';

/** Registering a customer through a merchant and proving the phone is theirs with a code by SMS. */
export function createRegistration(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  shared: { throttle: Throttle; messages: UserMessages; records: Pick<UserRecords, 'link' | 'insertUser'> },
) {
  const { db, clock, config } = deps;
  const { throttle, records } = shared;
  const { codeExpiry, sms, sendVerification } = shared.messages;
  const { link, insertUser } = records;

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
  };
}
