import { DAY } from '../../platform/clock.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { firstIdAt } from '../../platform/ids.ts';
import { allAhead } from '../../platform/prepared.ts';
import { ApiError } from '../../platform/errors.ts';
import { type IdempotentAnswer, inTransaction } from '../../platform/http/idempotency.ts';
import { type Translator, translator } from '../../platform/i18n.ts';
import type { Currency } from '../../platform/money.ts';
import { effectiveStatus, type IntentRow, type IntentsService } from '../intents/index.ts';
import type { Channel, MessageSender, StagedMessage } from '../messaging/index.ts';
import { otpRepository as repo, type UserScope } from './otp.repository.ts';
import {
  codeMatches,
  generateCode,
  hashCode,
  maskEmail,
  maskPhone,
  nextSendAt,
  OTP_RULES,
  retryAfterHeader,
  sendDecision,
  sendRefusalDetail,
} from '../../platform/codes.ts';
import type { InitOtpBody, OtpAuthorization, OtpChallenge, VerifyOtpBody } from './otp.schema.ts';
import type { MerchantContext, Scope, UserContext } from '../../platform/tenancy.ts';

/** Authorization tokens: `otp_` + 32 random bytes (256 bits) in base62. */
export const AUTHORIZATION_TOKEN_PREFIX = 'otp_';
const AUTHORIZATION_TOKEN_SHAPE = /^otp_[0-9A-Za-z]{43}$/;

/** Operations for a user take that user's access token; its `sub` must be the body's userId. */
export function assertSameUser(user: UserContext, userId: string): void {
  if (user.userId !== userId) throw new ApiError('user_mismatch', 'The access token belongs to another user than userId', { param: 'userId' });
}

/**
 * The code's message and e-mail subject in the reader's language. The code comes first, so a
 * reader (or a test) finds it before any amount; the amount is written for the locale (`5 000 FCFA`).
 */
export function otpMessage(
  t: Translator,
  code: string,
  payment?: { amountMinor: bigint; currency: Currency; merchantName: string },
): { body: string; subject: string } {
  const minutes = OTP_RULES.codeTtlMs / 60_000;
  if (!payment) return { body: t.text('otp.code', { code, minutes }), subject: t.text('otp.subject') };
  const merchant = payment.merchantName;
  return {
    body: t.text('otp.codeToPay', { code, minutes, merchant, amount: t.amount(payment.amountMinor, payment.currency) }),
    subject: t.text('otp.subjectToPay', { merchant }),
  };
}

/** The SMS that tells a customer their codes are paused for the day, in their language. */
export function dailyLimitMessage(t: Translator): { body: string; subject: string } {
  return { body: t.text('otp.dailyLimit', { count: OTP_RULES.maxWrongCodesPerDay }), subject: t.text('otp.dailyLimitSubject') };
}

/** The UTC day of an instant, as the database's `date` reads it. */
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** 429 `otp_daily_limit`: no code is sent or checked for this customer until the next UTC day. */
function dailyLimit(now: Date): ApiError {
  const tomorrow = new Date(`${utcDay(now)}T00:00:00Z`).getTime() + DAY;
  return new ApiError(
    'otp_daily_limit',
    `${OTP_RULES.maxWrongCodesPerDay} wrong codes today for this customer: no code is sent or checked until 00:00 UTC (${new Date(tomorrow).toISOString()})`,
    { headers: retryAfterHeader(tomorrow - now.getTime()) },
  );
}

function invalidToken(why: string): ApiError {
  return new ApiError('otp_token_invalid', `The x-otp-token is not valid (${why}); verify a new code with POST /otp/verify`, { param: 'x-otp-token' });
}

/** A token being spent in the caller's transaction (see `spendAuthorization`). */
export interface Spending {
  /** The spend, sent ahead: await it with the transaction's other reads (`allAhead`). */
  readonly sent: Promise<unknown>;
  /** After `sent`: resolves when the token was spent and is valid for this payment; 401 `otp_token_invalid` otherwise. */
  check(): Promise<void>;
  /** Gives the token back (unspent) in the same transaction, for a caller that commits without paying. */
  undo(tx: Tx): Promise<void>;
}

