import { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.ts';
import { HookedPostgresDialect, type OpenedDb, pgTypes as types } from './dialect.ts';
import { markPipelining, pipelined, prepareStatements } from './pipeline.ts';

/**
 * PostgreSQL could not be reached or refused us: one line saying what failed and what to do, in
 * place of the driver's stack trace (a wrong DATABASE_URL is an operator's mistake, not a bug).
 */
export class DatabaseUnreachableError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnreachableError';
  }
}

/** The connection failures an operator fixes in DATABASE_URL or by starting PostgreSQL; undefined for anything else. */
export function databaseUnreachable(err: unknown, databaseUrl: string): DatabaseUnreachableError | undefined {
  const e = err as { code?: string; message?: string } | undefined;
  let where = 'DATABASE_URL';
  let database = '';
  let user = '';
  try {
    const url = new URL(databaseUrl);
    where = `${url.hostname}:${url.port || '5432'}`;
    database = decodeURIComponent(url.pathname.slice(1));
    user = decodeURIComponent(url.username);
  } catch {
    // The configuration checked the URL already; keep the generic words.
  }
  const reason = e?.message ?? String(err);
  const line = (what: string, todo: string) => new DatabaseUnreachableError(`cannot open the database (${what}): ${todo}`, { cause: err });
  switch (e?.code) {
    case '3D000':
      return line(reason, `create it (createdb ${database || 'caisse'}) or correct the database name in DATABASE_URL`);
    case '28P01':
    case '28000':
      return line(reason, `correct the user${user ? ` "${user}"` : ''} or its password in DATABASE_URL, or allow it in PostgreSQL's pg_hba.conf`);
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return line(`nothing answers at ${where}, ${e.code}`, 'start PostgreSQL there or correct the host and port in DATABASE_URL');
    case '57P03':
      return line(reason, 'PostgreSQL is starting or shutting down: start again in a moment');
    default:
      return undefined;
  }
}

const CONNECT_TIMEOUT_MS = 5000;
const KEEP_ALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 };

/**
 * `opts.listenUrl`: where LISTEN connects instead of `url` (DATABASE_LISTEN_URL): behind a pooler
 * in transaction mode, a LISTEN lands on whichever server connection the pooler picked and its
 * notifications never come back to this client, so LISTEN needs a path that keeps its session.
 */
export function openPostgres(
  url: string,
  poolSize = 10,
  /** `connectTimeoutMs`: also how long a request waits for a free connection (tests under load give more). */
  opts: {
    preparedStatements?: boolean;
    listenUrl?: string;
    connectTimeoutMs?: number;
    /** Shown in pg_stat_activity (the read replica's pool says so). */
    applicationName?: string;
    /** A query with no answer by then fails as unavailable (the read replica's pool: its reads then go to the primary). */
    queryTimeoutMs?: number;
  } = {},
): OpenedDb {
  // Pipeline mode: a statement may be written before the previous one is answered (pipelined).
  // A connection lost with its server (a failover) is dropped from the pool and the next checkout
  // makes a new one: the pool recovers by itself. connectionTimeoutMillis: a connect that gets no
  // answer fails (503) instead of holding the request; keepAlive: a server gone without a word
  // (its machine died) is noticed by TCP (docs/operations.md).
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types,
    pipeline: true,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    ...(opts.applicationName === undefined ? {} : { application_name: opts.applicationName }),
    ...(opts.queryTimeoutMs === undefined ? {} : { query_timeout: opts.queryTimeoutMs }),
    ...KEEP_ALIVE,
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    // A connection lost while checked out (its server died mid-transaction) fails that query, and
    // the pool drops the client when it comes back; without a listener the 'error' event it also
    // emits would end the process.
    client.on('error', () => {});
    if (opts.preparedStatements ?? true) prepareStatements(client);
    pipelined(client);
  });
  const db = new Kysely<Database>({ dialect: new HookedPostgresDialect({ pool }) });
  markPipelining(db);
  return {
    db,
    kind: 'postgres',
    close: () => db.destroy(),
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async listen(channel, onNotify, onLost) {
      const client = new pg.Client({ connectionString: opts.listenUrl ?? url, types, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...KEEP_ALIVE });
      let lost = false;
      const fail = () => {
        if (lost) return;
        lost = true;
        client.end().catch(() => {});
        onLost();
      };
      client.on('error', () => {});
      client.on('notification', (n) => {
        if (n.channel === channel) onNotify(n.payload ?? '');
      });
      try {
        await client.connect();
        await client.query(`listen "${channel.replaceAll('"', '""')}"`);
      } catch (err) {
        lost = true;
        await client.end().catch(() => {});
        throw err;
      }
      client.on('error', fail);
      client.on('end', fail);
      return {
        async close() {
          lost = true;
          await client.end().catch(() => {});
        },
      };
    },
  };
}
