import { sql } from 'kysely';
import { MINUTE } from './clock.ts';
import type { Clock } from './clock.ts';
import { retryAfterHeader } from './codes.ts';
import { sha256 } from './crypto.ts';
import type { Db, Executor } from './db.ts';
import { ApiError } from './errors.ts';

export interface LoginFailuresTable {
  id: import('kysely').Generated<bigint>;
  subject_hash: Buffer;
  attempted_at: Date;
}

declare module './database.ts' {
  interface Database {
    login_failures: LoginFailuresTable;
  }
}

/** The lockout of contract §6, for every sign-in: 5 failures per subject within 15 minutes. */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * MINUTE;

export interface LoginAttempt {
  /** The password was right: the subject's failures are forgotten. */
  succeeded(): Promise<void>;
}

/**
 * One sign-in lockout for end users and dashboard users. Each attempt is counted before the
 * password is checked, so parallel guesses cannot slip past the lockout; the sixth within the
 * window is 429 `login_locked` with a Retry-After that says when the oldest counted failure ages
 * out. Subjects are stored as SHA-256 hashes: no phone number or e-mail in the table.
 */
export function createLoginThrottle(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  return {
    /**
     * Counts an attempt for `subject` (e.g. `dashboard:<e-mail>`) or refuses it with 429
     * `login_locked` naming `what` ("this phone number", "this e-mail address").
     */
    async begin(subject: string, what: string): Promise<LoginAttempt> {
      const hash = sha256(subject);
      const now = clock.now();
      const windowStart = new Date(now.getTime() - LOGIN_WINDOW_MS);
      const { id } = await db.insertInto('login_failures').values({ subject_hash: hash, attempted_at: now }).returning('id').executeTakeFirstOrThrow();
      const attempts = await db
        .selectFrom('login_failures')
        .select('attempted_at')
        .where('subject_hash', '=', hash)
        .where('attempted_at', '>', windowStart)
        .orderBy('attempted_at', 'desc')
        .execute();
      if (attempts.length > LOGIN_MAX_FAILURES) {
        await db.deleteFrom('login_failures').where('id', '=', id).execute();
        // Newest first, ours at the head: the lock lifts when the fifth newest other one ages out.
        const fifth = (attempts[LOGIN_MAX_FAILURES] as { attempted_at: Date }).attempted_at;
        throw new ApiError('login_locked', `Too many failed sign-ins for ${what}; try again later`, {
          headers: retryAfterHeader(fifth.getTime() + LOGIN_WINDOW_MS - now.getTime()),
        });
      }
      return {
        async succeeded() {
          await db.deleteFrom('login_failures').where('subject_hash', '=', hash).execute();
        },
      };
    },

    /** Retention: deletes up to `limit` attempts made before `before`. Returns how many. */
    async purgeBefore(before: Date, limit: number, executor: Executor = db): Promise<number> {
      const batch = executor.selectFrom('login_failures').select('id').where('attempted_at', '<', before).limit(limit);
      const result = await executor.deleteFrom('login_failures').where(sql<boolean>`id = any(array(${batch}))`).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
