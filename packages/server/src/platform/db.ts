import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { type DatabaseConnection, type Driver, Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './database.ts';
import { processAlive } from './process-alive.ts';
import { batchedEngine, type PgliteEngine, startPgliteThread } from './pglite-thread.ts';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database or an open transaction: repositories accept both. */
export type Executor = Db | Tx;

/** What runs once a transaction's COMMIT has succeeded, by its connection (see `afterCommit`). */
const commitHooks = new WeakMap<DatabaseConnection, (() => void)[]>();

/**
 * Runs `fn` once `tx` has committed (never if it rolls back), in this process: what others must
 * hear only about committed changes (a payer waiting on an intent's status) without a query
 * inside the transaction or a call at every place a transaction ends. `fn` must not throw.
 */
export async function afterCommit(tx: Tx, fn: () => void): Promise<void> {
  await tx.getExecutor().provideConnection(async (connection) => {
    const hooks = commitHooks.get(connection);
    if (hooks) hooks.push(fn);
    else commitHooks.set(connection, [fn]);
  });
}

/** PostgreSQL's dialect, whose driver runs the `afterCommit` hooks of a transaction after its COMMIT. */
class HookedPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const commit = driver.commitTransaction.bind(driver);
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.commitTransaction = async (connection) => {
      const hooks = commitHooks.get(connection);
      commitHooks.delete(connection);
      await commit(connection);
      for (const fn of hooks ?? []) fn();
    };
    driver.rollbackTransaction = async (connection) => {
      commitHooks.delete(connection);
      await rollback(connection);
    };
    return driver;
  }
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * PostgreSQL could not be reached or refused us: one line saying what failed and what to do, in
 * place of the driver's stack trace (a wrong DATABASE_URL is an operator's mistake, not a bug).
 */
export class DatabaseUnreachableError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnreachableError';
  }
}

/** The connection failures an operator fixes in DATABASE_URL or by starting PostgreSQL; undefined for anything else. */
export function databaseUnreachable(err: unknown, databaseUrl: string): DatabaseUnreachableError | undefined {
  const e = err as { code?: string; message?: string } | undefined;
  let where = 'DATABASE_URL';
  let database = '';
  let user = '';
  try {
    const url = new URL(databaseUrl);
    where = `${url.hostname}:${url.port || '5432'}`;
    database = decodeURIComponent(url.pathname.slice(1));
    user = decodeURIComponent(url.username);
  } catch {
    // The configuration checked the URL already; keep the generic words.
  }
  const reason = e?.message ?? String(err);
  const line = (what: string, todo: string) => new DatabaseUnreachableError(`cannot open the database (${what}): ${todo}`, { cause: err });
  switch (e?.code) {
    case '3D000':
      return line(reason, `create it (createdb ${database || 'caisse'}) or correct the database name in DATABASE_URL`);
    case '28P01':
    case '28000':
      return line(reason, `correct the user${user ? ` "${user}"` : ''} or its password in DATABASE_URL, or allow it in PostgreSQL's pg_hba.conf`);
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return line(`nothing answers at ${where}, ${e.code}`, 'start PostgreSQL there or correct the host and port in DATABASE_URL');
    case '57P03':
      return line(reason, 'PostgreSQL is starting or shutting down: start again in a moment');
    default:
      return undefined;
  }
}

/**
 * Type parsers scoped to our pools: 64-bit integers come back as exact `bigint`, never a JS
 * number. Everything else uses pg's defaults (timestamptz → Date, jsonb → object).
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => BigInt(value);
    if (oid === NUMERIC_OID) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export interface OpenedDb {
  db: Db;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
  /** PostgreSQL: NOTIFY on `channel` (outside any transaction). */
  notify?(channel: string, payload: string): Promise<void>;
  /**
   * PostgreSQL: LISTEN on `channel` over a connection of its own, outside the pool. `onLost` is
   * called once if that connection fails; the caller makes a new one.
   */
  listen?(channel: string, onNotify: (payload: string) => void, onLost: () => void): Promise<{ close(): Promise<void> }>;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: string,
  ) {
    super(`the embedded database in ${dataDir} is already open by ${holder}; stop it or use another CAISSE_DATA_DIR`);
    this.name = 'DataDirLockedError';
  }
}

