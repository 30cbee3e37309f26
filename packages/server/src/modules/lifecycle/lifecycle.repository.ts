import { type Selectable, sql } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

/** The four money movements that are provider requests. */
export type RequestKind = 'attempt' | 'topup' | 'payout' | 'refund';

/**
 * HELD: written, not to be sent yet (a payout waiting for its review); PENDING: the provider
 * decides; SUCCEEDED, FAILED: decided; CANCELED: never sent (a payout rejected in review).
 */
export type RequestStatus = 'HELD' | 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELED';

/**
 * Every provider request of every kind (migration 0074): what the lifecycle needs of one, the
 * owner's business fields staying in the owner's table (its id is the request's). Its status
 * follows the owner's in the owner's own transaction (a trigger of the migration), so the poller
 * never asks about a request its owner decided.
 */
export interface ProviderRequestsTable {
  /** The owner's id (`att_…`, `top_…`, `po_…`, `re_…`). */
  id: string;
  kind: RequestKind;
  /** Our reference, unique across every kind: a callback's reference names one request. */
  reference: string;
  mode: KeyMode;
  connector: string;
  provider_account: string;
  status: RequestStatus;
  /** When the provider took the request (first time only). */
  submitted_at: Date | null;
  /** When the poller next asks the provider (also its lease). */
  next_poll_at: Date;
  polls: number;
  /** When an undecided request fails with TIMEOUT; null: never given up (money out). */
  deadline_at: Date | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  /**
   * A callback came and the provider's status is still to be read (migration 0089): due at this
   * time (a reader's claim moves it forward, as a lease); null: no news.
   */
  callback_at: Date | null;
}

declare module '../../platform/database.ts' {
  interface Database {
    provider_requests: ProviderRequestsTable;
  }
}

export type ProviderRequest = Selectable<ProviderRequestsTable>;

export const requestsRepository = {
  async insert(tx: Tx, row: ProviderRequest): Promise<void> {
    await tx.insertInto('provider_requests').values(row).execute();
  },

  /** The one lookup by reference: the callback router finds the request, then its kind's lifecycle. */
  async findByReference(db: Executor, reference: string): Promise<ProviderRequest | undefined> {
    return db.selectFrom('provider_requests').selectAll().where('reference', '=', reference).executeTakeFirst();
  },

  /**
   * Claims up to `limit` PENDING requests due for a poll (of one kind, or all), pushing their next
   * poll to `leaseUntil`: SKIP LOCKED, so pollers of several processes share the work, and one
   * that dies leaves its rows due again at the lease's end.
   */
  async claimDue(db: Executor, now: Date, leaseUntil: Date, limit: number, kind?: RequestKind): Promise<ProviderRequest[]> {
    const ofKind = kind === undefined ? sql`` : sql`and kind = ${kind}`;
    const result = await sql<ProviderRequest>`
      update provider_requests set next_poll_at = ${leaseUntil}, polls = polls + 1
      where id = any(array(
        select id from provider_requests where status = 'PENDING' and next_poll_at <= ${now} ${ofKind}
        order by next_poll_at limit ${limit} for update skip locked))
      returning *`.execute(db);
    return result.rows;
  },

  /** The connector and provider account of each of these requests (by owner id), in one read. */
  async accountsOf(db: Executor, ids: readonly string[]): Promise<Pick<ProviderRequest, 'id' | 'connector' | 'provider_account'>[]> {
    if (ids.length === 0) return [];
    return db.selectFrom('provider_requests').select(['id', 'connector', 'provider_account']).where('id', 'in', ids).execute();
  },

  /** The requests with these references, in one read (a group of callbacks). */
  async findByReferences(db: Executor, references: readonly string[]): Promise<ProviderRequest[]> {
    return db.selectFrom('provider_requests').selectAll().where('reference', 'in', references).execute();
  },

  /**
   * Records that callbacks came for these requests, in one statement: each is due for a status
   * read at `at`, decided ones too (what the provider says may be a late payment, which the
   * owner's settle returns). A callback during a read brings it forward again, so that what the
   * provider said after that read is read too.
   */
  async noteCallbacks(db: Executor, ids: readonly string[], at: Date): Promise<void> {
    await db.updateTable('provider_requests').set({ callback_at: at }).where('id', 'in', ids).execute();
  },

  /** Claims up to `limit` requests with news due (SKIP LOCKED, as the polls), their news leased until `leaseUntil`. */
  async claimCallbacks(db: Executor, now: Date, leaseUntil: Date, limit: number): Promise<ProviderRequest[]> {
    const result = await sql<ProviderRequest>`
      update provider_requests set callback_at = ${leaseUntil}
      where id = any(array(
        select id from provider_requests where callback_at <= ${now}
        order by callback_at limit ${limit} for update skip locked))
      returning *`.execute(db);
    return result.rows;
  },

  /** The news of a claim was read: cleared, unless another callback came meanwhile (it moved callback_at). */
  async clearCallbacks(db: Executor, ids: readonly string[], lease: Date): Promise<void> {
    await db.updateTable('provider_requests').set({ callback_at: null }).where('id', 'in', ids).where('callback_at', '=', lease).execute();
  },

  async markSubmitted(db: Executor, id: string, now: Date): Promise<void> {
    await db.updateTable('provider_requests').set({ submitted_at: now, updated_at: now }).where('id', '=', id).where('submitted_at', 'is', null).execute();
  },

  async scheduleNextPoll(db: Executor, id: string, at: Date): Promise<void> {
    await db.updateTable('provider_requests').set({ next_poll_at: at }).where('id', '=', id).where('status', '=', 'PENDING').execute();
  },

  /** A held request goes to the provider: through `account`, polled from `at`. */
  async release(tx: Tx, id: string, account: string, at: Date): Promise<void> {
    await tx
      .updateTable('provider_requests')
      .set({ status: 'PENDING', provider_account: account, next_poll_at: at, updated_at: at })
      .where('id', '=', id)
      .execute();
  },
};

