import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HOUR, SECOND } from '../clock.ts';
import { decrypt, encrypt, sha256 } from '../crypto.ts';
import { type Db, sendsStatementsAhead, type StatementAhead, type Tx, withStatementAhead } from '../db.ts';
import type { Deps } from '../deps.ts';
import { AnswerError, ApiError } from '../errors.ts';
import { failureLevel } from '../db-unavailable.ts';
import { redactText } from '../logger.ts';
import { asTakenOver, problemAnswer } from './errors.ts';
import { type Claim, type IdempotencyRow, type IdempotencyScope, idempotencyRepository as repo } from './idempotency.repository.ts';

/**
 * `Idempotency-Key` on every POST of the API (docs/spec/request-rules.md), as one app-wide pair of hooks, plus an
 * answer recorder for the operations that move money or create something.
 *
 * - Scope: merchant + mode + caller + key (a test key and a live key never share one; on user
 *   routes each customer has keys of their own, see callerKey). POST routes without a merchant
 *   (auth `none`) ignore the header.
 * - The key binds one request: method, path, caller (the user, on user routes) and body (compared
 *   as canonical JSON, so key order does not matter). The same key with another request is 422
 *   `idempotency_key_reused`, for 24 hours from the first use.
 * - It is claimed before the handler runs, after authentication and validation, with
 *   INSERT … ON CONFLICT DO NOTHING: any number of server processes on one PostgreSQL agree on
 *   the one request that runs. Others get 409 `idempotency_request_in_progress` while it runs,
 *   and its stored answer (status, body, content type) afterwards, with `Idempotent-Replayed: true`
 *   and `Original-Request: <its request id>`.
 * - Where the answer is stored: create intent, cancel, charge, refund and verifyOtp store it in
 *   their own business transaction (`idempotentAnswer(request)`, passed to the service), the
 *   exact bytes the client gets: the success serialised as the route's response schema does it,
 *   or the problem+json of a refusal that commits (a declined charge's 402 with its attempt, an
 *   expiry's 409 `intent_expired`, a wrong code's 400 with the try counted). The answer and the
 *   effect commit together: a process that dies after the commit leaves the key answered, and a
 *   retry replays it instead of running the operation again (a second intent, a second refund, a
 *   409 for a charge that was paid). Every other answer is stored by the onSend hook after the
 *   handler (it skips one its transaction stored, byte for byte the same).
 * - What is kept: every answer the handler produced below 500, errors included (a 402, a 409 of a
 *   state conflict): replaying them is what makes a retry safe. Not kept: requests refused before
 *   the handler ran (authentication, 400 validation: fix the body and retry with the same key),
 *   and 5xx answers: the key is released, so a retry runs the request again (our transactions
 *   roll back on failure, so nothing happened; a key its transaction answered stays answered).
 * - A key held longer than LOCK_TIMEOUT by a request that never finished (its process died) is
 *   taken over by the next request with the same fingerprint. Should the first request still be
 *   running (slow, not dead), its transaction finds the key no longer its own when it records its
 *   answer and rolls back (409 `idempotency_request_in_progress`): one of the two has an effect.
 * - Stored answers are encrypted with the master key: one may hold a session token.
 */
export const IDEMPOTENCY_TTL_MS = 24 * HOUR;
export const LOCK_TIMEOUT_MS = 60 * SECOND;
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
/** Headers of an answer that belong to it and are replayed with it. */
const KEPT_HEADERS = ['content-type', 'location', 'retry-after'];
/** The content type Fastify gives a JSON answer. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Stores a request's Idempotency-Key answer inside the transaction that has its effect, so both
 * commit or neither does. A service takes it as an optional argument and calls it last in its
 * transaction with the answer the client will get. Throws 409 `idempotency_request_in_progress`
 * when the key was taken over meanwhile (this request outlived LOCK_TIMEOUT): the transaction
 * must roll back, since the request that took the key runs the operation.
 */
export interface IdempotentAnswer {
  /** A success: `body` as the route's response schema for `status` serialises it. */
  record(tx: Tx, status: number, body: unknown): Promise<void>;
  /** A refusal that commits (the declined attempt, the expiry): its problem+json answer. */
  recordProblem(tx: Tx, err: ApiError): Promise<void>;
  /**
   * Runs `fn` in a transaction. On a route that claims its key with its transaction
   * (`config.idempotency: 'with-transaction'`), the claim is written with the transaction's first
   * statement, one round trip for both; when another request holds the key, the transaction rolls
   * back and the request gets what it would have got before running (the replay, 409 or 422).
   */
  transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T>;
}

/** `fn` in a transaction, with the request's key claimed with it when it has one (IdempotentAnswer.transaction). */
export function inTransaction<T>(db: Db, answer: IdempotentAnswer | undefined, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return answer ? answer.transaction(db, fn) : db.transaction().execute(fn);
}

