/**
 * The read replica test (`npm run test:replica`): the dashboard's heavy reads go to a streaming
 * replica under a payment load, and nothing fails when the replica stops (docs/scaling.md,
 * decision 0091).
 *
 * A primary and an asynchronous streaming replica (PostgreSQL 15, pg_basebackup -R, a replication
 * slot) on free ports in their own data directories; Caisse (`caisse start`, its workers
 * included) with DATABASE_URL on the primary and DATABASE_READ_URL on the replica, under the crash
 * test's full-flow load (scripts/full-load.ts); beside it, the merchant's dashboard read over and
 * over (Home figures, payments list, CSV export, search, customers, balance statement and its
 * CSV). Then the replica is stopped mid-run, and later started again. Checks:
 *
 * - while the replica runs, the dashboard's reads are answered there: Caisse's counter
 *   `caisse_dashboard_reads_total{target="replica"}` grows, its pool shows in the replica's
 *   pg_stat_activity (application_name `caisse-reads`), and the replica's pg_stat_database counts
 *   the rows it returned;
 * - with the replica stopped, every dashboard read still answers 200 (from the primary),
 *   `caisse_replica_up` is 0, the reads are counted to the primary with reason `down`, and the
 *   server logged one line saying so;
 * - no answer of the whole run, API or dashboard, was a 5xx;
 * - started again, the replica is used again; Caisse stops on SIGTERM with exit 0.
 *
 * Prints what it measured. Needs root. Everything it made is removed at the end, on failure and
 * on SIGINT/SIGTERM too. Options (environment): REPLICA_USERS, REPLICA_CONCURRENCY,
 * REPLICA_BEFORE_MS (load with the replica), REPLICA_AFTER_MS (load without it), REPLICA_SEED.
 */
import { performance } from 'node:perf_hooks';
import {
  closeRun,
  configureLoad,
  type Lifecycle,
  loadLoop,
  newOutcomes,
  type Run,
  sleep,
  startProviderSandbox,
  startRun,
  stopLastServer,
  target,
  wholeNumberEnv,
  countAnswers,
} from './full-load.ts';
import { type Cluster, missingPrograms, openWorkspace, query, streamingCopy, type Workspace } from './pg-clusters.ts';
import { freePort, processEnv } from '../test/processes.ts';

const num = wholeNumberEnv;
const USERS = num('REPLICA_USERS', 16);
const CONCURRENCY = num('REPLICA_CONCURRENCY', 3);
const BEFORE_MS = num('REPLICA_BEFORE_MS', 15_000);
const AFTER_MS = num('REPLICA_AFTER_MS', 12_000);
const SEED = num('REPLICA_SEED', Math.floor(Math.random() * 2 ** 31));
const SLOT = 'reads1';
const DATABASE = 'caisse';

