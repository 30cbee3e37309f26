import { type ColumnType, type Generated, type Insertable, type Selectable, sql } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import { fieldsOf, prepare, prepareByFields } from '../../platform/prepared.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import type { PaymentCustomer } from '../connectors/index.ts';

export type AttemptStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface PaymentAttemptsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  intent_id: string;
  provider: string;
  /** How Caisse reaches the provider (today the provider's own API: the same name). */
  connector: string;
  /** The provider account (`pac_…`) the request was made with. */
  provider_account: string;
  phone_number: string;
  amount_minor: bigint;
  currency: string;
  reference: string;
  status: AttemptStatus;
  failure_code: string | null;
  failure_reason: string | null;
  provider_transaction_id: string | null;
  fee_minor: bigint | null;
  transfer_id: string | null;
  language: string;
  redirect_url: string | null;
  provider_reference: ColumnType<string | null, string | null | undefined, string | null>;
  return_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** The merchant's payer-facing short name, fixed at the start (null: attempts from before it). */
  payer_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** The merchant's country when it started (migration 0081; null: attempts from before routes). */
  country: ColumnType<string | null, string | null | undefined, string | null>;
  /** A card payment's holder, as the card route's provider requires them (migration 0088; null: mobile money). */
  customer: ColumnType<PaymentCustomer | null, string | null | undefined, PaymentCustomer | string | null>;
  approval_expires_at: Date;
  late: Generated<boolean>;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

declare module '../../platform/database.ts' {
  interface Database {
    payment_attempts: PaymentAttemptsTable;
  }
}

export type AttemptRow = Selectable<PaymentAttemptsTable>;

// The settle's statements, compiled once (platform/prepared.ts): each provider callback runs them.
const lockAttempt = prepare((db, p: { id: string }) => db.selectFrom('payment_attempts').selectAll().where('id', '=', p.id).forUpdate());
const attemptsOfIntent = prepare((db, p: { intentId: string }) =>
  db.selectFrom('payment_attempts').selectAll().where('intent_id', '=', p.intentId).orderBy('created_at').orderBy('id'),
);
/** The error a transaction fails with when a settle's change found no attempt to change (see `updateLocked`). */
export const ATTEMPT_NOT_UPDATED = 'attempt_update_found_no_row';
// Of a row the transaction holds locked: its new state is known without reading it back, so the
// write rides with the transaction's next statement and fails it should it find no row.
const updateLockedAttempt = prepareByFields(
  (db, p: Partial<AttemptRow> & { id: string }, fields) => {
    const { id: _id, ...set } = fieldsOf(
      p,
      fields.filter((f) => f !== 'id'),
    );
    return db
      .with('updated', (db) => db.updateTable('payment_attempts').set(set).where('id', '=', p.id).returning('id'))
      .selectNoFrom(sql<number>`case when exists (select 1 from updated) then 1 else caisse_fail(${ATTEMPT_NOT_UPDATED}) end`.as('updated'));
  },
  { deferred: true },
);

/** Payment attempts by mobile money (docs/spec/mobile-money-payments.md): the charges module's own table. */
export const attemptsRepository = {
  /** The row of a provider request by our reference, for the lifecycle. */
  async byReference(db: Executor, reference: string): Promise<AttemptRow | undefined> {
    return db.selectFrom('payment_attempts').selectAll().where('reference', '=', reference).executeTakeFirst();
  },

  async insert(db: Executor, row: Insertable<PaymentAttemptsTable>): Promise<AttemptRow> {
    return db.insertInto('payment_attempts').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** The attempt, locked until the transaction ends: every change of its status goes through this. */
  async lock(tx: Tx, id: string): Promise<AttemptRow | undefined> {
    return tx.selectFrom('payment_attempts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  },

  /** `lock`, sent ahead (Prepared.ahead): the reads issued after it share its round trip. */
  async lockAhead(tx: Tx, id: string): Promise<AttemptRow | undefined> {
    return (await lockAttempt.ahead(tx, { id }))[0];
  },

  /**
   * Changes an attempt this transaction holds locked (`lock`) and returns the row as it now is.
   * The write is deferred: it fails the transaction, at its next statement or COMMIT, if the row
   * was gone.
   */
  async updateLocked(tx: Tx, row: AttemptRow, patch: Partial<Omit<AttemptRow, 'id'>>): Promise<AttemptRow> {
    const params = { ...patch, id: row.id };
    await updateLockedAttempt(params).execute(tx, params);
    return { ...row, ...patch };
  },

  async update(db: Executor, id: string, patch: Partial<Omit<AttemptRow, 'id'>>): Promise<AttemptRow> {
    return db.updateTable('payment_attempts').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },

  /** An intent's attempts, oldest first. */
  async listForIntent(db: Executor, intentId: string): Promise<AttemptRow[]> {
    return db.selectFrom('payment_attempts').selectAll().where('intent_id', '=', intentId).orderBy('created_at').orderBy('id').execute();
  },

  /** `listForIntent`, sent ahead (Prepared.ahead). */
  listForIntentAhead: (tx: Tx, intentId: string): Promise<AttemptRow[]> => attemptsOfIntent.ahead(tx, { intentId }),

  /** The attempt that paid the intent (a late success did not), if one did. */
  async findPaid(db: Executor, intentId: string): Promise<AttemptRow | undefined> {
    return db
      .selectFrom('payment_attempts')
      .selectAll()
      .where('intent_id', '=', intentId)
      .where('status', '=', 'SUCCEEDED')
      .where('late', '=', false)
      .executeTakeFirst();
  },

  async find(db: Executor, id: string): Promise<AttemptRow | undefined> {
    return db.selectFrom('payment_attempts').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The attempts of these intents, each intent's oldest first. */
  async listForIntents(db: Executor, intentIds: readonly string[]): Promise<AttemptRow[]> {
    if (intentIds.length === 0) return [];
    return db.selectFrom('payment_attempts').selectAll().where('intent_id', 'in', intentIds).orderBy('created_at').orderBy('id').execute();
  },

  /**
   * Erases the card holder's details of up to `limit` attempts decided (SUCCEEDED or FAILED)
   * before `before` (retention, decision 0097); how many. A PENDING attempt keeps them: its
   * request may be sent again. Rows a settle holds are skipped, for the next round. The status,
   * the money and the masked number the views show stay.
   */
  async eraseCardholdersBefore(db: Executor, before: Date, limit: number): Promise<number> {
    // On the partial index of the rows that still hold details (migration 0091): a round reads
    // those, never the whole history of decided attempts.
    const batch = db
      .selectFrom('payment_attempts')
      .select('id')
      .where('customer', 'is not', null)
      .where('completed_at', '<', before)
      .where('status', 'in', ['SUCCEEDED', 'FAILED'])
      .orderBy('completed_at')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    const result = await db
      .updateTable('payment_attempts')
      .set({ customer: null })
      .where(sql<boolean>`id = any(array(${batch}))`)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** Every attempt of a provider created in [from, to) (reconciliation). */
  async listForProvider(db: Executor, provider: string, from: Date, to: Date): Promise<AttemptRow[]> {
    return (
      db
        .selectFrom('payment_attempts')
        .selectAll()
        // The connector reconciled: a method reached through an aggregator is that aggregator's.
        .where('connector', '=', provider)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .orderBy('id')
        .execute()
    );
  },
};
