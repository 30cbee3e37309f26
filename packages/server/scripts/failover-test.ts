/**
 * The failover test (`npm run test:failover`): the database machine dies under load and nothing
 * acknowledged is lost (docs/operations.md, "Failover").
 *
 * A primary and a synchronous standby (PostgreSQL 15, `synchronous_standby_names` naming it,
 * `synchronous_commit = on`, a replication slot) on free ports in their own data directories,
 * PgBouncer in front; Caisse (`caisse start`, its workers included) on PgBouncer under the crash
 * test's full-flow load (scripts/full-load.ts: wallet payments, direct MTN MoMo payments through the
 * in-process sandbox, top-ups, payouts, a webhook receiver). Mid-load the primary and its backends
 * are killed with SIGKILL; after a detection delay the standby is promoted (`pg_ctl promote`) and
 * PgBouncer is pointed at it (its configuration rewritten, then RELOAD). Caisse is not restarted.
 * Clients retry 503 `unavailable` answers after Retry-After with the same Idempotency-Key. Then:
 *
 * - every request answered 2xx is on the new primary (lost = 0), no payment was charged twice,
 *   `caisse ledger verify` passes, every event was delivered (the crash test's checks);
 * - no answer was a 500: only 503 `unavailable`, while no primary answered;
 * - /readyz said not ready while the primary was gone, and ready again after;
 * - a `caisse listen` stream open across the failover forwarded every event;
 * - Caisse stops on SIGTERM with exit 0.
 *
 * Prints requests answered, 503s, seconds without a primary and lost. Needs root. Everything it
 * made is removed at the end, on failure and on SIGINT/SIGTERM too.
 *
 * Options (environment): FAILOVER_USERS, FAILOVER_CONCURRENCY, FAILOVER_BEFORE_MS (load before
 * the kill), FAILOVER_DETECT_MS (the primary dead before the promotion starts), FAILOVER_AFTER_MS
 * (load after the promotion), FAILOVER_SEED.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  closeRun,
  configureLoad,
  drainAndCheck,
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
import { asPostgres, type Cluster, missingPrograms, openWorkspace, processTree, query, startBouncer, streamingCopy, type Workspace } from './pg-clusters.ts';
import { freePort, type Proc, processEnv, spawnCaisse } from '../test/processes.ts';

const num = wholeNumberEnv;
const USERS = num('FAILOVER_USERS', 70);
const CONCURRENCY = num('FAILOVER_CONCURRENCY', 4);
const BEFORE_MS = num('FAILOVER_BEFORE_MS', 8_000);
const DETECT_MS = num('FAILOVER_DETECT_MS', 2_000);
const AFTER_MS = num('FAILOVER_AFTER_MS', 30_000);
const SEED = num('FAILOVER_SEED', Math.floor(Math.random() * 2 ** 31));
const STANDBY = 'standby1';
const DATABASE = 'caisse';

const t0 = performance.now();
const log = (line: string) => process.stdout.write(`[failover ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
configureLoad({ seed: SEED, short: true, log });

/** Every request the load sent and the answers it got, by status (the SDK and the raw calls share the global fetch). */
/** The uncounted fetch, for the run's own reads. */
const realFetch = globalThis.fetch;
const answers = countAnswers();

/** Primary and synchronous standby: the recipe of docs/operations.md. */
async function makePair(ws: Workspace): Promise<{ primary: Cluster; standby: Cluster }> {
  const primary = ws.cluster('primary', await freePort());
  primary.conf([`synchronous_standby_names = '${STANDBY}'`, 'synchronous_commit = on']);
  primary.start();
  // Once promoted it has no standby of its own: commits must not wait for one (docs/operations.md).
  const standby = await streamingCopy(ws, primary, { name: 'standby', slot: STANDBY, conf: ["synchronous_standby_names = ''"], state: 'sync' });
  await query(primary.url(), `create database ${DATABASE}`);
  return { primary, standby };
}

