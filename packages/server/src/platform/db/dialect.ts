import { type DatabaseConnection, type Driver, type Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.ts';

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
export class HookedPostgresDialect extends PostgresDialect {
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
 * Type parsers scoped to our pools: 64-bit integers come back as exact `bigint`, never a JS
 * number. Everything else uses pg's defaults (timestamptz → Date, jsonb → object).
 */
export const pgTypes = {
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
