import { type Generated, type Selectable, sql } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import { prepare } from '../../platform/prepared.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import type { Channel } from '../messaging/index.ts';

export interface OtpCodesTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  user_id: string;
  intent_id: string | null;
  channel: Channel;
  code_hash: Buffer;
  attempts: Generated<number>;
  expires_at: Date;
  created_at: Date;
  consumed_at: Date | null;
}

export interface OtpAuthorizationsTable {
  token_hash: Buffer;
  merchant_id: string;
  mode: KeyMode;
  user_id: string;
  intent_id: string | null;
  otp_id: string;
  expires_at: Date;
  created_at: Date;
  used_at: Date | null;
}

/** Wrong codes per customer and UTC day (`day` written as 'YYYY-MM-DD'). */
export interface OtpDailyFailuresTable {
  user_id: string;
  day: string;
  failures: number;
}

declare module '../../platform/database.ts' {
  interface Database {
    otp_codes: OtpCodesTable;
    otp_authorizations: OtpAuthorizationsTable;
    otp_daily_failures: OtpDailyFailuresTable;
  }
}

export type OtpCodeRow = Selectable<OtpCodesTable>;
export type OtpAuthorizationRow = Selectable<OtpAuthorizationsTable>;

export interface UserScope {
  merchantId: string;
  mode: KeyMode;
  userId: string;
}

/** The user's codes, of one merchant and mode only. */
function codesOf(db: Executor, scope: UserScope) {
  return db.selectFrom('otp_codes').where('user_id', '=', scope.userId).where('merchant_id', '=', scope.merchantId).where('mode', '=', scope.mode);
}

// The payment path's statements, compiled once (platform/prepared.ts).
const sendsInWindow = prepare((db, p: UserScope & { now: Date; windowStart: Date }) =>
  db
    .with('stale_authorizations', (db) => db.deleteFrom('otp_authorizations').where('user_id', '=', p.userId).where('expires_at', '<=', p.now))
    .with('stale_codes', (db) => db.deleteFrom('otp_codes').where('user_id', '=', p.userId).where('created_at', '<', p.windowStart))
    .selectFrom('otp_codes')
    .select('created_at')
    // Every merchant's: the send limits are the customer's, not one merchant's (issue 30).
    .where('user_id', '=', p.userId)
    .where('mode', '=', p.mode)
    .where('created_at', '>', p.windowStart),
);

// Sent ahead with the code's other reads (Prepared.ahead): the lock is taken before the sends are read.
const lockSends = prepare(
  (_db, p: { lockKey: string; userId: string; day: string }) =>
    sql<{
      failures: number | null;
    }>`select pg_advisory_xact_lock(hashtextextended(${p.lockKey}, 0)), (select failures from otp_daily_failures where user_id = ${p.userId} and day = ${p.day}::date) as failures`,
);

// Nobody reads its answer: inside the send's transaction it rides with the COMMIT.
const insertCodeRow = prepare(
  (db, p: Omit<OtpCodesTable, 'attempts' | 'consumed_at'>) =>
    db.insertInto('otp_codes').values({
      id: p.id,
      merchant_id: p.merchant_id,
      mode: p.mode,
      user_id: p.user_id,
      intent_id: p.intent_id,
      channel: p.channel,
      code_hash: p.code_hash,
      expires_at: p.expires_at,
      created_at: p.created_at,
    }),
  { deferred: true },
);

