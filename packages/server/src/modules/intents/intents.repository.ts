import { type ColumnType, type Generated, type Insertable, type Selectable, sql } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import type { IntentStatus } from './intents.state.ts';

export type Mode = 'test' | 'live';
export type MetadataValue = string | number | boolean;
export type Metadata = Record<string, MetadataValue>;

export interface IntentsTable {
  id: string;
  merchant_id: string;
  mode: Mode;
  status: IntentStatus;
  amount_minor: bigint;
  amount_refunded_minor: Generated<bigint>;
  currency: string;
  description: string | null;
  /** A `json` column: read as the parsed object, written as JSON text (key order kept). */
  metadata: ColumnType<Metadata, string, string>;
  session_token_hash: Buffer;
  attempts: Generated<number>;
  last_error_code: string | null;
  last_error_message: string | null;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    intents: IntentsTable;
  }
}

export type IntentRow = Selectable<IntentsTable>;

/** Whose intents: a merchant in one mode. Every read and write is scoped by both. */
export interface IntentScope {
  merchantId: string;
  mode: Mode;
}

/** What a state change may also set (charges: attempts and lastError; refunds: the amount). */
export interface IntentPatch {
  attempts?: number;
  last_error_code?: string | null;
  last_error_message?: string | null;
  amount_refunded_minor?: bigint;
}

/** A status filter as a reader means it: PENDING and EXPIRED depend on expires_at (read-time expiry). */
export interface ListQuery {
  limit: number;
  startingAfter?: string;
  status?: IntentStatus;
  now: Date;
}

/** Every intent column, of one merchant in one mode only. */
function scoped(db: Executor, scope: IntentScope) {
  return db.selectFrom('intents').selectAll().where('merchant_id', '=', scope.merchantId).where('mode', '=', scope.mode);
}

export const intentsRepository = {
  /**
   * Inserts an intent valid for `expiresIn` seconds from its creation, or, when undefined, for its
   * merchant's `intent_expires_in`, read in the same statement.
   */
  async insert(db: Executor, row: Omit<Insertable<IntentsTable>, 'expires_at'>, expiresIn: number | undefined) {
    const expiresAt =
      expiresIn !== undefined
        ? new Date(row.created_at.getTime() + expiresIn * 1000)
        : sql<Date>`${row.created_at}::timestamptz + make_interval(secs => (select intent_expires_in from merchants where id = ${row.merchant_id}))`;
    return db
      .insertInto('intents')
      .values({ ...row, expires_at: expiresAt })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async find(db: Executor, scope: IntentScope, id: string) {
    return scoped(db, scope).where('id', '=', id).executeTakeFirst();
  },

  /**
   * The intent row, locked `FOR UPDATE` until the transaction ends: the one way to change an
   * intent, so two changes of one intent (two charges, a charge and a cancel, the sweeper) run
   * one after the other and the second sees the first's result.
   */
  async lockForUpdate(tx: Tx, scope: IntentScope, id: string) {
    return scoped(tx, scope).where('id', '=', id).forUpdate().executeTakeFirst();
  },

  async update(tx: Tx, id: string, set: IntentPatch & { status: IntentStatus; updated_at: Date }) {
    return tx.updateTable('intents').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },

  /** Newest first; one more row than asked, so the caller knows whether there are more. */
  async list(db: Executor, scope: IntentScope, q: ListQuery) {
    let query = scoped(db, scope);
    if (q.startingAfter !== undefined) query = query.where('id', '<', q.startingAfter);
    if (q.status === 'EXPIRED') {
      query = query.where((eb) => eb.or([eb('status', '=', 'EXPIRED'), eb.and([eb('status', '=', 'PENDING'), eb('expires_at', '<=', q.now)])]));
    } else if (q.status === 'PENDING') {
      query = query.where('status', '=', 'PENDING').where('expires_at', '>', q.now);
    } else if (q.status !== undefined) {
      query = query.where('status', '=', q.status);
    }
    return query
      .orderBy('id', 'desc')
      .limit(q.limit + 1)
      .execute();
  },

  /**
   * Claims up to `limit` PENDING intents past their expiry, locked for this transaction. SKIP
   * LOCKED: several sweepers (one per process) share the work, and an intent a charge holds is
   * left for the next round. Each comes with its merchant's pinned API version, for the event.
   */
  async claimDue(tx: Tx, now: Date, limit: number) {
    const rows = await sql<IntentRow & { merchant_api_version: string }>`
      select i.*, m.api_version as merchant_api_version
      from intents i join merchants m on m.id = i.merchant_id
      where i.status = 'PENDING' and i.expires_at <= ${now}
      order by i.expires_at
      limit ${limit}
      for update of i skip locked`.execute(tx);
    return rows.rows;
  },
};
