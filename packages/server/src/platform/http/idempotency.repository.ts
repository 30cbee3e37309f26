import { type ColumnType, type Selectable, sql } from 'kysely';
import { DEFERRED, type Executor, type Tx } from '../db.ts';
import { prepare } from '../prepared.ts';

export interface IdempotencyKeysTable {
  merchant_id: string;
  mode: 'test' | 'live';
  key: string;
  fingerprint: Buffer;
  state: 'running' | 'done';
  request_id: string;
  locked_at: Date;
  response_status: number | null;
  /** A `json` column: read parsed, written as JSON text. */
  response_headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  /** AES-256-GCM with the master key (it may hold a session token or another secret). */
  response_body: Buffer | null;
  created_at: Date;
}

declare module '../database.ts' {
  interface Database {
    idempotency_keys: IdempotencyKeysTable;
  }
}

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

export interface IdempotencyScope {
  merchantId: string;
  mode: 'test' | 'live';
  key: string;
}

export interface Claim {
  fingerprint: Buffer;
  requestId: string;
  now: Date;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const byScope = (s: IdempotencyScope) => ({ merchant_id: s.merchantId, mode: s.mode, key: s.key });

/** The columns of a key freshly taken by a running request. */
const running = (c: Claim) => ({
  fingerprint: c.fingerprint,
  state: 'running' as const,
  request_id: c.requestId,
  locked_at: c.now,
  response_status: null,
  response_headers: null,
  response_body: null,
  created_at: c.now,
});

// The claim, the lookup and the answer run on every POST with a key: compiled once.
const claimKey = prepare((db, p: { merchantId: string; mode: 'test' | 'live'; key: string; fingerprint: Buffer; requestId: string; now: Date }) =>
  db
    .insertInto('idempotency_keys')
    .values({ ...byScope(p), ...running({ fingerprint: p.fingerprint, requestId: p.requestId, now: p.now }) })
    .onConflict((oc) => oc.columns(['merchant_id', 'mode', 'key']).doNothing())
    .returning('key'),
);

const findKey = prepare((db, p: IdempotencyScope) =>
  db.selectFrom('idempotency_keys').selectAll().where('merchant_id', '=', p.merchantId).where('mode', '=', p.mode).where('key', '=', p.key),
);

const completeKey = prepare((db, p: IdempotencyScope & { requestId: string; status: number; headers: string; body: Buffer }) =>
  db
    .updateTable('idempotency_keys')
    .set({ state: 'done', response_status: p.status, response_headers: p.headers, response_body: p.body })
    .where('merchant_id', '=', p.merchantId)
    .where('mode', '=', p.mode)
    .where('key', '=', p.key)
    .where('request_id', '=', p.requestId),
);

/** The error a request's transaction fails with when its key was taken over (see completeInTransaction). */
export const KEY_TAKEN_OVER = 'idempotency_key_taken_over';

// Inside the answer's transaction: sent with the transaction's next statement (DEFERRED), so it
// costs no round trip of its own; it fails the transaction when the key is no longer this request's.
const completeKeyInTransaction = prepare(
  (_db, p: IdempotencyScope & { requestId: string; status: number; headers: string; body: Buffer }) =>
    sql<{ kept: number }>`${sql.raw(DEFERRED)}with kept as (
      update idempotency_keys set state = 'done', response_status = ${p.status}, response_headers = ${p.headers}, response_body = ${p.body}
      where merchant_id = ${p.merchantId} and mode = ${p.mode} and key = ${p.key} and request_id = ${p.requestId}
      returning 1
    )
    select case when exists (select 1 from kept) then 1 else caisse_fail(${KEY_TAKEN_OVER}) end as kept`,
);

export const idempotencyRepository = {
  /** Takes the key for this request, or returns false when a row already holds it. */
  async claim(db: Executor, scope: IdempotencyScope, c: Claim): Promise<boolean> {
    const row = await claimKey.first(db, {
      merchantId: scope.merchantId,
      mode: scope.mode,
      key: scope.key,
      fingerprint: c.fingerprint,
      requestId: c.requestId,
      now: c.now,
    });
    return row !== undefined;
  },

  /** The claim as a statement to send ahead of the request's transaction (platform/db.ts). */
  claimStatement(scope: IdempotencyScope, c: Claim): { text: string; values: unknown[] } {
    return {
      text: claimKey.sql,
      values: claimKey.bind({ merchantId: scope.merchantId, mode: scope.mode, key: scope.key, fingerprint: c.fingerprint, requestId: c.requestId, now: c.now }),
    };
  },

  async find(db: Executor, scope: IdempotencyScope) {
    return findKey.first(db, scope);
  },

  /**
   * Takes over a row that no longer binds its key (past 24 hours, or held by a request that died):
   * only if it is still the row the caller saw (same holder, same state), so of two takers one
   * wins, and a held key whose answer was stored meanwhile (a slow request, not a dead one) is
   * replayed rather than run again.
   */
  async takeOver(db: Executor, scope: IdempotencyScope, seen: Pick<IdempotencyRow, 'request_id' | 'state'>, c: Claim): Promise<boolean> {
    const row = await db
      .updateTable('idempotency_keys')
      .set(running(c))
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('key', '=', scope.key)
      .where('request_id', '=', seen.request_id)
      .where('state', '=', seen.state)
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  },

  /**
   * Stores the answer of the request that holds the key, in `db` (the request's own transaction,
   * or after sending). False when the key is no longer this request's (taken over).
   */
  async complete(db: Executor, scope: IdempotencyScope, requestId: string, response: StoredResponse): Promise<boolean> {
    const updated = await completeKey.affected(db, {
      ...scope,
      requestId,
      status: response.status,
      headers: JSON.stringify(response.headers),
      body: response.body,
    });
    return updated > 0n;
  },

  /**
   * Stores the answer in the request's own transaction, where it commits with the effect. The
   * transaction fails (P0001 KEY_TAKEN_OVER, here or at its next statement) when the key is no
   * longer this request's.
   */
  async completeInTransaction(tx: Tx, scope: IdempotencyScope, requestId: string, response: StoredResponse): Promise<void> {
    await completeKeyInTransaction.execute(tx, {
      ...scope,
      requestId,
      status: response.status,
      headers: JSON.stringify(response.headers),
      body: response.body,
    });
  },

  /**
   * Gives the key back (the request failed on our side): the next request with it runs anew. A
   * key whose answer its transaction stored stays answered: that effect committed.
   */
  async release(db: Executor, scope: IdempotencyScope, requestId: string): Promise<void> {
    await db
      .deleteFrom('idempotency_keys')
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('key', '=', scope.key)
      .where('request_id', '=', requestId)
      .where('state', '=', 'running')
      .execute();
  },

  async purgeCreatedBefore(db: Executor, before: Date): Promise<number> {
    const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