const lockNewest = prepare((db, p: UserScope & { day: string }) =>
  codesOf(db, p)
    .selectAll()
    .select((eb) => eb.selectFrom('otp_daily_failures').select('failures').where('user_id', '=', p.userId).where('day', '=', p.day).as('failures_today'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .forUpdate(),
);

// The code is locked by this transaction and the token's hash is new: nothing can stop it, so it
// rides with the COMMIT (a failure would still fail the transaction there).
const exchange = prepare(
  (db, p: Omit<OtpAuthorizationsTable, 'used_at'> & { codeId: string; at: Date }) =>
    db
      .with('consumed', (db) => db.updateTable('otp_codes').set({ consumed_at: p.at }).where('id', '=', p.codeId))
      .insertInto('otp_authorizations')
      .values({
        token_hash: p.token_hash,
        merchant_id: p.merchant_id,
        mode: p.mode,
        user_id: p.user_id,
        intent_id: p.intent_id,
        otp_id: p.otp_id,
        expires_at: p.expires_at,
        created_at: p.created_at,
      }),
  { deferred: true },
);

const unspend = prepare((db, p: { tokenHash: Buffer }) => db.updateTable('otp_authorizations').set({ used_at: null }).where('token_hash', '=', p.tokenHash), {
  deferred: true,
});
// Sent ahead with the intent's lock (Prepared.ahead): one round trip for both.
const spend = prepare((db, p: { tokenHash: Buffer; at: Date }) =>
  db.updateTable('otp_authorizations').set({ used_at: p.at }).where('token_hash', '=', p.tokenHash).where('used_at', 'is', null).returningAll(),
);

export const otpRepository = {
  /**
   * Serialises the sends of one user until the transaction ends (a transaction-level advisory
   * lock keyed by the user id), so two initOtp calls at once cannot both pass the send limits.
   * Answers, in the same statement, the user's wrong codes on `day`. Sent ahead, like
   * `sendsInWindowForgettingStale`: issue both, then await.
   */
  async lockUserSends(tx: Tx, userId: string, day: string): Promise<number> {
    const rows = await lockSends.ahead(tx, { lockKey: `otp:${userId}`, userId, day });
    return rows[0]?.failures ?? 0;
  },

  /** The user's wrong codes on `day`. */
  async failuresOn(db: Executor, userId: string, day: string): Promise<number> {
    const row = await db.selectFrom('otp_daily_failures').select('failures').where('user_id', '=', userId).where('day', '=', day).executeTakeFirst();
    return row?.failures ?? 0;
  },

  /** When the user's codes were sent since `since`, through any merchant (the send limits are the customer's). */
  async sendsSince(db: Executor, scope: UserScope, since: Date): Promise<Date[]> {
    const rows = await db
      .selectFrom('otp_codes')
      .select('created_at')
      .where('user_id', '=', scope.userId)
      .where('mode', '=', scope.mode)
      .where('created_at', '>', since)
      .execute();
    return rows.map((r) => r.created_at);
  },

  /**
   * When the user's codes were sent within the send limits' window (after `windowStart`), and, in
   * the same statement, forgets what can no longer matter: authorizations expired by `now`, and
   * codes sent before the window (dead, and out of the limits) with whatever authorization they
   * gave. The rows counted and the rows deleted are disjoint, so one snapshot serves both.
   */
  async sendsInWindowForgettingStale(tx: Tx, scope: UserScope, q: { now: Date; windowStart: Date }): Promise<Date[]> {
    const rows = await sendsInWindow.ahead(tx, { ...scope, ...q });
    return rows.map((r) => r.created_at);
  },

  async insertCode(db: Executor, row: Omit<OtpCodesTable, 'attempts' | 'consumed_at'>): Promise<void> {
    await insertCodeRow.execute(db, row);
  },

  async deleteCode(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('otp_codes').where('id', '=', id).execute();
  },

  /**
   * The user's newest code (the only live one), locked for the transaction so tries count exactly,
   * with the user's wrong codes on `day` read in the same statement.
   */
  async lockNewestCode(tx: Tx, scope: UserScope, day: string): Promise<(OtpCodeRow & { failures_today: number | null }) | undefined> {
    return lockNewest.first(tx, { ...scope, day });
  },

  /** Counts a wrong try on the code and on the user's `day`, in one statement: the code's tries and the day's wrong codes. */
  async countWrongAttempt(tx: Tx, id: string, userId: string, day: string): Promise<{ attempts: number; failuresToday: number }> {
    const row = await tx
      .with('code', (db) =>
        db
          .updateTable('otp_codes')
          .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
          .where('id', '=', id)
          .returning('attempts'),
      )
      .with('today', (db) =>
        db
          .insertInto('otp_daily_failures')
          .values({ user_id: userId, day, failures: 1 })
          .onConflict((oc) => oc.columns(['user_id', 'day']).doUpdateSet((eb) => ({ failures: eb('otp_daily_failures.failures', '+', 1) })))
          .returning('failures'),
      )
      .selectFrom(['code', 'today'])
      .select(['code.attempts', 'today.failures'])
      .executeTakeFirstOrThrow();
    return { attempts: row.attempts, failuresToday: row.failures };
  },

  /** Retention: deletes up to `limit` daily counts of days before `day`. Returns how many. */
  async purgeDailyFailuresBefore(db: Executor, day: string, limit: number): Promise<number> {
    const batch = db.selectFrom('otp_daily_failures').select(['user_id', 'day']).where('day', '<', day).limit(limit);
    const result = await db
      .deleteFrom('otp_daily_failures')
      .where(sql<boolean>`(user_id, day) in (${batch})`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** Marks the code exchanged and stores the authorization token it bought, in one statement. */
  async exchangeCode(tx: Tx, codeId: string, at: Date, authorization: Omit<OtpAuthorizationsTable, 'used_at'>): Promise<void> {
    await exchange.execute(tx, { ...authorization, codeId, at });
  },

  /**
   * Spends the unused authorization with this token hash (it stays locked until the transaction
   * ends) and returns it, or undefined when there is none unused. The caller checks the rest and
   * rolls the transaction back to refuse it, which leaves it unspent.
   */
  async spendAuthorization(tx: Tx, tokenHash: Buffer, at: Date): Promise<OtpAuthorizationRow | undefined> {
    return (await spend.ahead(tx, { tokenHash, at }))[0];
  },

  /** Gives back an authorization this transaction spent (it holds its row locked). */
  async unspendAuthorization(tx: Tx, tokenHash: Buffer): Promise<void> {
    await unspend.execute(tx, { tokenHash });
  },

  async findAuthorization(db: Executor, tokenHash: Buffer): Promise<OtpAuthorizationRow | undefined> {
    return db.selectFrom('otp_authorizations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  },

  /**
   * Deletes up to `limit` codes sent before `before` and expired by `now` (consumed or not), with
   * the authorizations they bought (the foreign key cascades; an authorization outlives its code
   * by minutes at most). `beforeId` is the first code id of `before` (`firstIdAt`), so the primary
   * key finds them. Returns how many codes it deleted.
   */
  async purgeCodesBefore(db: Executor, q: { before: Date; beforeId: string; now: Date; limit: number }): Promise<number> {
    const batch = db
      .selectFrom('otp_codes')
      .select('id')
      .where('id', '<', q.beforeId)
      .where('created_at', '<', q.before)
      .where('expires_at', '<=', q.now)
      .orderBy('id')
      .limit(q.limit);
    const result = await db
      .deleteFrom('otp_codes')
      .where(sql<boolean>`id = any(array(${batch}))`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
