import { MINUTE } from '../../platform/clock.ts';
import { generateCode, hashCode, retryAfterHeader } from '../../platform/codes.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { type MessageId, translator } from '../../platform/i18n.ts';
import { type KeyMode, type MerchantContext, type Scope, scopeOf } from '../../platform/tenancy.ts';
import type { AttemptRule, Throttle } from '../../platform/throttle.ts';
import type { MessageSender } from '../messaging/index.ts';
import { type UserRow, usersRepository as repo } from './users.repository.ts';

/** Phone verification and password reset codes: 10 minutes, 5 wrong tries; sends as OTP codes. */
export const VERIFICATION_TTL_MS = 10 * MINUTE;
export const VERIFICATION_MAX_ATTEMPTS = 5;
/** A code's life as its SMS tells it. */
export const CODE_MINUTES = VERIFICATION_TTL_MS / MINUTE;

/** A code check: 5 tries per code (a new code starts them again), the sixth 429 `otp_attempts_exceeded`. */
export function codeRule(what: string): AttemptRule {
  return {
    max: VERIFICATION_MAX_ATTEMPTS,
    windowMs: VERIFICATION_TTL_MS,
    refuse: (ms) => new ApiError('otp_attempts_exceeded', `Too many wrong codes; ask for a new one with ${what}`, { headers: retryAfterHeader(ms) }),
  };
}

/** A wrong, expired or never-sent code: one answer, so it tells nothing about the number. */
export function incorrect(remaining: number): ApiError {
  return new ApiError('otp_incorrect', `The code is incorrect or no longer valid; ${remaining} attempt${remaining === 1 ? '' : 's'} left`, {
    param: 'code',
    extra: { attemptsRemaining: remaining },
  });
}

/** What a limit counts: one kind of try, per mode and phone number. */
export const subject = (kind: 'login' | 'verify' | 'reset' | 'account' | 'send:verify' | 'send:reset' | 'send:account', mode: KeyMode, phoneNumber: string) =>
  `${kind}:${mode}:${phoneNumber}`;

/** The customer's SMS: the one-time codes (verification, password reset) and the notices. */
export function createUserMessages(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'random'>, throttle: Throttle, messaging: MessageSender) {
  const { db, clock, config, random } = deps;
  const codeExpiry = () => new Date(clock.now().getTime() + VERIFICATION_TTL_MS);

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
    await sms(merchant, user, requested, 'users.reset', 'users.resetSubject', { code, minutes: CODE_MINUTES });
  }

  /** A fresh verification code for the customer's phone: stored as a keyed hash, sent by SMS. */
  async function sendVerification(merchant: MerchantContext, user: UserRow, requested: readonly string[]): Promise<void> {
    const code = generateCode(random);
    const now = clock.now();
    await repo.saveVerification(db, { user_id: user.id, code_hash: hashCode(config.masterKey, user.id, code), expires_at: codeExpiry(), created_at: now });
    await throttle.clear(subject('verify', user.mode, user.phone_number));
    await sms(merchant, user, requested, 'users.verification', 'users.verificationSubject', { code, minutes: CODE_MINUTES });
  }

  return { codeExpiry, sms, sendReset, sendVerification };
}

export type UserMessages = ReturnType<typeof createUserMessages>;
