import net from 'node:net';
/**
 * The integration-test harness. Each test file gets its own database: in-memory PGlite by
 * default, or a fresh PostgreSQL database (created from TEST_DATABASE_URL, dropped at the end)
 * when TEST_DATABASE_URL is set; either one a copy of the database migrated once by
 * test/global-setup.ts. The app is built with an injected clock and real everything else, and
 * called with `app.inject`.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { systemRandom } from '../src/platform/crypto.ts';
import { type Db, type OpenedDb, openPglite, openPgliteEngine, openPostgres, pgliteOnBaselineCompiler, type ReadRouter } from '../src/platform/db.ts';
import type { Deps } from '../src/platform/deps.ts';
import { idFactory } from '../src/platform/ids.ts';
import { createLogger } from '../src/platform/logger.ts';
import { migrate } from '../src/platform/migrations.ts';
import { setPasswordCost, TEST_PASSWORD_COST } from '../src/platform/passwords.ts';
import type { Services } from '../src/services.ts';
import { createRunDatabase, type RunDatabase } from './processes.ts';

// A run hashes about a thousand passwords: at argon2id's smallest cost in the suite's workers (the
// production cost is users.http.test.ts's to check). The `caisse` processes tests start keep it.
setPasswordCost(TEST_PASSWORD_COST);

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const dbKind: 'postgres' | 'pglite' = TEST_DATABASE_URL ? 'postgres' : 'pglite';
/** For tests that only mean something on real PostgreSQL (heavy concurrency). */
export const onPostgres = dbKind === 'postgres';

