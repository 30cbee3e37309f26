/**
 * Runs once before the server's test files: provides the migrated database that every file's
 * database is copied from, instead of each file running initdb and every migration again.
 * PGlite: a tarball of a migrated data directory (PGlite's dumpDataDir), which openTestDb loads
 * (`loadDataDir`), and the same as a data directory on disk (seedDataDir). They are kept in
 * node_modules/.cache/caisse-test under a hash of what makes them (PGlite's version, the
 * migrations, the code below), so a run after a run with the same migrations skips initdb.
 * PostgreSQL: a migrated template database for the run, which openTestDb copies with
 * `create database … template …`, dropped at the end with the copies that workers kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { Database } from '../src/platform/database.ts';
import { emptyClusterImage, openPglite, openPostgres, pgliteOnBaselineCompiler } from '../src/platform/db.ts';
import { migrate, readMigrations } from '../src/platform/migrations.ts';

const SERVER = join(import.meta.dirname, '..');
const CACHE = join(SERVER, '..', '..', 'node_modules', '.cache', 'caisse-test');

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: the path of the migrated data directory tarball. */
    pgliteTemplate: string | undefined;
    /** PGlite: a data directory tarball as initdb leaves it, before any migration (migration tests). */
    pgliteEmpty: string | undefined;
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

/** What the PGlite template is made of: a new hash, a new template. */
function templateKey(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json')));
  for (const m of readMigrations()) hash.update(m.name).update(m.sql);
  for (const file of ['src/platform/migrations.ts', 'src/platform/db.ts', 'src/platform/db/dialect.ts', 'src/platform/db/pglite.ts', 'test/global-setup.ts'])
    hash.update(readFileSync(join(SERVER, file)));
  return hash.digest('hex').slice(0, 16);
}

/** The cached template's directory (template.tar, empty.tar, data/pgdata), made first when missing. */
async function pgliteTemplate(): Promise<string> {
  const key = templateKey();
  const dir = join(CACHE, `pglite-${key}`);
  if (existsSync(join(dir, 'complete'))) return dir;
  // Made aside, then renamed into place: a run beside this one sees all of it or none.
  const building = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
  mkdirSync(building, { recursive: true });
  try {
    const { empty, tarball } = await migratedTarball();
    writeFileSync(join(building, 'template.tar'), tarball);
    writeFileSync(join(building, 'empty.tar'), empty);
    const onDisk = await openPglite(join(building, 'data'), { loadDataDir: new Blob([tarball]) });
    await onDisk.close();
    writeFileSync(join(building, 'complete'), '');
    renameSync(building, dir);
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    // Another run put the same template there first.
    if (existsSync(join(dir, 'complete'))) return dir;
    throw err;
  }
  // Templates of older migrations go, and what a killed run left half made.
  for (const name of readdirSync(CACHE)) {
    const builder = /^pglite-[0-9a-f]{16}\.(\d+)\./.exec(name)?.[1];
    const old = /^pglite-[0-9a-f]{16}$/.test(name) && name !== `pglite-${key}`;
    if (old || (builder !== undefined && !alive(Number(builder)))) rmSync(join(CACHE, name), { recursive: true, force: true });
  }
  return dir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A new in-memory PGlite as a data directory tarball: empty (as initdb left it), and migrated. It
 * starts from the build's empty cluster when there is one (no initdb, as a first `caisse start`).
 * Migrated in memory: on a data directory the migrations' writes cost about four times the CPU.
 */
async function migratedTarball(): Promise<{ empty: Uint8Array<ArrayBuffer>; tarball: Uint8Array<ArrayBuffer> }> {
  const image = emptyClusterImage();
  const loadDataDir = image === undefined ? undefined : new Blob([readFileSync(join(image, 'empty.tar.gz'))], { type: 'application/gzip' });
  pgliteOnBaselineCompiler();
  const pglite = new PGlite('memory://', loadDataDir ? { loadDataDir } : {});
  await pglite.waitReady;
  const empty = new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ ...createPgConfig(pglite), max: 1 } as pg.PoolConfig) }) });
  try {
    await migrate(db);
    // Nothing connects to the template databases of a test's copy: without them (a third of the
    // files and half the bytes), each file loads its database in about half the time.
    for (const name of ['template0', 'template1']) {
      await sql`alter database ${sql.id(name)} is_template false`.execute(db);
      await sql`drop database ${sql.id(name)}`.execute(db);
    }
    // Every page written out before the copy: a database loaded from it has no WAL to replay.
    await sql`checkpoint`.execute(db);
    await db.destroy();
    return { empty, tarball: new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer()) };
  } finally {
    await pglite.close();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL || undefined;
  if (url === undefined) {
    const dir = await pgliteTemplate();
    project.provide('pgliteTemplate', join(dir, 'template.tar'));
    project.provide('pgliteEmpty', join(dir, 'empty.tar'));
    project.provide('pgliteTemplateDir', join(dir, 'data', 'pgdata'));
    project.provide('postgresTemplate', undefined);
    return async () => {};
  }
  // The embedded template too: some tests open a data directory of their own on PostgreSQL runs.
  const dir = await pgliteTemplate();
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
  project.provide('pgliteEmpty', join(dir, 'empty.tar'));
  project.provide('pgliteTemplateDir', join(dir, 'data', 'pgdata'));
  project.provide('postgresTemplate', name);
  return async () => {
    // The files' databases that workers kept to reuse (test/harness.ts) are named after the template.
    await admin(url, async (c) => {
      const copies = await c.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [`${name}_`]);
      for (const { datname } of copies.rows) await c.query(`drop database if exists ${datname} with (force)`);
      await c.query(`drop database if exists ${name} with (force)`);
    });
  };
}
