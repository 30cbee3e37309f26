/**
 * CPU per request of the HTTP layer (issue 23, "a leaner hook chain"): the app built in this
 * process on a fresh PostgreSQL database, called through `app.inject` (no sockets, so the figure
 * is Fastify, the hooks, the route and its statements), `process.cpuUsage()` per request.
 *
 *   flock /tmp/bench.lock npx tsx bench/hooks.ts            # 3 000 requests of each kind, 3 rounds
 *   BENCH_HOOKS_N=5000 BENCH_HOOKS_ROUNDS=5 npx tsx bench/hooks.ts
 *
 * Kinds: `create` (POST /gateway, secret key, Idempotency-Key), `get` (GET /gateway/:id, secret
 * key), `session` (GET /gateway/sessions/:token, API key alone), `refused` (POST /gateway whose
 * body the schema refuses: the hooks and the key check without a statement), `404` (an unknown path).
 * Compare two builds by running this on each, alternated (the machine is shared).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../packages/server/src/app.ts';
import { systemClock } from '../packages/server/src/platform/clock.ts';
import { systemRandom } from '../packages/server/src/platform/crypto.ts';
import { openPostgres } from '../packages/server/src/platform/db.ts';
import type { Deps } from '../packages/server/src/platform/deps.ts';
import { idFactory } from '../packages/server/src/platform/ids.ts';
import { createLogger } from '../packages/server/src/platform/logger.ts';
import { migrate } from '../packages/server/src/platform/migrations.ts';
import { configFor, createDatabase, dropDatabase } from './lib/world.ts';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const N = Number(process.env.BENCH_HOOKS_N ?? 3000);
const ROUNDS = Number(process.env.BENCH_HOOKS_ROUNDS ?? 3);

const name = `caisse_hooks_${Date.now()}_${process.pid}`;
const url = await createDatabase(adminUrl, name);
const database = openPostgres(url, 4);
let app: FastifyInstance | undefined;
try {
  await migrate(database.db);
  const config = configFor('/tmp/caisse-bench-hooks-unused', url);
  const deps: Deps = { config, db: database.db, clock: systemClock, random: systemRandom, ids: idFactory(systemClock) };
  // Logs at info, one line per request as in production, to a file nobody reads.
  const logger = createLogger({ level: 'info', stream: createWriteStream('/dev/null') });
  app = await buildApp({ deps, logger });
  await app.ready();
  const created = await app.services.merchants.createMerchant({ name: 'Hooks bench', email: `hooks-${randomBytes(3).toString('hex')}@example.com` });
  const sk = { 'x-api-key': created.test.apiKey, authorization: `Bearer ${created.test.secretKey}` };
  const pk = { 'x-api-key': created.test.apiKey };
  const body = { amount: '5000', currency: 'XAF' };
  const first = await app.inject({ method: 'POST', url: '/gateway', headers: sk, payload: body });
  const intent = first.json() as { id: string; sessionToken: string };

  const kinds: Record<string, () => InjectOptions> = {
    create: () => ({ method: 'POST', url: '/gateway', headers: { ...sk, 'idempotency-key': randomBytes(12).toString('hex') }, payload: body }),
    get: () => ({ method: 'GET', url: `/gateway/${intent.id}`, headers: sk }),
    session: () => ({ method: 'GET', url: `/gateway/sessions/${intent.sessionToken}`, headers: pk }),
    // Every hook and the key check, then refused by the body's schema: no statement at all.
    refused: () => ({ method: 'POST', url: '/gateway', headers: sk, payload: { amount: 'five', currency: 'XAF' } }),
    '404': () => ({ method: 'GET', url: '/no/such/path', headers: pk }),
  };
  const expected: Record<string, number> = { create: 201, get: 200, session: 200, refused: 400, '404': 404 };

  async function run(kind: string, n: number): Promise<number> {
    const make = kinds[kind] as () => InjectOptions;
    const before = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const res = await app!.inject(make());
      if (res.statusCode !== expected[kind]) throw new Error(`${kind}: ${res.statusCode} ${res.body}`);
    }
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / n;
  }

  for (const kind of Object.keys(kinds)) await run(kind, Math.min(N, 1000)); // warm up
  const figures: Record<string, number[]> = {};
  for (let r = 0; r < ROUNDS; r++) {
    for (const kind of Object.keys(kinds)) (figures[kind] ??= []).push(await run(kind, N));
  }
  for (const [kind, values] of Object.entries(figures)) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(
      `${kind.padEnd(8)} ms CPU/request: ${values.map((v) => v.toFixed(3)).join(' ')}  (median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)})`,
    );
  }
} finally {
  await app?.close();
  await database.close();
  await dropDatabase(adminUrl, name);
}