interface Hold {
  scope: IdempotencyScope;
  requestId: string;
  /** The answer the request's transaction stored (it may have rolled back since). */
  stored: { status: number; body: string } | null;
  answer: IdempotentAnswer;
  /** The claim still to make: with the request's transaction, or after the handler if it ran none. */
  pending: Claim | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `with-transaction`: the route's service runs `inTransaction` first; its key is claimed with it. */
    idempotency?: 'with-transaction';
  }
  interface FastifyRequest {
    /** Set while this request holds an Idempotency-Key it must complete or release. */
    idempotencyHold: Hold | null;
  }
}

/** A claim sent with a transaction found the key taken: one object, made once (no stack per request). */
const CLAIM_LOST = new Error('the Idempotency-Key is held by another request');

/** The recorder for this request's transaction, when it holds an Idempotency-Key. */
export function idempotentAnswer(request: FastifyRequest): IdempotentAnswer | undefined {
  return request.idempotencyHold?.answer;
}

/** JSON with object keys sorted at every level: equal bodies give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function fingerprintOf(request: FastifyRequest): Buffer {
  return sha256(JSON.stringify([request.method, request.url, request.user?.userId ?? null, canonicalJson(request.body)]));
}

/**
 * The key as stored: a customer's own (their id and a space before it, a space never being part
 * of a key), so one customer's predictable key cannot block or replay another's; the merchant's
 * server keys stay as sent.
 */