const t0 = performance.now();
const log = (line: string) => process.stdout.write(`[replica ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
configureLoad({ seed: SEED, short: true, log });

/** Every request of the run (the load's SDK, the dashboard's reads) and its status. */
/** The uncounted fetch, for the run's own reads. */
const realFetch = globalThis.fetch;
const answers = countAnswers();

/** A primary and an asynchronous streaming replica of it, with the database Caisse uses. */
async function makePair(ws: Workspace): Promise<{ primary: Cluster; replica: Cluster }> {
  const primary = ws.cluster('primary', await freePort());
  primary.start();
  // The dashboard's longer reads are not cancelled by the replay of the primary's vacuum.
  const replica = await streamingCopy(ws, primary, { name: 'replica', slot: SLOT, conf: ['hot_standby_feedback = on'], state: 'streaming' });
  await query(primary.url(), `create database ${DATABASE}`);
  return { primary, replica };
}

/** The value of a metric line of /metrics (0 when absent). */
async function metric(line: RegExp): Promise<number> {
  const body = await (await realFetch(`${target.baseUrl}/metrics`)).text();
  const found = body.split('\n').find((l) => line.test(l));
  return found === undefined ? 0 : Number(found.split(' ').at(-1));
}
const replicaReads = () => metric(/^caisse_dashboard_reads_total\{target="replica"/);
const primaryReadsDown = () => metric(/^caisse_dashboard_reads_total\{target="primary",reason="down"\}/);
const replicaUp = () => metric(/^caisse_replica_up /);

/** The merchant's dashboard, signed in: its heavy reads, one after another, until stopped. */
async function dashboardReader(dashboard: { email: string; password: string }) {
  const res = await realFetch(`${target.baseUrl}/dashboard/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(dashboard),
  });
  if (res.status !== 200) throw new Error(`dashboard sign-in: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
  const pages = [
    '/test/overview?period=today',
    '/test/overview?period=30d',
    '/test/payments',
    '/test/payments.csv',
    '/test/search?q=1000',
    '/test/customers',
    '/test/balance/transactions',
    '/test/balance/transactions.csv',
  ];
  const stats = { reads: 0, failed: [] as string[] };
  const stop = { stopped: false };
  const loop = (async () => {
    for (let i = 0; !stop.stopped; i++) {
      const page = pages[i % pages.length] as string;
      try {
        const r = await fetch(`${target.baseUrl}/dashboard/api${page}`, { headers: { cookie }, signal: AbortSignal.timeout(20_000) });
        await r.arrayBuffer();
        stats.reads += 1;
        if (r.status !== 200) stats.failed.push(`${page} ${r.status}`);
      } catch (err) {
        stats.failed.push(`${page} ${(err as Error).message}`);
      }
      await sleep(50);
    }
  })();
  return { stats, stop: async () => ((stop.stopped = true), await loop) };
}

async function main(): Promise<boolean> {
  const missing = missingPrograms({ bouncer: false });
  if (missing !== undefined) {
    log(`cannot run: ${missing}`);
    return false;
  }
  log(`seed ${SEED}; ${USERS} users, ${CONCURRENCY} concurrent flows; ${BEFORE_MS} ms with the replica, then ${AFTER_MS} ms with it stopped`);
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failures.push(what);
  };
  let ws: Workspace | undefined;
  const run: Run = {};
  const cleanup = async () => {
    await closeRun(run);
    ws?.close();
    ws = undefined;
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      log(`${sig}: cleaning up`);
      process.on('unhandledRejection', () => {});
      void cleanup().finally(() => process.exit(130));
    });
  }
  try {
    ws = openWorkspace('replica');
    const { primary, replica } = await makePair(ws);
    log(`primary :${primary.port}, streaming replica :${replica.port} (slot ${SLOT})`);
    const port = await freePort();
    const { env: sandboxEnv } = await startProviderSandbox(run, port, ws.folder('caisse'));
    const env = processEnv({
      DATABASE_URL: primary.url(DATABASE),
      DATABASE_READ_URL: replica.url(DATABASE),
      CAISSE_DATA_DIR: ws.folder('caisse'),
      ...sandboxEnv,
    });
    const { keys, api, pool } = await startRun(run, { env, port, name: 'Replica', users: USERS });
    const life = run.life as Lifecycle;
    log(`merchant ${keys.merchantId}, ${pool.length} users, Caisse at ${target.baseUrl}`);

    const o = newOutcomes();
    const stop = { stopped: false };
    const loops = Array.from({ length: CONCURRENCY }, () => loadLoop(api, life, pool, o, stop));
    const reader = await dashboardReader(keys.dashboard as { email: string; password: string });
    const statsOf = async () =>
      (await query<{ tup_returned: string }>(replica.url(DATABASE), `select tup_returned::text from pg_stat_database where datname = $1`, [DATABASE]))[0]
        ?.tup_returned ?? '0';
    const returnedBefore = BigInt(await statsOf());
    await sleep(BEFORE_MS / 2);
    const sessions = await query<{ n: string }>(replica.url(), `select count(*)::text as n from pg_stat_activity where application_name = 'caisse-reads'`);
    await sleep(BEFORE_MS / 2);
    const returnedAfter = BigInt(await statsOf());
    const onReplica = await replicaReads();
    const readsBefore = reader.stats.reads;
    check(
      onReplica > 0,
      `dashboard reads answered by the replica (caisse_dashboard_reads_total{target="replica"} = ${onReplica} of ${readsBefore} pages read)`,
    );
    check(
      Number(sessions[0]?.n ?? 0) > 0,
      `Caisse's read pool is connected to the replica (${sessions[0]?.n ?? 0} sessions caisse-reads in its pg_stat_activity)`,
    );
    check(returnedAfter > returnedBefore, `the replica returned rows meanwhile (pg_stat_database.tup_returned +${returnedAfter - returnedBefore})`);
    check(o.paid.size > 0, `payments went on meanwhile (${o.paid.size} wallet payments, ${o.direct.size} direct)`);

    // The replica stops mid-run: dashboard reads must go on, from the primary.
    replica.stop('fast');
    const failedBefore = reader.stats.failed.length;
    log(`replica stopped after ${readsBefore} dashboard pages and ${answers.total} requests`);
    await sleep(AFTER_MS);
    const readsWithout = reader.stats.reads - readsBefore;
    check(
      readsWithout > 0 && reader.stats.failed.length === failedBefore,
      `every dashboard read answered 200 with the replica stopped (${readsWithout} pages)`,
    );
    check((await replicaUp()) === 0, 'caisse_replica_up is 0 with the replica stopped');
    const down = await primaryReadsDown();
    check(down > 0, `reads went to the primary because the replica is down (caisse_dashboard_reads_total{target="primary",reason="down"} = ${down})`);
    const server = life.server;
    const downLines = server?.lines.filter((l) => l.includes('read replica down')) ?? [];
    check(downLines.length >= 1, `the server logged the replica down (${downLines.length} line${downLines.length === 1 ? '' : 's'})`);

    // Back: the replica catches up and serves the dashboard again.
    replica.start();
    const backAt = performance.now();
    let up = 0;
    for (let i = 0; i < 100 && up !== 1; i++) {
      up = await replicaUp();
      if (up !== 1) await sleep(200);
    }
    const before = await replicaReads();
    await sleep(1500);
    const afterBack = await replicaReads();
    check(
      up === 1 && afterBack > before,
      `the replica started again is used again ${((performance.now() - backAt) / 1000).toFixed(1)} s later (${afterBack - before} reads)`,
    );

    stop.stopped = true;
    await Promise.all(loops);
    await reader.stop();
    check(reader.stats.failed.length === 0, `no dashboard read failed (${reader.stats.reads} pages; ${reader.stats.failed.slice(0, 5).join(', ') || 'none'})`);
    const fiveHundreds = [...answers.byStatus].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    check(fiveHundreds === 0, `no answer of the run was a 5xx (${fiveHundreds})`);
    await stopLastServer(life, check);
    const statuses = [...answers.byStatus]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s} × ${n}`)
      .join(', ');
    log(
      `summary: ${answers.total} requests (${statuses}); ${reader.stats.reads} dashboard pages, ${onReplica} reads on the replica while it ran, ${down} on the primary while it was down; ${o.paid.size} wallet payments, ${o.direct.size} direct`,
    );
  } catch (err) {
    failures.push(`the run failed: ${(err as Error).stack ?? String(err)}`);
    log(`FAIL ${(err as Error).stack ?? String(err)}`);
    if (run.life?.server) log(`server output:\n${run.life.server.lines.slice(-40).join('\n')}`);
  } finally {
    await cleanup();
  }
  log(failures.length === 0 ? `PASSED in ${((performance.now() - t0) / 1000).toFixed(0)} s` : `FAILED: ${failures.length} check(s)`);
  return failures.length === 0;
}

process.exitCode = (await main()) ? 0 : 1;
