/**
 * The driver's CPU per named statement, pg's way (a config object pg copies, row parsers rebuilt
 * for every answer) against the server's (platform/db.ts `runNamed`: a query made from its text,
 * the statement's row parsers reused), alternated in one process on one connection:
 * `npx tsx bench/named-query.ts` (PostgreSQL at DATABASE_URL or the machine's test database).
 */
import pg from 'pg';
import { runNamed, type RowShape } from '../packages/server/src/platform/db.ts';

// Pipeline mode, as the server's pool runs its clients.
const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', pipeline: true } as pg.ClientConfig);
await client.connect();
// A row of twelve columns of the kinds a payment reads (text, bigint, timestamptz, jsonb, boolean).
const text = `select $1::bigint as id, 'm_' || $1 as merchant, 1000::bigint as amount, 10::bigint as fee, 'XAF' as currency,
  'SUCCEEDED' as status, 'desc' as description, now() as created_at, now() as updated_at, now() as captured_at,
  true as live, '{"a":1}'::jsonb as metadata`;
const shapes = new Map<string, RowShape>();
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const N = 4000;
const IN_FLIGHT = 16;
/** CPU µs per statement over N statements, IN_FLIGHT at a time (pipelined, as the pool's clients run). */
async function perStatement(run: (i: number) => Promise<unknown>): Promise<number> {
  const from = cpuUs();
  for (let i = 0; i < N; i += IN_FLIGHT) await Promise.all(Array.from({ length: IN_FLIGHT }, (_, k) => run(i + k)));
  return (cpuUs() - from) / N;
}
const pgWay = (i: number) => client.query({ name: 'bench_config', text, values: [i] });
const ours = (i: number) => runNamed((q) => client.query(q as pg.Query), shapes, 'bench_named', text, [i]);
await perStatement(pgWay);
await perStatement(ours);
const a: number[] = [];
const b: number[] = [];
for (let round = 0; round < 10; round++) {
  a.push(await perStatement(pgWay));
  b.push(await perStatement(ours));
}
const median = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1] as number;
const fmt = (x: number[]) => x.map((v) => v.toFixed(1)).join(' ');
console.log(`pg's config object: ${fmt(a)} µs a statement, median ${median(a).toFixed(1)}`);
console.log(`runNamed:           ${fmt(b)} µs a statement, median ${median(b).toFixed(1)}`);
console.log(`runNamed / pg's, pair by pair: ${a.map((x, i) => ((b[i] as number) / x).toFixed(2)).join(' ')}`);
await client.end();