/**
 * Takes the data directory's lock file, or throws naming the process that holds it. A lock left
 * by a process that is gone (same host, pid not alive) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'caisse.lock');
  const me = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      return () => {
        try {
          const current = JSON.parse(readFileSync(file, 'utf8')) as { pid?: number };
          if (current.pid === process.pid) rmSync(file, { force: true });
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let holder: { pid?: number; host?: string; startedAt?: string } = {};
      try {
        holder = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        /* unreadable: treat as stale */
      }
      const sameHost = holder.host === undefined || holder.host === me.host;
      if (typeof holder.pid === 'number' && (!sameHost || processAlive(holder.pid))) {
        throw new DataDirLockedError(dataDir, `process ${holder.pid} on ${holder.host ?? 'this host'} (since ${holder.startedAt ?? 'unknown'})`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(dataDir, 'another process (the lock file keeps reappearing)');
}

/** Named statements a connection keeps at most; past that, new texts run unnamed. */
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
function prepareStatements(client: pg.PoolClient): void {
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
function pipelined(client: pg.PoolClient): void {
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

const CONNECT_TIMEOUT_MS = 5000;
const KEEP_ALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 };

/**
 * `opts.listenUrl`: where LISTEN connects instead of `url` (DATABASE_LISTEN_URL): behind a pooler
 * in transaction mode, a LISTEN lands on whichever server connection the pooler picked and its
 * notifications never come back to this client, so LISTEN needs a path that keeps its session.
 */
export function openPostgres(
  url: string,
  poolSize = 10,
  /** `connectTimeoutMs`: also how long a request waits for a free connection (tests under load give more). */
  opts: { preparedStatements?: boolean; listenUrl?: string; connectTimeoutMs?: number } = {},
): OpenedDb {
  // Pipeline mode: a statement may be written before the previous one is answered (pipelined).
  // A connection lost with its server (a failover) is dropped from the pool and the next checkout
  // makes a new one: the pool recovers by itself. connectionTimeoutMillis: a connect that gets no
  // answer fails (503) instead of holding the request; keepAlive: a server gone without a word
  // (its machine died) is noticed by TCP (docs/operations.md).
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types,
    pipeline: true,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    ...KEEP_ALIVE,
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    // A connection lost while checked out (its server died mid-transaction) fails that query, and
    // the pool drops the client when it comes back; without a listener the 'error' event it also
    // emits would end the process.
    client.on('error', () => {});
    if (opts.preparedStatements ?? true) prepareStatements(client);
    pipelined(client);
  });
  const db = new Kysely<Database>({ dialect: new HookedPostgresDialect({ pool }) });
  pipelining.add(db);
  return {
    db,
    kind: 'postgres',
    close: () => db.destroy(),
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async listen(channel, onNotify, onLost) {
      const client = new pg.Client({ connectionString: opts.listenUrl ?? url, types, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...KEEP_ALIVE });
      let lost = false;
      const fail = () => {
        if (lost) return;
        lost = true;
        client.end().catch(() => {});
        onLost();
      };
      client.on('error', () => {});
      client.on('notification', (n) => {
        if (n.channel === channel) onNotify(n.payload ?? '');
      });
      try {
        await client.connect();
        await client.query(`listen "${channel.replaceAll('"', '""')}"`);
      } catch (err) {
        lost = true;
        await client.end().catch(() => {});
        throw err;
      }
      client.on('error', fail);
      client.on('end', fail);
      return {
        async close() {
          lost = true;
          await client.end().catch(() => {});
        },
      };
    },
  };
}

// shared_buffers lives in WASM memory, which never shrinks: 16 MB instead of the default 128 MB
// keeps a development gateway's footprint small (the data of one is far smaller).
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/** The empty cluster the build makes once per PGlite version (scripts/builds.mjs). */
const EMPTY_CLUSTER = fileURLToPath(new URL('../../dist/pglite-cluster', import.meta.url));

/**
 * The build's empty cluster (pgdata/, and empty.tar.gz for an engine in memory), when there is one
 * made by the PGlite installed now: one of another version may not open.
 */
