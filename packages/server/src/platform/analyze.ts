import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from './db.ts';
import { type LoopWorker, startWorker } from './worker.ts';

/** A table is analysed again once it holds this many times the pages it had at its last ANALYZE. */
const GROWTH = 2;
/** Below this many pages (64 KB) a sequential scan is as good as an index: not worth an ANALYZE. */
const MIN_PAGES = 8;
const EVERY_MS = 10_000;

/**
 * ANALYZE the tables that grew since their last statistics, and answer their names.
 *
 * Embedded PGlite has no autovacuum, and a prepared statement's cached plan is only made again
 * when its tables' statistics change: a plan chosen while a table was a page long stays a
 * sequential scan however large it grows. Doubling as the trigger keeps it to a few ANALYZE per
 * table over its whole life. PostgreSQL's autovacuum does this itself.
 */
export async function analyzeGrownTables(db: Db): Promise<string[]> {
  const grown = await sql<{ name: string }>`
    select c.oid::regclass::text as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'r' and n.nspname = 'public'
       and pg_relation_size(c.oid) / current_setting('block_size')::int >= greatest(${MIN_PAGES}::int, ${GROWTH}::int * c.relpages)
     order by 1`.execute(db);
  const names = grown.rows.map((r) => r.name);
  // One table per statement: an identifier comes from the catalogue, quoted by regclass.
  for (const name of names) await sql`analyze ${sql.raw(name)}`.execute(db);
  return names;
}

/** The embedded database's ANALYZE loop: once at start, then every 10 s. */
export function startAutoAnalyze(db: Db, logger: Logger): LoopWorker {
  return startWorker({
    name: 'auto-analyze',
    logger,
    intervalMs: EVERY_MS,
    firstDelayMs: 0,
    async tick() {
      const tables = await analyzeGrownTables(db);
      if (tables.length > 0) logger.debug({ tables }, 'tables analysed');
    },
  });
}
