/**
 * The database: PostgreSQL through a pool of pg connections (db/pool.ts) with fewer round trips
 * (db/pipeline.ts), or embedded PGlite (db/pglite.ts) behind its data directory's lock
 * (db/lock.ts). Modules import from here only.
 */
import { type OpenedDb } from './db/dialect.ts';
import { openPglite } from './db/pglite.ts';
import { openPostgres } from './db/pool.ts';

export { afterCommit, type Db, type Executor, type OpenedDb, type Tx } from './db/dialect.ts';
export { DataDirLockedError, lockDataDir } from './db/lock.ts';
export {
  AnswerAhead,
  answersAhead,
  DEFERRED,
  MAX_PREPARED_PER_CONNECTION,
  type RowShape,
  runNamed,
  sendsStatementsAhead,
  type StatementAhead,
  withStatementAhead,
} from './db/pipeline.ts';
export { emptyClusterImage, openPglite, openPgliteEngine, pgliteOnBaselineCompiler, seedEmptyCluster } from './db/pglite.ts';
export { DatabaseUnreachableError, databaseUnreachable, openPostgres } from './db/pool.ts';
export {
  createReadRouter,
  onReplica,
  type ReadRouter,
  type ReadStatus,
  readExecutor,
  registerReadMetrics,
  type ReplicaProbe,
  type ReplicaState,
} from './db/reads.ts';

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
