/**
 * The ceiling: the SQL statements Caisse issues for one payment, replayed by pgbench.
 *
 * Capture: the bench builds Caisse's own app in this process (the same code as `caisse start`)
 * over a connection whose Kysely query log records every statement with its parameters, BEGIN,
 * COMMIT and savepoints included, and runs payments through `app.inject`. The first payment warms
 * the caches; the next two are recorded. They must issue the same statements; their parameters
 * tell what is constant (equal in both) and what varies: values that carry the user's number
 * become expressions of a per-transaction random user, new ids and hashes become unique values,
 * timestamps become `now()` plus the same offset, and other varying values (event payloads) keep
 * the first payment's text.
 *
 * Replay: one pgbench transaction = one payment's statements, against the same database and its
 * seeded users, with prepared statements (`-M prepared`: the database's best case).
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { Kysely, type LogEvent, PostgresDialect } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../packages/server/src/app.ts';
import { systemClock } from '../../packages/server/src/platform/clock.ts';
import { systemRandom } from '../../packages/server/src/platform/crypto.ts';
import type { Database } from '../../packages/server/src/platform/database.ts';
import { AnswerAhead, answersAhead } from '../../packages/server/src/platform/db.ts';
import type { Deps } from '../../packages/server/src/platform/deps.ts';
import { idFactory } from '../../packages/server/src/platform/ids.ts';
import { createLogger } from '../../packages/server/src/platform/logger.ts';
import { type FlowContext, payment } from './flow.ts';
import type { HttpAnswer, Requester } from './load.ts';
import { LabelledSamples } from './stats.ts';
import { type BenchUser, configFor, type Merchant } from './world.ts';

const run = promisify(execFile);

export interface Statement {
  sql: string;
  params: readonly unknown[];
}

export interface Capture {
  /** The statements of two payments, in order. */
  payments: { user: BenchUser; startedAt: number; statements: Statement[] }[];
}

/** Runs 3 payments through Caisse's app in this process and records the statements of the last two. */
export async function capturePayments(opts: { databaseUrl: string; dataDir: string; merchant: Merchant; users: BenchUser[] }): Promise<Capture> {
  let recording: Statement[] | undefined;
  const log = (event: LogEvent) => {
    // A read sent ahead carries its answer's slot as a last parameter, never sent to PostgreSQL.
    recording?.push({ sql: event.query.sql, params: event.query.parameters.filter((p) => !(p instanceof AnswerAhead)) });
  };
  // The server's pool, as platform/db.ts opens it (int8 as bigint), with Kysely's query log on.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === 20 ? (v: string) => BigInt(v) : oid === 1700 ? (v: string) => v : pg.types.getTypeParser(oid, format),
  } as pg.CustomTypesConfig;
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 4, types });
  pool.on('connect', (client) => answersAhead(client));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
  const deps: Deps = {
    config: configFor(opts.dataDir, opts.databaseUrl),
    db,
    clock: systemClock,
    random: systemRandom,
    ids: idFactory(systemClock),
  };
  const app = await buildApp({ deps, logger: createLogger({ level: 'warn' }) });
  await app.ready();
  const requester: Requester = {
    async request(method, path, headers, body): Promise<HttpAnswer> {
      const res = await app.inject({ method, url: path, headers, ...(body === undefined ? {} : { payload: body as object }) });
      return { status: res.statusCode, body: res.body };
    },
  };
  const ctx: FlowContext = { http: requester, merchant: opts.merchant, samples: new LabelledSamples() };
  const capture: Capture = { payments: [] };
  try {
    const [warm, a, b] = opts.users;
    if (!warm || !a || !b) throw new Error('capture needs 3 users');
    await payment(ctx, warm);
    for (const user of [a, b]) {
      const statements: Statement[] = [];
      const startedAt = Date.now();
      recording = statements;
      await payment(ctx, user);
      recording = undefined;
      capture.payments.push({ user, startedAt, statements });
    }
  } finally {
    await app.close();
    await db.destroy();
  }
  return capture;
}

const pad = (k: number) => String(k).padStart(8, '0');

function sameValue(a: unknown, b: unknown): boolean {
  return valueKey(a) === valueKey(b);
}

function valueKey(v: unknown): string {
  if (v instanceof Date) return `d:${v.toISOString()}`;
  if (Buffer.isBuffer(v)) return `b:${v.toString('hex')}`;
  if (typeof v === 'bigint') return `n:${v}`;
  return `j:${JSON.stringify(v)}`;
}

/** A string literal pgbench leaves alone: `:` would start a pgbench variable, so it is escaped. */
function stringLiteral(s: string): string {
  if (!s.includes(':') && !s.includes('\\')) return `'${s.replaceAll("'", "''")}'`;
  return `E'${s.replaceAll('\\', '\\\\').replaceAll("'", "''").replaceAll(':', '\\x3a')}'`;
}

function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return stringLiteral(v.toISOString());
  if (Buffer.isBuffer(v)) return `'\\x${v.toString('hex')}'`;
  if (Array.isArray(v)) return stringLiteral(`{${v.map((e) => `"${String(e).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`);
  if (typeof v === 'string') return stringLiteral(v);
  return stringLiteral(JSON.stringify(v));
}