/** The requests' table as the lifecycle uses it, bound to its database (a test gives its own). */
export interface RequestStore {
  insert(tx: Tx, row: ProviderRequest): Promise<void>;
  release(tx: Tx, id: string, account: string, at: Date): Promise<void>;
  findByReference(reference: string): Promise<ProviderRequest | undefined>;
  claimDue(now: Date, leaseUntil: Date, limit: number, kind?: RequestKind): Promise<ProviderRequest[]>;
  markSubmitted(id: string, now: Date): Promise<void>;
  scheduleNextPoll(id: string, at: Date): Promise<void>;
  findByReferences(references: readonly string[]): Promise<ProviderRequest[]>;
  noteCallbacks(ids: readonly string[], at: Date): Promise<void>;
  claimCallbacks(now: Date, leaseUntil: Date, limit: number): Promise<ProviderRequest[]>;
  clearCallbacks(ids: readonly string[], lease: Date): Promise<void>;
}

export function requestStore(db: Executor): RequestStore {
  const repo = requestsRepository;
  return {
    insert: (tx, row) => repo.insert(tx, row),
    release: (tx, id, account, at) => repo.release(tx, id, account, at),
    findByReference: (reference) => repo.findByReference(db, reference),
    claimDue: (now, leaseUntil, limit, kind) => repo.claimDue(db, now, leaseUntil, limit, kind),
    markSubmitted: (id, now) => repo.markSubmitted(db, id, now),
    scheduleNextPoll: (id, at) => repo.scheduleNextPoll(db, id, at),
    findByReferences: (references) => repo.findByReferences(db, references),
    noteCallbacks: (ids, at) => repo.noteCallbacks(db, ids, at),
    claimCallbacks: (now, leaseUntil, limit) => repo.claimCallbacks(db, now, leaseUntil, limit),
    clearCallbacks: (ids, lease) => repo.clearCallbacks(db, ids, lease),
  };
}

/** How Caisse reached the provider for each of these requests (`po_…`, `re_…`, `att_…`), by id: the statement's columns. */
export async function requestAccountsOf(db: Executor, ids: readonly string[]): Promise<Map<string, { connector: string; providerAccount: string }>> {
  const rows = await requestsRepository.accountsOf(db, ids);
  return new Map(rows.map((r) => [r.id, { connector: r.connector, providerAccount: r.provider_account }]));
}
