/**
 * Runs once before the server's test files: makes the migrated database that every file's
 * database is copied from, instead of each file running initdb and every migration again.
 * PGlite: a tarball of a migrated data directory (PGlite's dumpDataDir), which openTestDb loads
 * (`loadDataDir`). PostgreSQL: a migrated template database, which openTestDb copies with
 * `create database … template …`. Both are removed at the end of the run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { Database } from '../src/platform/database.ts';
import { openPglite, openPostgres } from '../src/platform/db.ts';
import { migrate } from '../src/platform/migrations.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: the path of the migrated data directory tarball. */
    pgliteTemplate: string | undefined;
    /** PGlite: the same database as a data directory (the `pgdata` inside CAISSE_DATA_DIR). */
    pgliteTemplateDir: string | undefined;
    /** PostgreSQL: the name of the migrated template database. */
    postgresTemplate: string | undefined;
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL || undefined;
  if (url === undefined) {
    const file = join(tmpdir(), `caisse-test-template-${process.pid}-${randomBytes(4).toString('hex')}.tar`);
    const pglite = new PGlite('memory://');
    await pglite.waitReady;
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ ...createPgConfig(pglite), max: 1 } as pg.PoolConfig) }) });
    try {
      await migrate(db);
      // Every page written out before the copy: a database loaded from it has no WAL to replay.
      await sql`checkpoint`.execute(db);
      await db.destroy();
      writeFileSync(file, new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    } finally {
      await pglite.close();
    }
    // The same database as an embedded data directory on disk, for tests that start `caisse`
    // processes on a data directory whose first start is not their subject (seedDataDir).
    const dir = mkdtempSync(join(tmpdir(), 'caisse-test-template-'));
    const onDisk = await openPglite(dir, { loadDataDir: new Blob([readFileSync(file)]) });
    await onDisk.close();
    project.provide('pgliteTemplate', file);
    project.provide('pgliteTemplateDir', join(dir, 'pgdata'));
    project.provide('postgresTemplate', undefined);
    return async () => {
      rmSync(file, { force: true });
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const name = `caisse_tpl_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(url, (c) => c.query(`create database ${name}`));
  const opened = openPostgres(withDatabase(url, name), 2);
  try {
    await migrate(opened.db);
  } finally {
    // No connection may stay open on a template while databases are created from it.
    await opened.close();
  }
  project.provide('pgliteTemplate', undefined);
  project.provide('pgliteTemplateDir', undefined);
  project.provide('postgresTemplate', name);
  return async () => {
    await admin(url, (c) => c.query(`drop database if exists ${name} with (force)`));
  };
}
