import { type ColumnType, type Generated, type Insertable, type Selectable, sql } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import { fieldsOf, prepare, prepareByFields } from '../../platform/prepared.ts';
import type { IntentStatus } from './intents.state.ts';

import type { KeyMode, Scope } from '../../platform/tenancy.ts';
export type MetadataValue = string | number | boolean;
export type Metadata = Record<string, MetadataValue>;

export interface IntentsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
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
  /** The platform's fee, set when the intent is paid (docs/spec/money-out.md). */
  fee_minor: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  /** The customer who started paying it: the first sent a code bound to it (only their declines count). */
  started_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where the checkout sends the payer after the outcome (docs/spec/mobile-money-payments.md); null: none. */
  return_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** Had a direct mobile-money attempt (its reads list the attempts). */
  direct_payment: Generated<boolean>;
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
/** What a state change may also set (charges: attempts and lastError; refunds: the amount). */
export interface IntentPatch {
  attempts?: number;
  last_error_code?: string | null;
  last_error_message?: string | null;
  amount_refunded_minor?: bigint;
  fee_minor?: bigint | null;
  direct_payment?: boolean;
  started_by?: string | null;
}

/** A status filter as a reader means it: PENDING and EXPIRED depend on expires_at (read-time expiry). */
export interface ListQuery {
  limit: number;
  startingAfter?: string;
  status?: IntentStatus;
  now: Date;
}

/** Every intent column, of one merchant in one mode only. */
function scoped(db: Executor, scope: Scope) {
  return db.selectFrom('intents').selectAll().where('merchant_id', '=', scope.merchantId).where('mode', '=', scope.mode);
}

// The payment path's statements, compiled once (platform/prepared.ts).
const insertIntent = prepareByFields((db, p: Insertable<IntentsTable>, fields) => db.insertInto('intents').values(fieldsOf(p, fields)).returningAll());
const findIntent = prepare((db, p: Scope & { id: string }) => scoped(db, p).where('id', '=', p.id));
// Its answer is not needed (another customer may have started it first): it rides with the next statement.
const markStartedBy = prepare(
  (db, p: Scope & { id: string; userId: string }) =>
    db
      .updateTable('intents')
      .set({ started_by: p.userId })
      .where('id', '=', p.id)
      .where('merchant_id', '=', p.merchantId)
      .where('mode', '=', p.mode)
      .where('started_by', 'is', null),
  { deferred: true },
);
const lockIntent = prepare((db, p: Scope & { id: string }) => scoped(db, p).where('id', '=', p.id).forUpdate());
/** The error a transaction fails with when a state change found no intent to change (see `update`). */
export const INTENT_NOT_UPDATED = 'intent_update_found_no_row';
// Of a row the transaction holds locked: its new state is known without reading it back, so the
// write rides with the transaction's next statement and fails it should it find no row.
const updateIntent = prepareByFields(
  (db, p: IntentPatch & { status: IntentStatus; updated_at: Date; id: string }, fields) => {
    const { id: _id, ...set } = fieldsOf(
      p,
      fields.filter((f) => f !== 'id'),
    );
    return db
      .with('updated', (db) => db.updateTable('intents').set(set).where('id', '=', p.id).returning('id'))
      .selectNoFrom(sql<number>`case when exists (select 1 from updated) then 1 else caisse_fail(${INTENT_NOT_UPDATED}) end`.as('updated'));
  },
  { deferred: true },
);