export function callerKey(userId: string | undefined, key: string): string {
  return userId === undefined ? key : `${userId} ${key}`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Records older than 24 hours no longer bind their key; the sweeper deletes them. */
export async function purgeIdempotencyKeys(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  return repo.purgeCreatedBefore(deps.db, new Date(deps.clock.now().getTime() - IDEMPOTENCY_TTL_MS));
}

export function registerIdempotency(app: FastifyInstance, deps: Deps): void {
  app.decorateRequest('idempotencyHold', null);

  function replay(reply: FastifyReply, row: IdempotencyRow): FastifyReply {
    for (const [name, value] of Object.entries(row.response_headers ?? {})) reply.header(name, value);
    const body = row.response_body === null ? '' : decrypt(deps.config.masterKey, row.response_body);
    return reply
      .code(row.response_status ?? 200)
      .header('idempotent-replayed', 'true')
      .header('original-request', row.request_id)
      .send(body);
  }

  /** The hold of a key just claimed, with the recorder its request's transaction may use. */
  function holdFor(request: FastifyRequest, reply: FastifyReply, scope: IdempotencyScope, pending: Claim | null = null): Hold {
    const held: Hold = { scope, requestId: request.id, stored: null, answer: { record, recordProblem, transaction }, pending };
    async function store(tx: Tx, status: number, headers: Record<string, string>, body: string): Promise<void> {
      try {
        await repo.completeInTransaction(tx, scope, held.requestId, { status, headers, body: encrypt(deps.config.masterKey, body, deps.random) });
      } catch (err) {
        throw asTakenOver(err) ?? err;
      }
      held.stored = { status, body };
    }
    async function record(tx: Tx, status: number, body: unknown): Promise<void> {
      // The serialiser Fastify picks for this status (the route's response schema), or JSON.
      const serialize = reply.getSerializationFunction(String(status)) ?? reply.getSerializationFunction(`${String(status)[0]}xx`) ?? JSON.stringify;
      await store(tx, status, { 'content-type': JSON_CONTENT_TYPE }, serialize(body as Record<string, unknown>));
    }
    async function recordProblem(tx: Tx, err: ApiError): Promise<void> {
      const problem = problemAnswer(err, request.id);
      const headers = Object.fromEntries(Object.entries(problem.headers).filter(([name]) => KEPT_HEADERS.includes(name)));
      // Problem bodies go out redacted (the onSend hook of security.ts): stored as they go out.
      await store(tx, problem.status, headers, redactText(problem.body));
    }
    async function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
      const claim = held.pending;
      if (claim === null) return db.transaction().execute(fn);
      const slot: { statement: StatementAhead | null } = {
        statement: { ...repo.claimStatement(scope, claim), settle: (result) => (result.rowCount ? undefined : CLAIM_LOST) },
      };
      try {
        return await withStatementAhead(slot, () => db.transaction().execute(fn));
      } catch (err) {
        if (err !== CLAIM_LOST) {
          // Refused before its first statement: the key is claimed now, as it would have been first.
          if (slot.statement !== null) {
            held.pending = null;
            const outcome = await settleKey(scope, claim, true);
            if (outcome !== 'held') {
              request.idempotencyHold = null;
              throw new AnswerError((r: FastifyReply) => replay(r, outcome));
            }
          }
          throw err;
        }
      } finally {
        // Sent: claimed, or lost and answered below.
        if (slot.statement === null) held.pending = null;
      }
      // Another request holds the key: this one was never run (its transaction rolled back).
      request.idempotencyHold = null;
      const outcome = await settleKey(scope, claim, false);
      if (outcome !== 'held') throw new AnswerError((r: FastifyReply) => replay(r, outcome));
      request.idempotencyHold = held;
      return db.transaction().execute(fn);
    }
    return held;
  }

  /**
   * Takes the key for this request ('held'), or returns the answer to replay; throws 422 when the
   * key was used with another request, 409 while it is another request's. A few rounds: a row can
   * vanish (released, purged) or be taken over between our reads. `claimFirst` false: the caller
   * just tried to claim it.
   */
  async function settleKey(scope: IdempotencyScope, claim: Claim, claimFirst: boolean): Promise<'held' | IdempotencyRow> {
    for (let round = 0; round < 3; round++) {
      if ((claimFirst || round > 0) && (await repo.claim(deps.db, scope, claim))) return 'held';
      const row = await repo.find(deps.db, scope);
      if (!row) continue;
      if (claim.now.getTime() - row.created_at.getTime() >= IDEMPOTENCY_TTL_MS) {
        if (await repo.takeOver(deps.db, scope, row, claim)) return 'held';
        continue;
      }
      if (!row.fingerprint.equals(claim.fingerprint)) {
        throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with another request (method, path or body) in the last 24 hours', {
          param: 'Idempotency-Key',
        });
      }
      if (row.state === 'done') return row;
      if (claim.now.getTime() - row.locked_at.getTime() >= LOCK_TIMEOUT_MS) {
        if (await repo.takeOver(deps.db, scope, row, claim)) return 'held';
        continue;
      }
      break;
    }
    throw new ApiError('idempotency_request_in_progress', 'A request with this Idempotency-Key is still running; retry when it has finished', {
      param: 'Idempotency-Key',
      headers: { 'retry-after': '1' },
    });
  }

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !request.merchant) return;
    const key = headerValue(request.headers[IDEMPOTENCY_HEADER]);
    if (key === undefined) return;
    if (!KEY_SHAPE.test(key)) {
      throw new ApiError('validation_error', 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice)', {
        param: 'Idempotency-Key',
        errors: [{ param: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 255 visible ASCII characters' }],
      });
    }
    const scope: IdempotencyScope = { merchantId: request.merchant.merchantId, mode: request.merchant.mode, key: callerKey(request.user?.userId, key) };
    const claim: Claim = { fingerprint: fingerprintOf(request), requestId: request.id, now: deps.clock.now() };
    // Claimed with the route's transaction: one round trip fewer (IdempotentAnswer.transaction).
    if (request.routeOptions.config.idempotency === 'with-transaction' && sendsStatementsAhead(deps.db)) {
      request.idempotencyHold = holdFor(request, reply, scope, claim);
      return;
    }
    const outcome = await settleKey(scope, claim, true);
    if (outcome !== 'held') return replay(reply, outcome);
    request.idempotencyHold = holdFor(request, reply, scope);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotencyHold;
    if (!held) return payload;
    request.idempotencyHold = null;
    try {
      const storable = typeof payload === 'string' || Buffer.isBuffer(payload) || payload === null || payload === undefined;
      if (reply.statusCode >= 500 || !storable) {
        await repo.release(deps.db, held.scope, held.requestId);
        return payload;
      }
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      const text = payload === null || payload === undefined ? '' : payload.toString();
      // A route that answered before its transaction (a refusal): its key is claimed now; when it
      // was another request's, that request's stored answer goes out instead, as a replay.
      if (held.pending !== null && !(await repo.claim(deps.db, held.scope, held.pending))) {
        const row = await repo.find(deps.db, held.scope);
        if (!row || row.state !== 'done' || !row.fingerprint.equals(held.pending.fingerprint)) return payload;
        for (const name of KEPT_HEADERS) reply.removeHeader(name);
        for (const [name, value] of Object.entries(row.response_headers ?? {})) reply.header(name, value);
        reply
          .code(row.response_status ?? 200)
          .header('idempotent-replayed', 'true')
          .header('original-request', row.request_id);
        return row.response_body === null ? '' : decrypt(deps.config.masterKey, row.response_body);
      }
      // Stored already, with the effect, in the request's transaction.
      if (held.stored !== null && held.stored.status === reply.statusCode && held.stored.body === text) return payload;
      await repo.complete(deps.db, held.scope, held.requestId, {
        status: reply.statusCode,
        headers,
        body: encrypt(deps.config.masterKey, text, deps.random),
      });
    } catch (err) {
      // The answer still goes out; the key stays held until LOCK_TIMEOUT, then is taken over.
      request.log[failureLevel(err)]({ err }, 'could not store the idempotent answer');
    }
    return payload;
  });
}
