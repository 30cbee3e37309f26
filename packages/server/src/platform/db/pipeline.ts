import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Executor } from './dialect.ts';

export const MAX_PREPARED_PER_CONNECTION = 500;
const statementNames = new Map<string, string>();

/** A short, stable name for a statement text (the same on every connection). */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `k_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    if (statementNames.size < 10_000) statementNames.set(text, name);
  }
  return name;
}

/** What pg's Result builds from a RowDescription (pg 8's `Result.addFields`), kept per statement. */
export interface RowShape {
  fields: pg.FieldDef[];
  parsers: unknown[];
  template: unknown;
}
interface ResultInternals {
  command: string | null;
  fields: pg.FieldDef[];
  _parsers: unknown[];
  _prebuiltEmptyResultObject: unknown;
}
function sameFields(a: pg.FieldDef[], b: pg.FieldDef[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as pg.FieldDef;
    const y = b[i] as pg.FieldDef;
    if (x.name !== y.name || x.dataTypeID !== y.dataTypeID || x.format !== y.format) return false;
  }
  return true;
}

/**
 * A named statement's run. pg rebuilds every answer's row parsers and row template from its
 * RowDescription, and copies a query's config object; a named statement answers with the same
 * columns every time on its connection, so this query reuses what the statement's last answer
 * there built (checked column by column) and is made from its text, which pg does not copy.
 * Kept per connection: each has its own type parsers.
 */
class NamedQuery extends pg.Query {
  declare name: string;
  declare shapes: Map<string, RowShape>;
  declare callback: (err: Error | null, result?: pg.QueryResult) => void;
  declare _result: ResultInternals;
  declare _accumulateRows: boolean;

  handleRowDescription(msg: { fields: pg.FieldDef[] }): void {
    const result = this._result;
    const known = this.shapes.get(this.name);
    if (known !== undefined && !result.command && sameFields(known.fields, msg.fields)) {
      result.fields = msg.fields;
      result._parsers = known.parsers;
      result._prebuiltEmptyResultObject = known.template;
      this._accumulateRows = true;
      return;
    }
    (pg.Query.prototype as unknown as { handleRowDescription(m: unknown): void }).handleRowDescription.call(this, msg);
    if (!result.command) this.shapes.set(this.name, { fields: msg.fields, parsers: result._parsers, template: result._prebuiltEmptyResultObject });
  }
}

/** Runs `text` as the named statement `name` through `query` (a client's own query; bench/named-query.ts measures it). */
export function runNamed(
  query: (q: unknown) => unknown,
  shapes: Map<string, RowShape>,
  name: string,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const q = new NamedQuery(text, values);
    q.name = name;
    q.shapes = shapes;
    q.callback = (err, result) => (err ? reject(err) : resolve(result as pg.QueryResult));
    query(q);
  });
}

/**
 * Makes every statement with parameters that this connection runs a named prepared statement:
 * PostgreSQL parses and plans it the first time only, and later runs skip Parse. When a prepared
 * plan no longer fits its table (a migration changed the columns of a `select *`: "cached plan
 * must not change result type"), that run fails and the next one prepares the text afresh under
 * a new name.
 */
export function prepareStatements(client: pg.PoolClient): void {
  const names = new Set<string>();
  const renamed = new Map<string, string>();
  // One entry per named statement: at most MAX_PREPARED_PER_CONNECTION.
  const shapes = new Map<string, RowShape>();
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
  client.query = ((text: unknown, values?: unknown[], ...rest: unknown[]) => {
    // Callback calls (pool.query) and calls without parameters go through as they are.
    if (rest.length > 0 || typeof text !== 'string' || !Array.isArray(values) || values.length === 0) return query(text, values, ...rest);
    const base = statementName(text);
    const name = renamed.get(base) ?? base;
    if (!names.has(name)) {
      if (names.size >= MAX_PREPARED_PER_CONNECTION) return query(text, values);
      names.add(name);
    }
    return runNamed(query, shapes, name, text, values).catch((err: { code?: string }) => {
      if (err.code === '0A000') renamed.set(base, `${base}_${names.size}`);
      throw err;
    });
  }) as typeof client.query;
}

const EMPTY_RESULT = (command: string) => ({ command, rowCount: null, oid: 0, rows: [], fields: [] }) as unknown as pg.QueryResult;

/**
 * A statement whose text starts with this comment may be held back inside a transaction and sent
 * with the transaction's next statement (or its COMMIT), in the same write: its caller gets an
 * empty answer at once and must not need its result. It must raise an error when it cannot do its
 * work (then the transaction fails at that next statement, or at COMMIT). Outside a transaction,
 * and on PGlite, it runs at once like any statement.
 */
export const DEFERRED = '/* deferred */ ';

/**
 * A statement of its own (autocommit) to write just before the BEGIN of the next transaction that
 * this async context opens, in the same write: an Idempotency-Key's claim rides with the business
 * transaction's first round trip. `settle` reads its answer; an error it returns fails the
 * transaction's first statement (the transaction then rolls back, nothing of it done).
 */
export interface StatementAhead {
  text: string;
  values: unknown[];
  settle(result: { rowCount: number | null }): Error | undefined;
}

const ahead = new AsyncLocalStorage<{ statement: StatementAhead | null }>();
const pipelining = new WeakSet<object>();

/** Marks `db` as one whose connections are `pipelined` (openPostgres). */
export function markPipelining(db: object): void {
  pipelining.add(db);
}

/** True when `db` writes a StatementAhead with its transactions' first statement (PostgreSQL). */
export function sendsStatementsAhead(db: Executor): boolean {
  return pipelining.has(db);
}

/**
 * Runs `run` with `slot.statement` to send ahead of its first transaction's first statement; the
 * slot's statement is null once it was sent (still there: no transaction of `run` sent anything).
 */
export function withStatementAhead<T>(slot: { statement: StatementAhead | null }, run: () => Promise<T>): Promise<T> {
  return ahead.run(slot, run);
}

/**
 * The answer of a statement sent ahead (`Prepared.ahead`), passed as the statement's last
 * parameter, never to PostgreSQL: inside a transaction on PostgreSQL the statement is held like a
 * DEFERRED one and written with the transaction's next statement, its COMMIT, or at the end of
 * the current tick when nothing follows; the query itself answers empty at once, and the rows come
 * here. Several reads issued before any is awaited then share one round trip. Elsewhere (outside a
 * transaction, on PGlite) the statement runs at once and its answer comes here too.
 */
export class AnswerAhead {
  readonly promise: Promise<pg.QueryResult>;
  resolve!: (result: pg.QueryResult) => void;
  reject!: (err: unknown) => void;
  /** `inTransaction`: issued in a transaction, so it must never run outside one (see `allAhead`). */
  constructor(readonly inTransaction: boolean) {
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Its caller may fail before reading it (the transaction then rolls back): never unhandled.
    this.promise.catch(() => {});
  }
}

/** The AnswerAhead a statement's parameters end with, if any. */
function answerOf(values: unknown[] | undefined): AnswerAhead | undefined {
  const last = values !== undefined && values.length > 0 ? values[values.length - 1] : undefined;
  return last instanceof AnswerAhead ? last : undefined;
}

/** A read of a transaction that came after its end: refused, never run on its own. */
function lateAnswer(answer: AnswerAhead): Promise<pg.QueryResult> {
  answer.reject(new Error('the transaction ended before this statement was sent'));
  return Promise.resolve(EMPTY_RESULT('SELECT'));
}

/** Runs statements sent ahead at once (PGlite: one connection, nothing to pipeline; a plain pg pool). */
export function answersAhead(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
  let inTransaction = false;
  client.query = ((text: unknown, values?: unknown[], ...rest: unknown[]) => {
    // Kysely opens and ends transactions with these texts, always in lower case.
    if (text === 'begin' || (typeof text === 'string' && text.startsWith('start transaction'))) inTransaction = true;
    else if (text === 'commit' || text === 'rollback') inTransaction = false;
    const answer = answerOf(values);
    if (answer === undefined) return query(text, values, ...rest);
    if (answer.inTransaction && !inTransaction) return lateAnswer(answer);
    const run = query(text, (values as unknown[]).slice(0, -1));
    run.then(answer.resolve, answer.reject);
    return run;
  }) as typeof client.query;
}

interface Held {
  text: string;
  values: unknown[] | undefined;
  answer?: AnswerAhead;
}

/**
 * Fewer round trips on PostgreSQL, in pg's pipeline mode (a statement is written before the
 * previous one is answered): a transaction's BEGIN is held back and written with its first
 * statement, DEFERRED statements and statements sent ahead with the next one, all in one write
 * and one round trip. A transaction that ends before any statement sends nothing. When a held
 * statement fails, the statement it rode with fails with that error (one sent at the end of a
 * tick, with nothing to ride with, fails the next one); a COMMIT that PostgreSQL answers with
 * ROLLBACK (the transaction had failed) is an error too, never a silent success.
 */
export function pipelined(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
  const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
  let begin: string | null = null;
  let inTransaction = false;
  let held: Held[] = [];
  let flushing = false;
  /** A held statement sent at the end of a tick failed: the transaction's next statement reports it. */
  let failedAhead: unknown;
  /** Counts transactions ended, so a failure seen late is never pinned on the next transaction. */
  let ended = 0;

  const committed = (result: pg.QueryResult) => {
    if (result.command === 'ROLLBACK') throw new Error('the transaction failed: PostgreSQL rolled it back at COMMIT');
    return result;
  };

  /**
   * Writes what is held (the context's statement ahead, BEGIN, held statements) and then `rider`,
   * if any, in one write. Resolves to the cause when one of the held statements failed.
   */
  function sendHeld(rider?: () => Promise<pg.QueryResult>): { result?: Promise<pg.QueryResult>; failure: Promise<unknown> } {
    const sent: Promise<pg.QueryResult>[] = [];
    // The first statement of a transaction carries the context's statement ahead, if any.
    const store = begin !== null ? ahead.getStore() : undefined;
    const first = store?.statement ?? null;
    if (store) store.statement = null;
    let claimed: Promise<pg.QueryResult> | undefined;
    let result: Promise<pg.QueryResult> | undefined;
    const answered: [AnswerAhead, Promise<pg.QueryResult>][] = [];
    stream.cork();
    try {
      if (first !== null) claimed = query(first.text, first.values);
      if (begin !== null) sent.push(query(begin));
      begin = null;
      for (const h of held) {
        const run = query(h.text, h.values);
        if (h.answer) answered.push([h.answer, run]);
        sent.push(run);
      }
      held = [];
      if (rider) result = rider();
    } finally {
      stream.uncork();
    }
    // The statement ahead refused (the key's claim was lost): nothing of the transaction counts.
    const refusal: Promise<unknown> =
      first !== null && claimed
        ? claimed.then(
            (r) => {
              try {
                return first.settle(r);
              } catch (err) {
                return err;
              }
            },
            (err: unknown) => err,
          )
        : Promise.resolve(undefined);
    for (const [answer, run] of answered) {
      void refusal.then((refused) => (refused === undefined ? run.then(answer.resolve, answer.reject) : answer.reject(refused)));
    }
    // The first failure ahead is the cause: what follows it failed because the transaction had.
    const failure = Promise.allSettled(sent).then(async (settled) => {
      const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      return (await refusal) ?? failed?.reason;
    });
    return { result, failure };
  }

  function withHeld(text: unknown, values: unknown[] | undefined, rest: unknown[]): Promise<pg.QueryResult> {
    const earlier = failedAhead;
    failedAhead = undefined;
    const { result, failure } = sendHeld(() => query(text, values, ...rest));
    const answer = result as Promise<pg.QueryResult>;
    return failure.then((cause) => {
      if (cause === undefined && earlier === undefined) return answer;
      answer.catch(() => {});
      throw earlier ?? cause;
    });
  }

  /** Sends what statements sent ahead wait for, when nothing else came along in the same tick. */
  function flushAtTickEnd(): void {
    if (flushing) return;
    flushing = true;
    process.nextTick(() => {
      flushing = false;
      if (!held.some((h) => h.answer !== undefined)) return;
      const transaction = ended;
      void sendHeld().failure.then((cause) => {
        if (cause !== undefined && failedAhead === undefined && transaction === ended && inTransaction) failedAhead = cause;
      });
    });
  }

  client.query = ((text: unknown, values?: unknown[], ...rest: unknown[]) => {
    if (typeof text === 'string' && rest.length === 0 && (values === undefined || values.length === 0)) {
      // Kysely opens and ends transactions with these texts, always in lower case.
      if (text === 'begin' || text.startsWith('start transaction')) {
        begin = text;
        inTransaction = true;
        failedAhead = undefined;
        return Promise.resolve(EMPTY_RESULT('BEGIN'));
      }
      if (text === 'commit' || text === 'rollback') {
        inTransaction = false;
        ended++;
        if (text === 'rollback') {
          for (const h of held) h.answer?.reject(new Error('the transaction rolled back before this statement was sent'));
          held = [];
          failedAhead = undefined;
        }
        if (begin !== null && held.length === 0) {
          begin = null;
          return Promise.resolve(EMPTY_RESULT(text.toUpperCase()));
        }
        const sent = held.length > 0 || failedAhead !== undefined ? withHeld(text, values, rest) : query(text);
        return text === 'commit' ? sent.then(committed) : sent;
      }
    }
    const answer = answerOf(values);
    if (answer !== undefined) {
      const bound = (values as unknown[]).slice(0, -1);
      if (answer.inTransaction && !inTransaction) return lateAnswer(answer);
      if (inTransaction) {
        held.push({ text: text as string, values: bound, answer });
        flushAtTickEnd();
        return Promise.resolve(EMPTY_RESULT('SELECT'));
      }
      const run = query(text, bound, ...rest);
      run.then(answer.resolve, answer.reject);
      return run;
    }
    if (inTransaction && typeof text === 'string' && text.startsWith(DEFERRED)) {
      held.push({ text, values });
      return Promise.resolve(EMPTY_RESULT('SELECT'));
    }
    if (begin === null && held.length === 0 && failedAhead === undefined) return query(text, values, ...rest);
    return withHeld(text, values, rest);
  }) as typeof client.query;
}