/** Where `caisse listen` forwards: the event ids it got. */
async function startListenReceiver() {
  const ids = new Set<string>();
  const server = createServer((req, res) => {
    ids.add(String(req.headers['webhook-id']));
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    ids,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function readyz(baseUrl: string): Promise<number> {
  try {
    return (await realFetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(15_000) })).status;
  } catch {
    return 0;
  }
}

async function main(): Promise<boolean> {
  const missing = missingPrograms({ bouncer: true });
  if (missing !== undefined) {
    log(`cannot run: ${missing}`);
    return false;
  }
  log(
    `seed ${SEED}; ${USERS} users, ${CONCURRENCY} concurrent flows; load ${BEFORE_MS} ms, primary killed, promotion after ${DETECT_MS} ms, load ${AFTER_MS} ms more`,
  );
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failures.push(what);
  };
  let ws: Workspace | undefined;
  const children: ChildProcess[] = [];
  const run: Run = {};
  let listener: Proc | undefined;
  let listenReceiver: Awaited<ReturnType<typeof startListenReceiver>> | undefined;
  const cleanup = async () => {
    listener?.kill('SIGKILL');
    await listener?.exited;
    await listenReceiver?.close();
    await closeRun(run);
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGTERM');
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
    ws = openWorkspace('failover');
    const { primary, standby } = await makePair(ws);
    const bouncer = await startBouncer(ws, {
      port: await freePort(),
      serverPort: primary.port,
      database: DATABASE,
      spawn: (cmd, args, out) => {
        const fd = openSync(out, 'a');
        const child = spawn(cmd, args, { stdio: ['ignore', fd, fd] });
        // A program that cannot start says so in the run's failures (startBouncer then times out), never as an unhandled error.
        child.on('error', (err) => log(`FAIL ${cmd} did not start: ${err.message}`));
        children.push(child);
      },
    });
    log(`primary :${primary.port}, synchronous standby :${standby.port} (slot ${STANDBY}), PgBouncer ${bouncer.url}`);

    const port = await freePort();
    const { env: sandboxEnv } = await startProviderSandbox(run, port, ws.folder('caisse'));
    const env = processEnv({
      DATABASE_URL: bouncer.url,
      DATABASE_LISTEN_URL: bouncer.sessionUrl,
      // PgBouncer 1.18 in transaction mode keeps no prepared statement across transactions.
      DB_PREPARED_STATEMENTS: 'false',
      CAISSE_DATA_DIR: ws.folder('caisse'),
      CAISSE_WEBHOOK_CONCURRENCY: '16',
      ...sandboxEnv,
    });
    const { keys, api, pool } = await startRun(run, { env, port, name: 'Failover', users: USERS });
    const life = run.life as Lifecycle;
    log(`merchant ${keys.merchantId}, ${pool.length} users, Caisse at ${target.baseUrl}`);

    // A `caisse listen` stream forwarding every event, open across the failover.
    listenReceiver = await startListenReceiver();
    listener = spawnCaisse(['listen', '--forward-to', listenReceiver.url], {
      ...env,
      CAISSE_API_KEY: keys.apiKey,
      CAISSE_SECRET_KEY: keys.secretKey,
      CAISSE_BASE_URL: target.baseUrl,
    });
    await listener.waitForLine(/^Ready!/, 60_000);

    const o = newOutcomes();
    const stop = { stopped: false };
    const loops = Array.from({ length: CONCURRENCY }, () => loadLoop(api, life, pool, o, stop));
    await sleep(BEFORE_MS);
    const acknowledged = () => o.paid.size + o.direct.size + o.topups.size + o.payouts.size + o.refunded.size + o.canceled.size;
    const before = { paid: o.paid.size, acknowledged: acknowledged(), requests: answers.total };

    // The database machine dies: the postmaster and every backend at once.
    const victims = processTree(primary.pid() as number);
    for (const pid of victims) process.kill(pid, 'SIGKILL');
    const killedAt = performance.now();
    log(`primary killed (SIGKILL to ${victims.length} processes) after ${before.requests} requests, ${before.paid} payments`);
    await sleep(DETECT_MS / 2);
    const readyWhileDown = await readyz(target.baseUrl);
    await sleep(DETECT_MS / 2);
    asPostgres('pg_ctl', ['-D', standby.dir, '-w', 'promote']);
    await bouncer.pointAt(standby.port);
    const primaryBackAt = performance.now();
    const withoutPrimary = (primaryBackAt - killedAt) / 1000;
    log(`standby promoted and PgBouncer reloaded: ${withoutPrimary.toFixed(1)} s without a primary`);
    let readyAfter = 0;
    for (let i = 0; i < 50 && readyAfter !== 200; i++) {
      readyAfter = await readyz(target.baseUrl);
      if (readyAfter !== 200) await sleep(200);
    }
    const readySeconds = (performance.now() - primaryBackAt) / 1000;
    await sleep(AFTER_MS);
    log(`the load stops: ${answers.total} requests answered; charges in doubt are retried with their Idempotency-Key`);
    stop.stopped = true;
    await Promise.all(loops);
    while (o.resolving.size > 0) await Promise.allSettled([...o.resolving]);

    check(readyWhileDown === 503, `/readyz answered 503 while no primary answered (${readyWhileDown})`);
    check(readyAfter === 200, `/readyz answered 200 again ${readySeconds.toFixed(1)} s after the promotion (${readyAfter})`);
    check(
      o.paid.size > before.paid && acknowledged() > before.acknowledged,
      `payments went on after the failover (wallet payments ${before.paid} before, ${o.paid.size} in all; everything acknowledged ${before.acknowledged} before, ${acknowledged()} in all)`,
    );
    const serverErrors: string[] = [];
    const { lines, lost } = await drainAndCheck(run, o, {
      databaseUrl: standby.url(DATABASE),
      env,
      merchantId: keys.merchantId,
      serverErrors,
      check,
      drainTimeoutMs: 120_000,
    });
    const eventIds = (await query<{ id: string }>(standby.url(DATABASE), `select id from events where merchant_id = $1`, [keys.merchantId])).map((e) => e.id);
    const notStreamed = () => eventIds.filter((id) => !listenReceiver?.ids.has(id));
    for (let i = 0; i < 150 && notStreamed().length > 0; i++) await sleep(200);
    check(
      notStreamed().length === 0,
      `the caisse listen stream, open across the failover, forwarded every one of the ${eventIds.length} events (${notStreamed().length} missing)`,
    );
    const fiveHundreds = [...answers.byStatus].filter(([s]) => s >= 500 && s !== 503).reduce((n, [, c]) => n + c, 0);
    check(fiveHundreds === 0, `no answer was a 5xx other than 503 (${fiveHundreds})`);
    await stopLastServer(life, check);
    const statuses = [...answers.byStatus]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s} × ${n}`)
      .join(', ');
    log(
      [
        `summary: ${answers.total} requests answered (${statuses}); ${answers.byStatus.get(503) ?? 0} answers 503; ${withoutPrimary.toFixed(1)} s without a primary; ready again ${readySeconds.toFixed(1)} s after; lost = ${lost}`,
        ...lines,
      ].join('\n'),
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