/**
 * Spends an authorization token from verifyOtp, in the caller's transaction (the charge's): it
 * must exist, be unused and unexpired, and belong to this merchant, mode and user and, when it was
 * bound to an intent, to this intent. Otherwise 401 `otp_token_invalid` (the caller's transaction
 * then rolls back, so a refused token is not spent). The token is looked up by its SHA-256. The
 * spend is sent ahead, with the caller's next statement.
 */
function spendAuthorization(
  tx: Tx,
  deps: Pick<Deps, 'clock'>,
  q: { token: string; merchantId: string; mode: string; userId: string; intentId: string },
): Spending {
  if (!AUTHORIZATION_TOKEN_SHAPE.test(q.token)) {
    const refused = invalidToken('not a token Caisse issued');
    return {
      sent: Promise.resolve(),
      check: async () => {
        throw refused;
      },
      undo: async () => {},
    };
  }
  const hash = sha256(q.token);
  const now = deps.clock.now();
  // One statement in the usual case: spend it if unused, then check it (a refusal rolls back).
  const spent = repo.spendAuthorization(tx, hash, now);
  spent.catch(() => {});
  return {
    sent: spent,
    async check() {
      const auth = await spent;
      if (!auth) {
        const seen = await repo.findAuthorization(tx, hash);
        if (!seen || seen.merchant_id !== q.merchantId || seen.mode !== q.mode) throw invalidToken('unknown token');
        throw invalidToken('already used');
      }
      if (auth.merchant_id !== q.merchantId || auth.mode !== q.mode) throw invalidToken('unknown token');
      if (auth.expires_at.getTime() <= now.getTime()) throw invalidToken('expired');
      if (auth.user_id !== q.userId) throw invalidToken('issued to another user');
      if (auth.intent_id !== null && auth.intent_id !== q.intentId) throw invalidToken('issued for another payment intent');
    },
    async undo(tx) {
      // Spent here means it was unused before: unused it is again.
      if ((await spent.catch(() => undefined)) !== undefined) await repo.unspendAuthorization(tx, hash);
    },
  };
}

type VerifyOutcome =
  | { kind: 'authorized'; authorization: OtpAuthorization }
  | { kind: 'wrong'; remaining: number }
  | { kind: 'exhausted' }
  | { kind: 'dead' }
  /** The day's wrong codes reached the cap; `alert` on the one that reached it. */
  | { kind: 'daily'; alert: boolean };

/** A wrong code (`remaining` tries left), or no live code at all (`dead`): 400 `otp_incorrect`. */
function incorrectCode(outcome: Extract<VerifyOutcome, { kind: 'wrong' } | { kind: 'dead' }>): ApiError {
  const remaining = outcome.kind === 'wrong' ? outcome.remaining : 0;
  const detail =
    outcome.kind === 'wrong'
      ? `The code is incorrect; ${remaining} attempt${remaining === 1 ? '' : 's'} left`
      : 'The code is incorrect or no longer valid; ask for a new code with POST /otp/init';
  return new ApiError('otp_incorrect', detail, { param: 'otp', extra: { attemptsRemaining: remaining } });
}

/**
 * Strong customer authentication (docs/spec/otp-and-charge.md): initOtp sends a code, verifyOtp exchanges it for
 * a single-use authorization token that `POST /charge` spends.
 */
/** Where a user's codes go: the users module's contact details (injected: users do not depend on OTP). */
export interface PayerContacts {
  /** `linked`: the merchant sees the customer already. With `executor`, read ahead in its transaction. */
  contact(
    scope: Scope,
    userId: string,
    executor?: Executor,
  ): Promise<{ email: string | null; phoneNumber: string; phoneVerified: boolean; language: string | null; linked: boolean } | undefined>;
  /** A code for one of the merchant's intents is a payment attempt: the merchant sees the customer from then on. */
  link(scope: Scope, userId: string, executor?: Executor): Promise<void>;
}

