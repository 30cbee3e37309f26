import { cpSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.ts';
import { batchedEngine, type PgliteEngine, startPgliteThread } from '../pglite-thread.ts';
import { HookedPostgresDialect, type OpenedDb, pgTypes as types } from './dialect.ts';
import { lockDataDir } from './lock.ts';
import { answersAhead, prepareStatements } from './pipeline.ts';

// shared_buffers lives in WASM memory, which never shrinks: 16 MB instead of the default 128 MB
// keeps a development gateway's footprint small (the data of one is far smaller).
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/** The empty cluster the build makes once per PGlite version (scripts/builds.mjs). */
const EMPTY_CLUSTER = fileURLToPath(new URL('../../../dist/pglite-cluster', import.meta.url));

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
