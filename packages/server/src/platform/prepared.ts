import {
  type Compilable,
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type RawBuilder,
} from 'kysely';
import type { Database } from './database.ts';
import { AnswerAhead, DEFERRED, type Executor } from './db.ts';

/**
 * A statement of the payment path, built and compiled by Kysely once, at module load, and run
 * with its parameters bound: building and compiling a query on every call cost more CPU than
 * node-postgres running it (docs/decisions/0015-performance.md).
 *
 * `build` receives a Kysely of the schema and a parameters object whose fields stand for the
 * values of each run (typed as `P`, so the builder checks them as it would real values). Use a
 * parameter wherever a value varies; anything else is part of the statement. A parameter is one
 * value: not a list (`in`), not an optional part of the statement (a column set only sometimes).
 */
export interface Prepared<P, R> {
  readonly sql: string;
  /** The parameters of a run, in the statement's order. */
  bind(params: P): unknown[];
  execute(db: Executor, params: P): Promise<QueryResult<R>>;
  /** The rows. */
  rows(db: Executor, params: P): Promise<R[]>;
  /** The first row, if any. */
  first(db: Executor, params: P): Promise<R | undefined>;
  /** How many rows an INSERT, UPDATE or DELETE touched. */
  affected(db: Executor, params: P): Promise<bigint>;
  /**
   * The rows, with the statement sent ahead (AnswerAhead in platform/db.ts): inside a transaction
   * on PostgreSQL it is written with the transaction's next statement, so reads issued one after
   * the other before any is awaited share a round trip. Issue them all, then await them all with
   * `allAhead` (never `Promise.all`: see there).
   */
  ahead(db: Executor, params: P): Promise<R[]>;
}

/** Stands for a parameter in the statement being compiled. */
class Slot {
  constructor(readonly name: string) {}
}

/** Compiles only: it never connects. */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/**
 * `deferred`: a write whose answer nobody reads, sent inside a transaction with its next statement
 * (DEFERRED in platform/db.ts); it must fail by itself when it cannot do its work.
 */
export function prepare<P extends object, R>(
  build: (db: Kysely<Database>, p: P) => Compilable<R> | RawBuilder<R>,
  opts: { deferred?: boolean } = {},
): Prepared<P, R> {
  const slots = new Proxy({} as P, { get: (_target, name) => new Slot(String(name)) });
  // A query builder compiles by itself; a `sql` template needs a Kysely to compile with.
  const built = (build(compiler, slots) as RawBuilder<R>).compile(compiler);
  const compiled = opts.deferred ? { ...built, sql: `${DEFERRED}${built.sql}` } : built;
  const names = compiled.parameters.map((value) => (value instanceof Slot ? value.name : null));
  const bind = (params: P): unknown[] =>
    compiled.parameters.map((value, i) => {
      const name = names[i];
      return name == null ? value : (params as Record<string, unknown>)[name];
    });
  const execute = (db: Executor, params: P): Promise<QueryResult<R>> => {
    const parameters = bind(params);
    const query: CompiledQuery<R> = { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters };
    return db.executeQuery(query);
  };
  const ahead = (db: Executor, params: P): Promise<R[]> => {
    const answer = new AnswerAhead(db.isTransaction);
    const query: CompiledQuery<R> = { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters: [...bind(params), answer] };
    db.executeQuery(query).catch(answer.reject);
    const rows = answer.promise.then((result) => result.rows as R[]);
    // A transaction that fails before its caller reads this must not leave it unhandled.
    rows.catch(() => {});
    return rows;
  };
  return {
    sql: compiled.sql,
    bind,
    execute,
    ahead,
    rows: async (db, params) => (await execute(db, params)).rows,
    first: async (db, params) => (await execute(db, params)).rows[0],
    affected: async (db, params) => (await execute(db, params)).numAffectedRows ?? 0n,
  };
}

/**
 * For a statement whose shape depends on which fields are given (an insert of a row, an update
 * of some columns): compiled once per set of given fields. `build` receives those fields' names,
 * sorted; fields given as `undefined` are not given.
 */
export function prepareByFields<P extends object, R>(
  build: (db: Kysely<Database>, p: P, fields: readonly string[]) => Compilable<R>,
  opts: { deferred?: boolean } = {},
): (params: P) => Prepared<P, R> {
  const shapes = new Map<string, Prepared<P, R>>();
  return (params) => {
    const fields = Object.keys(params)
      .filter((k) => (params as Record<string, unknown>)[k] !== undefined)
      .sort();
    const key = fields.join(',');
    let statement = shapes.get(key);
    if (statement === undefined) {
      statement = prepare((db, p: P) => build(db, p, fields), opts);
      // A handful of shapes per statement in practice; never grow without bound.
      if (shapes.size < 64) shapes.set(key, statement);
    }
    return statement;
  };
}

/** `row`'s given fields, each as its parameter (for `values` and `set`). */
export function fieldsOf<T extends object>(p: T, fields: readonly string[]): T {
  return Object.fromEntries(fields.map((f) => [f, (p as Record<string, unknown>)[f]])) as T;
}

/**
 * `Promise.all` for reads sent ahead in one transaction, except that it waits for every one of
 * them to settle before it rejects. Kysely hands a transaction's statements to the connection one
 * after the other, but its ROLLBACK goes straight to the connection: a transaction that ended on
 * the first failure while a later read still waited in Kysely's queue would have that read run
 * after the ROLLBACK, outside it. Settled means handed over.
 */
export async function allAhead<T extends readonly unknown[]>(reads: readonly [...T]): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(reads);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}