export interface Script {
  text: string;
  statements: number;
  transactions: number;
  /** How each varying value was replayed, for the report. */
  variables: { constant: number; user: number; unique: number; timestamp: number; firstValue: number };
}

/** The pgbench script of one payment, from two captured payments. */
export function buildScript(capture: Capture, users: number): Script {
  const [a, b] = capture.payments;
  if (!a || !b) throw new Error('two captured payments are needed');
  if (a.statements.length !== b.statements.length) {
    throw new Error(`the two payments issued ${a.statements.length} and ${b.statements.length} statements: not one fixed sequence`);
  }
  const padA = pad(a.user.k);
  const padB = pad(b.user.k);
  const exprs = new Map<string, string>();
  const counts = { constant: 0, user: 0, unique: 0, timestamp: 0, firstValue: 0 };
  let uniques = 0;

  function expression(va: unknown, vb: unknown): string {
    if (sameValue(va, vb)) {
      counts.constant++;
      return literal(va);
    }
    const key = valueKey(va);
    const known = exprs.get(key);
    if (known) return known;
    let expr: string;
    if (va instanceof Date) {
      counts.timestamp++;
      expr = `(now() + interval '${va.getTime() - a!.startedAt} milliseconds')`;
    } else if (typeof va === 'string' && typeof vb === 'string' && va.includes(padA) && va.replaceAll(padA, padB) === vb) {
      counts.user++;
      expr = `(${va
        .split(padA)
        .map((part) => stringLiteral(part))
        .join(" || lpad(:k::text, 8, '0') || ")})`;
    } else if (Buffer.isBuffer(va)) {
      counts.unique++;
      const n = ++uniques;
      expr = `decode(rpad('', ${va.length * 2}, md5(:r::text || '_${n}')), 'hex')`;
    } else if (typeof va === 'string' && !/^[[{]/.test(va)) {
      counts.unique++;
      const n = ++uniques;
      const prefix = /^[a-z]+_/.exec(va)?.[0] ?? 'x_';
      expr = `('${prefix}b' || :r::text || '_${n}')`;
    } else {
      counts.firstValue++;
      expr = literal(va);
    }
    exprs.set(key, expr);
    return expr;
  }

  const lines = [`\\set k random(1, ${users})`, '\\set r random(1, 9000000000000000000)'];
  let transactions = 0;
  // Reads a request runs at once (Promise.all, each on its own connection) are logged in the order
  // they finish: put the second payment's in the first one's order before comparing.
  const bs = [...b.statements];
  a.statements.forEach((sa, i) => {
    if (bs[i]?.sql === sa.sql) return;
    const j = bs.findIndex((sb, k) => k > i && sb.sql === sa.sql);
    if (j > i && !/^\s*(begin|commit)\s*$/i.test(sa.sql)) [bs[i], bs[j]] = [bs[j] as Statement, bs[i] as Statement];
  });
  a.statements.forEach((sa, i) => {
    const sb = bs[i] as Statement;
    if (sa.sql !== sb.sql) throw new Error(`statement ${i} differs between the two payments:\n${sa.sql}\n${sb.sql}`);
    if (/^\s*commit\s*$/i.test(sa.sql)) transactions++;
    const text = sa.sql.replace(/\$(\d+)/g, (_m, n: string) => expression(sa.params[Number(n) - 1], sb.params[Number(n) - 1]));
    lines.push(`${text.replace(/\s+/g, ' ').trim()};`);
  });
  return { text: `${lines.join('\n')}\n`, statements: a.statements.length, transactions, variables: counts };
}

export function pgbenchPath(): string {
  for (const p of ['/usr/bin/pgbench', '/usr/lib/postgresql/15/bin/pgbench', '/usr/local/bin/pgbench']) if (existsSync(p)) return p;
  return 'pgbench';
}

export interface PgbenchResult {
  clients: number;
  protocol: string;
  tps: number;
  latencyAvgMs: number;
  failed: number;
  seconds: number;
}

export async function runPgbench(opts: {
  url: string;
  scriptFile: string;
  clients: number;
  seconds: number;
  protocol: 'prepared' | 'extended' | 'simple';
}): Promise<PgbenchResult> {
  const args = [
    '-n',
    '-M',
    opts.protocol,
    '-c',
    String(opts.clients),
    '-j',
    String(Math.min(2, opts.clients)),
    '-T',
    String(opts.seconds),
    '-f',
    opts.scriptFile,
    opts.url,
  ];
  const { stdout } = await run(pgbenchPath(), args, { timeout: (opts.seconds + 60) * 1000, maxBuffer: 16 * 1024 * 1024 });
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1] ?? /tps = ([\d.]+)/.exec(stdout)?.[1] ?? NaN);
  const latency = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1] ?? NaN);
  const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
  if (!Number.isFinite(tps)) throw new Error(`pgbench printed no tps:\n${stdout}`);
  return { clients: opts.clients, protocol: opts.protocol, tps, latencyAvgMs: latency, failed, seconds: opts.seconds };
}

export function writeScript(file: string, script: Script): void {
  writeFileSync(file, script.text);
}
