import { type Generated, sql } from 'kysely';
import type { Clock } from './clock.ts';
import { DAY, MINUTE } from './clock.ts';
import { OTP_RULES, retryAfterHeader, sendDecision, sendRefusalDetail } from './codes.ts';
import { sha256 } from './crypto.ts';
import type { Db, Executor } from './db.ts';
import { ApiError } from './errors.ts';

export interface ThrottleAttemptsTable {
  id: Generated<bigint>;
  subject_hash: Buffer;
  attempted_at: Date;
}

declare module './database.ts' {
  interface Database {
    throttle_attempts: ThrottleAttemptsTable;
  }
}

/** How many tries a subject gets in a window, and what the one too many is answered. */
export interface AttemptRule {
  max: number;
  windowMs: number;
  refuse(retryAfterMs: number): ApiError;
}

/**
 * The sign-in lockout of docs/spec/request-rules.md, per subject and client address (issue 20): 5 attempts
 * within 15 minutes. Per address, so that a stranger's wrong passwords do not lock the real
 * owner out from elsewhere.
 */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * MINUTE;
/**
 * And a slower one per subject from every address together: 100 attempts in 24 hours (NIST SP
 * 800-63B's ceiling on consecutive failures), which bounds guessing from many addresses.
 */
export const LOGIN_GLOBAL_MAX_FAILURES = 100;
export const LOGIN_GLOBAL_WINDOW_MS = DAY;

/** A sign-in's subject (`what` names it: "this phone number") and the client address it comes from. */
export interface LoginSubject {
  subject: string;
  address: string;
  what: string;
  /** What a locked-out owner can do besides waiting, said in the refusal. */
  remedy?: string;
}

/** The two lockout rules of a sign-in: per subject and address, then per subject. */
export function loginRules(s: LoginSubject): { subject: string; rule: AttemptRule }[] {
  const refuse = (where: string) => (ms: number) =>
    new ApiError('login_locked', `Too many failed sign-ins for ${s.what} ${where}; try again later${s.remedy ? `, or ${s.remedy}` : ''}`, {
      headers: retryAfterHeader(ms),
    });
  return [
    { subject: `${s.subject}@${s.address}`, rule: { max: LOGIN_MAX_FAILURES, windowMs: LOGIN_WINDOW_MS, refuse: refuse('from this address') } },
    { subject: s.subject, rule: { max: LOGIN_GLOBAL_MAX_FAILURES, windowMs: LOGIN_GLOBAL_WINDOW_MS, refuse: refuse('from all addresses') } },
  ];
}

export interface Attempt {
  /** Tries left after this one, within the window. */
  remaining: number;
  /** It succeeded: the subject's attempts are forgotten. */
  succeeded(): Promise<void>;
}

/**
 * Attempt limits keyed by subject, whatever the subject is and whether an account stands behind
 * it, so a limit tells nothing about which accounts exist. Subjects are stored as SHA-256 hashes.
 */
export function createThrottle(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function attemptsSince(hash: Buffer, since: Date): Promise<Date[]> {
    const rows = await db
      .selectFrom('throttle_attempts')
      .select('attempted_at')
      .where('subject_hash', '=', hash)
      .where('attempted_at', '>', since)
      .orderBy('attempted_at', 'desc')
      .execute();
    return rows.map((r) => r.attempted_at);
  }

  async function clear(subject: string): Promise<void> {
    await db.deleteFrom('throttle_attempts').where('subject_hash', '=', sha256(subject)).execute();
  }

  /**
   * Counts an attempt for `subject` before it is checked, or refuses it with `rule.refuse` when
   * it would be one too many (the refused attempt is removed). Returns the row's id and the tries left.
   */
  async function count(subject: string, rule: AttemptRule): Promise<{ id: bigint; remaining: number }> {
    const hash = sha256(subject);
    const now = clock.now();
    const { id } = await db.insertInto('throttle_attempts').values({ subject_hash: hash, attempted_at: now }).returning('id').executeTakeFirstOrThrow();
    const attempts = await attemptsSince(hash, new Date(now.getTime() - rule.windowMs));
    if (attempts.length > rule.max) {
      await db.deleteFrom('throttle_attempts').where('id', '=', id).execute();
      // Newest first, ours at the head: the lock lifts when the max-th newest other one ages out.
      const oldestCounted = attempts[rule.max] as Date;
      throw rule.refuse(oldestCounted.getTime() + rule.windowMs - now.getTime());
    }
    return { id, remaining: rule.max - attempts.length };
  }

  /** Counts a send under the OTP send limits; over them, nothing is counted and the wait is returned. */
  async function countSend(subject: string): Promise<number | undefined> {
    const hash = sha256(subject);
    const now = clock.now();
    const decision = sendDecision(await attemptsSince(hash, new Date(now.getTime() - OTP_RULES.sendWindowMs)), now);
    if (!decision.allowed) return decision.retryAfterMs;
    await db.insertInto('throttle_attempts').values({ subject_hash: hash, attempted_at: now }).execute();
    return undefined;
  }

  return {
    /**
     * Counts an attempt for `subject` before it is checked (parallel tries cannot slip past the
     * limit), or refuses it with `rule.refuse` when it would be one too many: the refused attempt is
     * not counted, so hammering does not extend the lock, which lifts when the oldest counted
     * attempt leaves the window.
     */
    async begin(subject: string, rule: AttemptRule): Promise<Attempt> {
      const { remaining } = await count(subject, rule);
      return { remaining, succeeded: () => clear(subject) };
    },

    /**
     * One attempt under several limits at once (a sign-in: per address, then per subject), each
     * as `begin` counts it. A refusal by any of them counts it under none; a success forgets the
     * attempts under every one.
     */
    async beginAll(limits: { subject: string; rule: AttemptRule }[]): Promise<Attempt> {
      const counted: { id: bigint; remaining: number }[] = [];
      try {
        for (const { subject, rule } of limits) counted.push(await count(subject, rule));
      } catch (err) {
        if (counted.length > 0)
          await db
            .deleteFrom('throttle_attempts')
            .where(
              'id',
              'in',
              counted.map((c) => c.id),
            )
            .execute();
        throw err;
      }
      return {
        remaining: Math.min(...counted.map((c) => c.remaining)),
        succeeded: async () => {
          for (const { subject } of limits) await clear(subject);
        },
      };
    },

    /**
     * A send of a code to `subject` under the OTP send limits (one per 30 s, 5 per 15 min), or
     * 429 `otp_rate_limited` with Retry-After. Counted whether or not anything is sent.
     */
    async send(subject: string): Promise<void> {
      const retryAfterMs = await countSend(subject);
      if (retryAfterMs !== undefined) {
        throw new ApiError('otp_rate_limited', sendRefusalDetail(retryAfterMs), { headers: retryAfterHeader(retryAfterMs) });
      }
    },

    /** `send`'s limits without the refusal: whether a code may go to `subject` now (counted if so). */
    async trySend(subject: string): Promise<boolean> {
      return (await countSend(subject)) === undefined;
    },

    /** Forgets a subject's attempts (a new code was sent: its tries start again). */
    clear,

    /** Retention: deletes up to `limit` attempts made before `before`. Returns how many. */
    async purgeBefore(before: Date, limit: number, executor: Executor = db): Promise<number> {
      const batch = executor.selectFrom('throttle_attempts').select('id').where('attempted_at', '<', before).limit(limit);
      const result = await executor
        .deleteFrom('throttle_attempts')
        .where(sql<boolean>`id = any(array(${batch}))`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;