export function emptyClusterImage(dir = EMPTY_CLUSTER): string | undefined {
  try {
    const installed = JSON.parse(readFileSync(join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    return readFileSync(join(dir, 'VERSION'), 'utf8') === installed.version ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A new data directory starts as a copy of the build's empty cluster instead of PGlite's initdb
 * (about 10 CPU-s of WebAssembly on a first start). Copied aside and then renamed, so a crash
 * mid-copy leaves no half cluster. With a pgdata already there, or no image, PGlite does as it
 * always did. True when it copied.
 */
export function seedEmptyCluster(dataDir: string, image: string | undefined): boolean {
  const pgdata = join(dataDir, 'pgdata');
  if (image === undefined || existsSync(pgdata)) return false;
  const partial = `${pgdata}.partial`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(join(image, 'pgdata'), partial, { recursive: true });
  renameSync(partial, pgdata);
  return true;
}

/**
 * PGlite's WebAssembly on V8's baseline compiler (Liftoff) only, for a process that lives
 * seconds: V8 otherwise compiles again, with its optimizing compiler, every function that runs
 * often, and PostgreSQL has thousands. That second compilation is most of a short process's CPU
 * (an embedded `caisse ledger verify`: 1.55 CPU-s, 0.90 without it) and pays back only in a
 * server that keeps running (12–14 % more payments per second after a warm-up):
 * docs/decisions/0059-pglite-on-the-baseline-compiler.md. V8's flags are the process's, and V8
 * reads this one when it compiles a module: set before the engine is created. The only other
 * WebAssembly in the server is fetch's HTTP parser, on short answers.
 */
let baselineSet = false;
export function pgliteOnBaselineCompiler(): void {
  if (baselineSet) return;
  baselineSet = true;
  setFlagsFromString('--liftoff-only');
}

/**
 * An in-memory PGlite engine, started from a data directory tarball (PGlite's dumpDataDir) when
 * one is given: what `openPglite(undefined, { engine })` runs on, for a caller that keeps the
 * engine beyond one OpenedDb (the test harness reuses one per worker, reset between files).
 */
export async function openPgliteEngine(loadDataDir?: Blob): Promise<PGlite> {
  const pglite = new PGlite('memory://', { startParams: PGLITE_START_PARAMS, ...(loadDataDir ? { loadDataDir } : {}) });
  await pglite.waitReady;
  return pglite;
}

/**
 * Embedded PGlite through its own node-postgres adapter and a pool of one connection, so
 * transactions never interleave. `dataDir` undefined means in memory (tests). `loadDataDir`: a
 * data directory tarball (PGlite's dumpDataDir) to start from instead of an empty database (tests).
 * `engine`: an in-memory engine of the caller's (openPgliteEngine), which close() leaves open.
 */
export async function openPglite(
  dataDir: string | undefined,
  opts: { preparedStatements?: boolean; loadDataDir?: Blob; thread?: boolean; engine?: PGlite; baseline?: boolean } = {},
): Promise<OpenedDb> {
  const release = dataDir === undefined ? () => {} : lockDataDir(dataDir);
  let engine: PgliteEngine | undefined;
  try {
    if (dataDir !== undefined && opts.loadDataDir === undefined) seedEmptyCluster(dataDir, emptyClusterImage());
    if (opts.baseline === true) pgliteOnBaselineCompiler();
    const startParams = PGLITE_START_PARAMS;
    // `thread`: a data directory's engine in a thread of its own (pglite-thread.ts); off by
    // default, it measured slower on a quiet machine (docs/decisions/0015-performance.md).
    // On this thread, statements still reach the engine in one call each (batchedEngine).
    engine =
      dataDir !== undefined && opts.thread === true
        ? startPgliteThread(join(dataDir, 'pgdata'), startParams)
        : batchedEngine(
            opts.engine ??
              new PGlite(dataDir === undefined ? 'memory://' : join(dataDir, 'pgdata'), {
                startParams,
                ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
              }),
          );
    if (opts.engine) {
      // The caller's to close.
      const { waitReady, execProtocolStream } = engine;
      engine = { waitReady, execProtocolStream, close: async () => {} };
    }
    await engine.waitReady;
    const pool = new pg.Pool({ ...createPgConfig(engine as unknown as PGlite), max: 1, types } as pg.PoolConfig);
    // Parsing and planning run in WASM on this very thread: preparing once matters even more here.
    pool.on('connect', (client) => {
      if (opts.preparedStatements ?? true) prepareStatements(client);
      answersAhead(client);
    });
    const db = new Kysely<Database>({ dialect: new HookedPostgresDialect({ pool }) });
    return {
      db,
      kind: 'pglite',
      async close() {
        await db.destroy();
        await engine?.close();
        release();
      },
    };
  } catch (err) {
    await engine?.close().catch(() => {});
    release();
    throw err;
  }
}

export async function openDatabase(opts: {
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize?: number;
  preparedStatements?: boolean;
  listenUrl?: string;
  pgliteThread?: boolean;
  /** Embedded only: the engine on V8's baseline compiler (pgliteOnBaselineCompiler). */
  pgliteBaseline?: boolean;
}): Promise<OpenedDb> {
  const prepared = { preparedStatements: opts.preparedStatements };
  return opts.databaseUrl
    ? openPostgres(opts.databaseUrl, opts.poolSize, { ...prepared, listenUrl: opts.listenUrl })
    : openPglite(opts.dataDir, { ...prepared, thread: opts.pgliteThread, baseline: opts.pgliteBaseline });
}
