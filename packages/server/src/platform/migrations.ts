import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './db.ts';

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations');

/** Any constant: the advisory lock that serialises concurrent migrators on one PostgreSQL. */
const MIGRATION_LOCK = 72_616_471;

export interface Migration {
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name), 'utf8') }));
}

/**
 * Applies every migration not yet applied, each in its own transaction, under a session-level
 * advisory lock: several processes starting together against one PostgreSQL apply each file once.
 * Returns the names applied by this call.
 */
export async function migrate(db: Db, migrations = readMigrations()): Promise<string[]> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
    try {
      await sql`create table if not exists schema_migrations (
        name text primary key,
        applied_at timestamptz not null default now()
      )`.execute(conn);
      const done = await sql<{ name: string }>`select name from schema_migrations`.execute(conn);
      const applied = new Set(done.rows.map((r) => r.name));
      const ran: string[] = [];
      for (const m of migrations) {
        if (applied.has(m.name)) continue;
        await conn.transaction().execute(async (tx) => {
          await sql.raw(m.sql).execute(tx);
          await sql`insert into schema_migrations (name) values (${m.name})`.execute(tx);
        });
        ran.push(m.name);
      }
      return ran;
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
    }
  });
}
