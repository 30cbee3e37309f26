import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './db.ts';

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations');

/** Any constant: the advisory lock that serialises concurrent migrators on one PostgreSQL. */
const MIGRATION_LOCK = 72_616_471;

/**
 * The database was migrated by a newer version than this process: it is refused rather than run
 * against columns it does not know (migration 0074 moved the provider requests' columns, which an
 * older process would write). Rolling back a version means restoring the database of that version.
 */
export class SchemaAheadError extends Error {
  constructor(readonly unknown: readonly string[]) {
    super(
      `The database was migrated by a newer version of Caisse (${unknown.join(', ')}): this version cannot run on it; start the newer version, or restore a backup made before it`,
    );
    this.name = 'SchemaAheadError';
  }
}

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
 * Applies every migration not yet applied, each in its own transaction, under a transaction-level
 * advisory lock: several processes starting together against one PostgreSQL apply each file once.
 * Nothing outlives a transaction (no session lock), so this also holds behind a pooler in
 * transaction mode (PgBouncer), where consecutive statements outside a transaction may run on
 * different server connections. Returns the names applied by this call. Throws SchemaAheadError,
 * applying nothing, when the database holds a migration this version does not have.
 */
export async function migrate(db: Db, migrations = readMigrations()): Promise<string[]> {
  const lock = sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
  const pending = await db.transaction().execute(async (tx) => {
    await lock.execute(tx);
    await sql`create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`.execute(tx);
    const done = await sql<{ name: string }>`select name from schema_migrations`.execute(tx);
    const applied = new Set(done.rows.map((r) => r.name));
    const known = new Set(migrations.map((m) => m.name));
    const unknown = [...applied].filter((name) => !known.has(name)).sort();
    if (unknown.length > 0) throw new SchemaAheadError(unknown);
    return migrations.filter((m) => !applied.has(m.name));
  });
  const ran: string[] = [];
  for (const m of pending) {
    // Another migrator may have applied it since: checked again under the lock.
    const applied = await db.transaction().execute(async (tx) => {
      await lock.execute(tx);
      const done = await sql`select 1 from schema_migrations where name = ${m.name}`.execute(tx);
      if (done.rows.length > 0) return false;
      await sql.raw(m.sql).execute(tx);
      await sql`insert into schema_migrations (name) values (${m.name})`.execute(tx);
      return true;
    });
    if (applied) ran.push(m.name);
  }
  return ran;
}