export function createOtpService(
  deps: Deps,
  collaborators: { messaging: MessageSender; users: PayerContacts; intents: Pick<IntentsService, 'retrieveRow' | 'markStarted'> },
) {
  const { db, clock, ids, config, random } = deps;
  const { messaging, users, intents } = collaborators;

  const windowStart = (now: Date) => new Date(now.getTime() - OTP_RULES.sendWindowMs);

  /** Where the code goes, or the 4xx that says why it cannot go there. */
  function destination(userId: string, contact: Awaited<ReturnType<PayerContacts['contact']>>, channel: Channel) {
    if (!contact) throw new ApiError('not_found', `No user ${userId}`, { param: 'userId' });
    if (channel === 'email') {
      if (!contact.email) throw new ApiError('email_missing', 'This user has no e-mail address on file; use channel "sms"', { param: 'channel' });
      return { to: contact.email, contact };
    }
    if (!contact.phoneVerified) throw new ApiError('phone_not_verified', 'The phone number is not verified; verify it first (POST /users/verify-phone)');
    return { to: contact.phoneNumber, contact };
  }

  /** What the code's message names when it is for an intent, or the 4xx that says why it cannot be paid. */
  function paymentOf(intent: IntentRow | undefined, intentId: string, merchantName: string) {
    if (!intent) throw new ApiError('not_found', `No payment intent ${intentId}`, { param: 'intentionId' });
    const status = effectiveStatus(intent, clock.now());
    if (status === 'EXPIRED') throw new ApiError('intent_expired', 'The intent has expired; create a new intent', { param: 'intentionId' });
    // As the charge would answer: the payer waits for the mobile-money request first.
    if (status === 'PROCESSING')
      throw new ApiError('attempt_in_progress', 'An attempt of this intent is waiting for the provider; wait for its outcome', { param: 'intentionId' });
    if (status !== 'PENDING') {
      throw new ApiError('intent_state_invalid', `The intent is ${status}: only a PENDING intent can be paid`, {
        param: 'intentionId',
        extra: { intentStatus: status },
      });
    }
    return { intentId: intent.id, amountMinor: intent.amount_minor, currency: intent.currency as Currency, merchantName, started: intent.started_by !== null };
  }

  /**
   * Tells the customer by SMS that their codes are paused, in their language (else the request's,
   * else the merchant's default); a provider outage does not change the answer.
   */
  async function alertDailyLimit(merchant: MerchantContext, scope: UserScope, requested: readonly string[]): Promise<void> {
    const contact = await users.contact(scope, scope.userId);
    if (!contact) return;
    const message = dailyLimitMessage(translator({ saved: contact.language, requested, merchantDefault: merchant.merchantLanguage }));
    try {
      await messaging.send({ ...scope, channel: 'sms', to: contact.phoneNumber, body: message.body, subject: message.subject });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }

  /** Why a verification failed, as the 4xx the client gets. */
  async function verifyFailure(
    merchant: MerchantContext,
    scope: UserScope,
    outcome: Exclude<VerifyOutcome, { kind: 'authorized' }>,
    requested: readonly string[],
  ): Promise<ApiError> {
    if (outcome.kind === 'daily') {
      if (outcome.alert) await alertDailyLimit(merchant, scope, requested);
      return dailyLimit(clock.now());
    }
    if (outcome.kind === 'exhausted') {
      const now = clock.now();
      const decision = sendDecision(await repo.sendsSince(db, scope, windowStart(now)), now);
      return new ApiError('otp_attempts_exceeded', 'Too many wrong codes; ask for a new code with POST /otp/init', {
        headers: retryAfterHeader(decision.allowed ? 0 : decision.retryAfterMs),
      });
    }
    return incorrectCode(outcome);
  }

  return {
    /** Retention: deletes up to `limit` daily counts of wrong codes of days before `before`'s. */
    purgeDailyFailuresBefore: (before: Date, limit: number) => repo.purgeDailyFailuresBefore(db, utcDay(before), limit),

    /** Retention: deletes up to `limit` codes sent before `before`, with their authorizations. */
    purgeCodesBefore: (before: Date, limit: number) => repo.purgeCodesBefore(db, { before, beforeId: firstIdAt('otp', before), now: clock.now(), limit }),

    /**
     * Spends an authorization token from verifyOtp in the caller's transaction (the charge's); see
     * spendAuthorization. A refusal is 401 `otp_token_invalid` and rolls the caller back.
     */
    spend: (tx: Tx, q: { token: string; merchantId: string; mode: string; userId: string; intentId: string }): Spending => spendAuthorization(tx, deps, q),

    /**
     * POST /otp/init: a fresh 6-digit code to the user's verified phone or e-mail on file, voiding
     * the previous one. Sends are limited per user (one per 30 s, 5 per 15 min: 429
     * `otp_rate_limited` with Retry-After), counted under a per-user lock. The message is in the
     * customer's language, else the request's (`requested`, from Accept-Language), else the
     * merchant's default, else French.
     */
    async init(
      merchant: MerchantContext,
      user: UserContext,
      body: InitOtpBody,
      requested: readonly string[] = [],
      answer?: IdempotentAnswer,
    ): Promise<OtpChallenge> {
      assertSameUser(user, body.userId);
      // An unbound authorization would pay any intent of any amount: live codes are for one payment.
      if (merchant.mode === 'live' && body.intentionId === undefined) {
        throw new ApiError('parameter_missing', 'In live mode initOtp needs intentionId: a code authorizes one payment', { param: 'intentionId' });
      }
      const scope: UserScope = { merchantId: merchant.merchantId, mode: merchant.mode, userId: body.userId };
      const code = generateCode(random);
      const otpId = ids('otp');
      let attempt = false;
      let staged: { message: StagedMessage; to: string; challenge: OtpChallenge } | undefined;
      try {
        // With an Idempotency-Key, its claim rides with this transaction: no code is sent twice.
        staged = await inTransaction(db, answer, async (tx) => {
          const now = clock.now();
          // Sent ahead together, one round trip with the BEGIN: who pays, for what, then the
          // user's send lock and, under it, the sends so far.
          const [contact, intent, failuresToday, earlier] = await allAhead([
            users.contact(scope, scope.userId, tx),
            body.intentionId === undefined ? undefined : intents.retrieveRow(scope, body.intentionId, tx),
            repo.lockUserSends(tx, scope.userId, utcDay(now)),
            repo.sendsInWindowForgettingStale(tx, scope, { now, windowStart: windowStart(now) }),
          ]);
          const { to, contact: payer } = destination(scope.userId, contact, body.channel);
          attempt = intent !== undefined && !payer.linked;
          const payment = body.intentionId === undefined ? undefined : paymentOf(intent, body.intentionId, merchant.merchantName);
          if (failuresToday >= OTP_RULES.maxWrongCodesPerDay) throw dailyLimit(now);
          const decision = sendDecision(earlier, now);
          if (!decision.allowed) {
            throw new ApiError('otp_rate_limited', sendRefusalDetail(decision.retryAfterMs), {
              headers: retryAfterHeader(decision.retryAfterMs),
            });
          }
          const expiresAt = new Date(now.getTime() + OTP_RULES.codeTtlMs);
          // The rest rides with the COMMIT: the merchant sees the customer from this attempt on,
          // the first customer sent a code for the intent started paying it (only their declines count).
          if (attempt) {
            attempt = false;
            await users.link(scope, scope.userId, tx);
          }
          if (payment && !payment.started) await intents.markStarted(tx, scope, payment.intentId, scope.userId);
          await repo.insertCode(tx, {
            id: otpId,
            merchant_id: scope.merchantId,
            mode: scope.mode,
            user_id: scope.userId,
            intent_id: payment?.intentId ?? null,
            channel: body.channel,
            code_hash: hashCode(config.masterKey, otpId, code),
            expires_at: expiresAt,
            created_at: now,
          });
          const t = translator({ saved: payer.language, requested, merchantDefault: merchant.merchantLanguage });
          const text = otpMessage(t, code, payment);
          // The message's row commits with its code; a provider is called after the commit.
          const message = await messaging.stage(tx, { ...scope, channel: body.channel, to, body: text.body, code, subject: text.subject });
          const sends = [...earlier, now];
          const challenge: OtpChallenge = {
            object: 'otp_challenge',
            userId: scope.userId,
            channel: body.channel,
            destination: body.channel === 'sms' ? maskPhone(to) : maskEmail(to),
            intentionId: payment?.intentId ?? null,
            expiresAt: expiresAt.toISOString(),
            resendAvailableAt: nextSendAt(sends, now).toISOString(),
          };
          // Nothing can fail after the commit when the outbox keeps the message: the answer commits too.
          if (message.stored) await answer?.record(tx, 200, challenge);
          return { message, to, challenge };
        });
      } catch (err) {
        // Refused, but for one of the merchant's intents: a payment attempt all the same.
        if (attempt) await users.link(scope, scope.userId);
        throw err;
      }

      try {
        await staged.message.deliver();
      } catch (err) {
        // Not delivered: forget it, so it neither replaces the previous code nor counts as a send.
        await repo.deleteCode(db, otpId);
        throw err;
      }
      return staged.challenge;
    },

    /**
     * POST /otp/verify: the user's live code (their newest, unused, unexpired) for a single-use
     * authorization token. A wrong code counts a try (400 `otp_incorrect` with
     * `attemptsRemaining`); after 5, 429 `otp_attempts_exceeded` until a new code is sent. No live
     * code at all (none sent, expired, already used) is `otp_incorrect` with 0 attempts remaining.
     * With `answer` (an Idempotency-Key), the token's answer, or the wrong code's with its try
     * counted, is stored in the transaction that commits it. The 20th wrong code of the day sends
     * the customer an SMS in their language (`requested`: Accept-Language, when they chose none).
     */
    async verify(
      merchant: MerchantContext,
      user: UserContext,
      body: VerifyOtpBody,
      answer?: IdempotentAnswer,
      requested: readonly string[] = [],
    ): Promise<OtpAuthorization> {
      assertSameUser(user, body.userId);
      const scope: UserScope = { merchantId: merchant.merchantId, mode: merchant.mode, userId: body.userId };
      const outcome = await inTransaction(db, answer, async (tx): Promise<VerifyOutcome> => {
        const now = clock.now();
        const day = utcDay(now);
        const row = await repo.lockNewestCode(tx, scope, day);
        // Past the day's cap every answer is the same 429, the right code's included.
        if ((row ? (row.failures_today ?? 0) : await repo.failuresOn(tx, scope.userId, day)) >= OTP_RULES.maxWrongCodesPerDay) {
          const daily = dailyLimit(now);
          await answer?.recordProblem(tx, daily);
          return { kind: 'daily', alert: false };
        }
        if (!row || row.consumed_at !== null) return { kind: 'dead' };
        if (row.attempts >= OTP_RULES.maxWrongAttempts) return { kind: 'exhausted' };
        if (row.expires_at.getTime() <= now.getTime()) return { kind: 'dead' };
        if (!codeMatches(config.masterKey, row.id, body.otp, row.code_hash)) {
          const { attempts, failuresToday } = await repo.countWrongAttempt(tx, row.id, scope.userId, day);
          if (failuresToday >= OTP_RULES.maxWrongCodesPerDay) {
            await answer?.recordProblem(tx, dailyLimit(now));
            return { kind: 'daily', alert: failuresToday === OTP_RULES.maxWrongCodesPerDay };
          }
          const wrong = { kind: 'wrong' as const, remaining: Math.max(0, OTP_RULES.maxWrongAttempts - attempts) };
          await answer?.recordProblem(tx, incorrectCode(wrong));
          return wrong;
        }
        const token = AUTHORIZATION_TOKEN_PREFIX + randomToken(random, 32);
        const expiresAt = new Date(now.getTime() + OTP_RULES.authorizationTtlMs);
        await repo.exchangeCode(tx, row.id, now, {
          token_hash: sha256(token),
          merchant_id: scope.merchantId,
          mode: scope.mode,
          user_id: scope.userId,
          intent_id: row.intent_id,
          otp_id: row.id,
          expires_at: expiresAt,
          created_at: now,
        });
        const authorization: OtpAuthorization = {
          object: 'otp_authorization',
          authorizationToken: token,
          expiresAt: expiresAt.toISOString(),
          userId: scope.userId,
          intentionId: row.intent_id,
        };
        await answer?.record(tx, 200, authorization);
        return { kind: 'authorized', authorization };
      });
      if (outcome.kind !== 'authorized') throw await verifyFailure(merchant, scope, outcome, requested);
      return outcome.authorization;
    },
  };
}

export type OtpService = ReturnType<typeof createOtpService>;