export const intentsRepository = {
  async insert(db: Executor, row: Insertable<IntentsTable>) {
    const inserted = await insertIntent(row).first(db, row);
    if (!inserted) throw new Error('insert into intents returned no row');
    return inserted;
  },

  /** Whose intent this is and its session token's hash, by id alone (the hosted checkout knows no key). */
  async findOwner(db: Executor, id: string) {
    return db.selectFrom('intents').select(['merchant_id', 'mode', 'session_token_hash']).where('id', '=', id).executeTakeFirst();
  },

  async find(db: Executor, scope: Scope, id: string) {
    return findIntent.first(db, { merchantId: scope.merchantId, mode: scope.mode, id });
  },

  /** The intent, read ahead (Prepared.ahead): with a transaction's next statement. */
  async findAhead(db: Executor, scope: Scope, id: string) {
    return (await findIntent.ahead(db, { merchantId: scope.merchantId, mode: scope.mode, id }))[0];
  },

  async findMany(db: Executor, scope: Scope, ids: readonly string[]) {
    return scoped(db, scope).where('id', 'in', ids).execute();
  },

  /**
   * The intent row, locked `FOR UPDATE` until the transaction ends: the one way to change an
   * intent, so two changes of one intent (two charges, a charge and a cancel, the sweeper) run
   * one after the other and the second sees the first's result.
   */
  async lockForUpdate(tx: Tx, scope: Scope, id: string) {
    // Sent ahead: what the caller issues next (the charge's token spend) rides in the same write.
    return (await lockIntent.ahead(tx, { merchantId: scope.merchantId, mode: scope.mode, id }))[0];
  },

  /** Records who started paying the intent, unless someone did already (deferred: nothing is answered). */
  async markStarted(db: Executor, scope: Scope, id: string, userId: string): Promise<void> {
    await markStartedBy.execute(db, { merchantId: scope.merchantId, mode: scope.mode, id, userId });
  },

  /**
   * Changes an intent this transaction holds locked (`lockForUpdate`) and returns the row as it
   * now is. The write is deferred: it fails the transaction, at its next statement or COMMIT, if
   * the row was gone.
   */
  async update(tx: Tx, row: IntentRow, set: IntentPatch & { status: IntentStatus; updated_at: Date }): Promise<IntentRow> {
    const params = { ...set, id: row.id };
    await updateIntent(params).execute(tx, params);
    const updated = { ...row };
    for (const [column, value] of Object.entries(set)) if (value !== undefined) (updated as Record<string, unknown>)[column] = value;
    return updated;
  },

  /** Newest first; one more row than asked, so the caller knows whether there are more. */
  async list(db: Executor, scope: Scope, q: ListQuery) {
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
   * The dashboard's search, newest first, `limit` of each kind: the intent of this id, those with
   * `text` among their metadata values (the GIN index of migration 0021), and those of one of
   * these amounts (`intents_amount`), and those of `ids`. Separate queries, so each uses its own index.
   */
  async search(
    db: Executor,
    scope: Scope,
    q: { id?: string; text: string; amounts: { currency: string; minor: bigint }[]; ids: readonly string[]; limit: number },
  ) {
    const queries = [
      // The matches first (GIN), then the newest of them: fenced by OFFSET 0, or the planner walks
      // the merchant's list newest first testing every row, which on 10 million intents and a
      // value nobody has takes minutes (bench/README.md, bigtable).
      db
        .selectFrom(
          scoped(db, scope)
            .where(sql<boolean>`intent_metadata_values(metadata) @> array[${q.text}]::text[]`)
            .offset(0)
            .as('m'),
        )
        .selectAll()
        .orderBy('id', 'desc')
        .limit(q.limit)
        .execute(),
      ...q.amounts.map((a) =>
        scoped(db, scope).where('amount_minor', '=', a.minor).where('currency', '=', a.currency).orderBy('id', 'desc').limit(q.limit).execute(),
      ),
    ];
    if (q.id !== undefined) queries.push(scoped(db, scope).where('id', '=', q.id).execute());
    // Found by another module (the payments of customers whose phone ends with the digits).
    if (q.ids.length > 0)
      queries.push(
        scoped(db, scope)
          .where('id', 'in', [...q.ids])
          .execute(),
      );
    return (await Promise.all(queries)).flat();
  },

  /**
   * Claims up to `limit` PENDING intents past their expiry, locked for this transaction. SKIP
   * LOCKED: several sweepers (one per process) share the work, and an intent a charge holds is
   * left for the next round.
   */
  async claimDue(tx: Tx, now: Date, limit: number): Promise<IntentRow[]> {
    return (
      tx
        .selectFrom('intents')
        .selectAll()
        // A literal, not a parameter: the partial index on PENDING intents must match a prepared plan.
        .where(sql<boolean>`status = 'PENDING'`)
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute()
    );
  },
};