function adminUrl(database: string): string {
  const url = new URL(TEST_DATABASE_URL as string);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The migrated data directory tarball that test/global-setup.ts provides, read once per worker. */
let pgliteTemplate: Blob | undefined;
function templateTarball(): Blob | undefined {
  const file = inject('pgliteTemplate');
  if (file === undefined) return undefined;
  pgliteTemplate ??= new Blob([readFileSync(file)]);
  return pgliteTemplate;
}

/**
 * Fills an empty embedded data directory (CAISSE_DATA_DIR) with a copy of the migrated template,
 * as `caisse migrate` would have left it, for tests whose subject is not a first start (that one
 * runs initdb and every migration: ~3 s of CPU). Without the global setup, leaves it empty.
 */
export function seedDataDir(dataDir: string): void {
  const template = inject('pgliteTemplateDir');
  if (template !== undefined) cpSync(template, join(dataDir, 'pgdata'), { recursive: true });
}

/**
 * A database for `caisse` processes that is migrated already, as `caisse migrate` would have left
 * it: a copy of the template on PostgreSQL, a seeded data directory on PGlite. For tests whose
 * subject is not a first start (that one runs initdb and every migration: ~4 CPU-s).
 */
export async function migratedRunDatabase(label: string): Promise<RunDatabase> {
  const database = await createRunDatabase(TEST_DATABASE_URL, label, inject('postgresTemplate'));
  if (database.kind === 'pglite') seedDataDir(database.dataDir as string);
  return database;
}

/**
 * What a PGlite engine fresh from the template holds, to bring a used one back to it: the schema's
 * fingerprint, the tables, the rows the migrations wrote, every sequence's value.
 */
interface TemplateState {
  fingerprint: string;
  tables: string[];
  seeds: { table: string; rows: string }[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
}

/** The schema, one string: a file that changed it (DDL) gets a new engine instead of a reset one. */
const FINGERPRINT = `select md5(string_agg(format('%s.%s.%s:%s:%s:%s', n.nspname, c.relname, c.relkind, a.attname, a.atttypid, a.attnotnull), ',' order by n.nspname, c.relname, a.attnum))
    || (select count(*) from pg_namespace) || ':' || (select count(*) from pg_proc) || ':' || (select count(*) from pg_trigger)
    || ':' || (select count(*) from pg_constraint) || ':' || (select count(*) from pg_roles) || ':' || (select count(*) from pg_type) as fingerprint
  from pg_class c join pg_namespace n on n.oid = c.relnamespace left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')`;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** What the template's state is read and restored through: a PGlite engine, or a client of a PostgreSQL database. */
interface Sql {
  query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
  /** Statements without parameters, several at once. */
  exec(text: string): Promise<unknown>;
}

async function templateStateOf(engine: Sql): Promise<TemplateState> {
  const fingerprint = (await engine.query<{ fingerprint: string }>(FINGERPRINT)).rows[0]!.fingerprint;
  const tables = (
    await engine.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
    )
  ).rows.map((r) => r.name);
  const seeds: TemplateState['seeds'] = [];
  for (const table of tables) {
    const rows = (await engine.query<{ rows: string | null }>(`select json_agg(t)::text as rows from ${quoted(table)} t`)).rows[0]!.rows;
    if (rows !== null) seeds.push({ table, rows });
  }
  const sequences: TemplateState['sequences'] = [];
  for (const { name } of (
    await engine.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'S'`,
    )
  ).rows) {
    const r = (await engine.query<{ last_value: string; is_called: boolean }>(`select last_value::text, is_called from ${quoted(name)}`)).rows[0]!;
    sequences.push({ name, lastValue: r.last_value, isCalled: r.is_called });
  }
  return { fingerprint, tables, seeds, sequences };
}

/**
 * Brings an engine a file used back to the template: the session's state (an open transaction,
 * prepared statements, settings, locks) dropped, every table emptied, the migrations' rows and
 * the sequences restored. False when the file changed the schema: that engine is not reused.
 */
async function resetToTemplate(engine: Sql, template: TemplateState): Promise<boolean> {
  await engine.exec('rollback');
  await engine.exec('discard all');
  if ((await engine.query<{ fingerprint: string }>(FINGERPRINT)).rows[0]!.fingerprint !== template.fingerprint) return false;
  // Rows deleted, not tables truncated: a truncate makes the engine new files for each table and
  // index it reaches. Replica role: no foreign-key triggers, so the order does not matter.
  const seeded = template.seeds.map((seed) => seed.table);
  const others = template.tables.filter((t) => !seeded.includes(t));
  const written = others.map((t) => `case when exists (select from ${quoted(t)}) then ${quoted(t).replaceAll('"', "'")} end`);
  const dirty = (await engine.query<{ dirty: string[] }>(`select array_remove(array[${written.join(', ')}], null) as dirty`)).rows[0]!.dirty;
  await engine.exec('begin');
  try {
    await engine.exec(['set local session_replication_role = replica', ...[...dirty, ...seeded].map((t) => `delete from ${quoted(t)}`)].join(';\n'));
    for (const seed of template.seeds)
      await engine.query(`insert into ${quoted(seed.table)} select * from json_populate_recordset(null::${quoted(seed.table)}, $1)`, [seed.rows]);
    for (const s of template.sequences) await engine.query(`select setval($1, $2::bigint, $3)`, [quoted(s.name), s.lastValue, s.isCalled]);
    await engine.exec('commit');
  } catch (err) {
    await engine.exec('rollback');
    throw err;
  }
  return true;
}

/**
 * This worker's PGlite engines that files closed, reset to the template, for the next file: a
 * reset costs a fraction of starting an engine from the tarball (about 0.4 CPU-s a file). The
 * worker's files share these modules (isolate: false), so the list outlives each file.
 */
const spareEngines: PGlite[] = [];
let templateState: TemplateState | undefined;

async function pgliteTestEngine(template: Blob): Promise<PGlite> {
  const spare = spareEngines.pop();
  if (spare) return spare;
  // A worker lives about a minute: as a test's `caisse` processes (CAISSE_PGLITE_BASELINE in processes.ts).
  pgliteOnBaselineCompiler();
  const engine = await openPgliteEngine(template);
  templateState ??= await templateStateOf(engine);
  return engine;
}

/** An empty database of its own, for a test of migrations (it applies them). */
export async function openEmptyTestDb(): Promise<OpenedDb & { drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) {
    // As initdb left it (the global setup's copy), rather than running initdb here: ~3 CPU-s.
    const empty = inject('pgliteEmpty');
    const opened = await openPglite(undefined, empty === undefined ? {} : { loadDataDir: new Blob([readFileSync(empty)]) });
    return { ...opened, drop: () => opened.close() };
  }
  const name = `caisse_mig_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const opened = openPostgres(url.toString(), 4);
  return {
    ...opened,
    async drop() {
      await opened.close();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * A fresh, migrated database for one test file: a copy of the template that test/global-setup.ts
 * provides (migrated with these very migrations), or else (no global setup) an empty database
 * migrated here.
 */
export async function openTestDb(): Promise<OpenedDb & { url?: string }> {
  if (!TEST_DATABASE_URL) {
    const template = templateTarball();
    if (!template) {
      const opened = await openPglite(undefined);
      await migrate(opened.db);
      return opened;
    }
    const engine = await pgliteTestEngine(template);
    const opened = await openPglite(undefined, { engine });
    return {
      ...opened,
      async close() {
        await opened.close();
        const reusable = templateState !== undefined && spareEngines.length < 2 && (await resetToTemplate(engine, templateState).catch(() => false));
        if (reusable) spareEngines.push(engine);
        else await engine.close();
      },
    };
  }
  const template = inject('postgresTemplate');
  if (!template) {
    const name = `caisse_t_${process.pid}_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${name}`);
    const opened = openTestPostgres(adminUrl(name));
    await migrate(opened.db);
    return { ...opened, url: adminUrl(name), close: () => opened.close().then(() => adminQuery(`drop database if exists ${name} with (force)`)) };
  }
  const name = sparePostgres.pop() ?? (await copyOfTemplate(template));
  const url = adminUrl(name);
  const opened = openTestPostgres(url);
  return {
    ...opened,
    url,
    async close() {
      await opened.close();
      if (sparePostgres.length >= 2 || !(await resetPostgres(url).catch(() => false))) await adminQuery(`drop database if exists ${name} with (force)`);
      else sparePostgres.push(name);
    },
  };
}

async function adminQuery(text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

// The suite's concurrency tests queue hundreds of transactions on 20 connections while other
// files run beside them: a wait for a connection may pass the server's 5 s (503) on a busy machine.
const openTestPostgres = (url: string) => openPostgres(url, 20, { connectTimeoutMs: 30_000 });

/**
 * This worker's PostgreSQL databases that files closed, reset to the template, for the next file:
 * `create database … template …` copies the whole template through the WAL (about half a second
 * each, and PostgreSQL's CPU), a reset empties the few tables the file wrote. Named after the
 * template, so that the global setup's teardown drops them with it.
 */
const sparePostgres: string[] = [];
let postgresTemplateState: TemplateState | undefined;

async function copyOfTemplate(template: string): Promise<string> {
  const name = `${template}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name} template ${template}`);
  if (postgresTemplateState === undefined) {
    const fresh = await postgresSql(adminUrl(name));
    try {
      postgresTemplateState = await templateStateOf(fresh.sql);
    } finally {
      await fresh.end();
    }
  }
  return name;
}

async function postgresSql(url: string): Promise<{ sql: Sql; end(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const sql: Sql = {
    query: async <R>(text: string, params?: unknown[]) => ({ rows: (await client.query(text, params)).rows as R[] }),
    exec: (text) => client.query(text),
  };
  return { sql, end: () => client.end() };
}

/** Brings a database a file used back to the template: its other sessions ended first (a file's own pool or listener left open). */
async function resetPostgres(url: string): Promise<boolean> {
  if (postgresTemplateState === undefined) return false;
  const db = await postgresSql(url);
  try {
    await db.sql.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    return await resetToTemplate(db.sql, postgresTemplateState);
  } finally {
    await db.end();
  }
}

export interface TestContext {
  app: FastifyInstance;
  deps: Deps;
  services: Services;
  clock: ManualClock;
  database: OpenedDb & { url?: string };
  /** Every log line the app wrote, for checks that no secret is logged. */
  logs: string[];
  close(): Promise<void>;
}

export const TEST_MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * Rate limits count in windows of the ManualClock, which tests rarely move: they are set out of
 * reach here, and tests of the limits themselves pass `env` to bring them back.
 */
const UNLIMITED = {
  CAISSE_RATE_LIMIT_LIVE: '1000000',
  CAISSE_RATE_LIMIT_TEST: '1000000',
  CAISSE_RATE_LIMIT_IP: '1000000',
  CAISSE_RATE_LIMIT_AUTH_FAILURES: '1000000',
};
/** Money tests count whole amounts unless they name a fee: the default fee is 0 here (test/fees.test.ts sets one). */
const NO_FEES = { CAISSE_FEE_PERCENT: '0' };

export async function createTestContext(
  opts: {
    beforeReady?: (app: FastifyInstance) => void | Promise<void>;
    env?: Record<string, string>;
    clock?: ManualClock;
    /** A read replica's router over the file's database (test/reads.replica.test.ts). */
    reads?: (db: Db, clock: ManualClock) => ReadRouter;
  } = {},
): Promise<TestContext> {
  const database = await openTestDb();
  const clock = opts.clock ?? new ManualClock();
  const config = loadConfig({
    CAISSE_MASTER_KEY: TEST_MASTER_KEY,
    CAISSE_DATA_DIR: '/tmp/caisse-test-unused',
    LOG_LEVEL: 'info',
    ...UNLIMITED,
    ...NO_FEES,
    ...opts.env,
  });
  const deps: Deps = { config, db: database.db, clock, random: systemRandom, ids: idFactory(clock), reads: opts.reads?.(database.db, clock) };
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const app = await buildApp({ deps, logger: createLogger({ level: 'info', stream }) });
  await opts.beforeReady?.(app);
  await app.ready();
  return {
    app,
    deps,
    services: app.services,
    clock,
    database,
    logs,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export interface TestMerchant {
  merchantId: string;
  apiKey: string;
  secretKey: string;
  live: { apiKey: string; secretKey: string };
  /** The dashboard login made with the merchant. */
  dashboard: { email: string; password: string };
}

/** A merchant with test keys and live keys. */
export async function createMerchant(ctx: TestContext, name = 'Shop'): Promise<TestMerchant> {
  const created = await ctx.services.merchants.createMerchant({ name, email: `${name.toLowerCase()}-${randomBytes(3).toString('hex')}@example.com` });
  const livePk = await ctx.services.merchants.createKey(created.merchantId, { kind: 'publishable', mode: 'live', name: 'live' });
  const liveSk = await ctx.services.merchants.createKey(created.merchantId, { kind: 'secret', mode: 'live', name: 'live secret' });
  return {
    merchantId: created.merchantId,
    apiKey: created.test.apiKey,
    secretKey: created.test.secretKey,
    live: { apiKey: livePk.secret, secretKey: liveSk.secret },
    dashboard: created.dashboard,
  };
}

export type Creds = { apiKey?: string; secretKey?: string; token?: string; headers?: Record<string, string> };

/** `app.inject` with credentials as headers. */
export function call(app: FastifyInstance, method: InjectOptions['method'], url: string, creds: Creds = {}, body?: unknown): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...(creds.headers ?? {}) };
  if (creds.apiKey) headers['x-api-key'] = creds.apiKey;
  const bearer = creds.token ?? creds.secretKey;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  return app.inject({ method, url, headers, ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}) });
}

/** Server-side credentials (API key + secret key) of a test merchant. */
export const sk = (m: TestMerchant): Creds => ({ apiKey: m.apiKey, secretKey: m.secretKey });
export const pk = (m: TestMerchant): Creds => ({ apiKey: m.apiKey });

/**
 * Marks a dashboard user as enrolled in two-factor sign-in (or not), for tests of live-mode
 * dashboard routes that are not about TOTP: live mode answers 403 `totp_required` to a user
 * without it. Open sessions see the change at once (the flag is read per request).
 */
export async function setTotpEnrolled(ctx: TestContext, email: string, enrolled: boolean): Promise<void> {
  await ctx.deps.db
    .updateTable('dashboard_users')
    .set({ totp_enabled_at: enrolled ? ctx.clock.now() : null })
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .execute();
}

/**
 * How many writes this process's sockets made while `run` ran: with nothing else going on, the
 * round trips to PostgreSQL (a statement, or several sent together, is one write).
 */
export async function countSocketWrites(run: () => Promise<unknown>): Promise<number> {
  const socket = net.Socket.prototype as unknown as { _writeGeneric: (...args: unknown[]) => unknown };
  const original = socket._writeGeneric;
  let writes = 0;
  socket._writeGeneric = function (this: unknown, ...args: unknown[]) {
    writes++;
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    socket._writeGeneric = original;
  }
  return writes;
}

/** A signed-in dashboard browser: its session cookie and CSRF token. */
export interface DashboardBrowser {
  cookie: string;
  csrf: string;
}

/** A dashboard API call as that browser makes it (cookie, CSRF token), or signed out. */
export function dashboardCall(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  who?: DashboardBrowser,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = who ? { cookie: who.cookie, 'x-csrf-token': who.csrf } : {};
  return app.inject({ method, url, headers, ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}) });
}

/** The browser a sign-in (or an accepted invitation) answered 200 to. */
export function dashboardBrowserOf(res: LightMyRequestResponse): DashboardBrowser {
  if (res.statusCode !== 200) throw new Error(`expected a signed-in answer, got ${res.statusCode} ${res.body}`);
  return { cookie: String(res.headers['set-cookie']).split(';')[0] as string, csrf: res.json().csrfToken };
}
