/**
 * The crash test (`npm run test:crash`; `-- --short` is the form CI runs, under 3 minutes).
 *
 * Caisse runs on a fresh PostgreSQL database as a real child process (`caisse start`, dispatcher
 * and sweeper included) under a load of full payment flows — create intent → initOtp → the code
 * from GET /test/messages → verifyOtp → charge, plus refunds, cancels and declined charges — with
 * a local webhook receiver registered as an endpoint. The server is killed with SIGKILL at
 * random moments (at least 20 times) and restarted on the same port. Clients retry a charge
 * whose answer was lost with the same Idempotency-Key, as the SDKs do. After the last restart the
 * load stops and the dispatcher gets time to deliver what is left; then:
 *
 * - `caisse ledger verify` (the real command) exits 0;
 * - every event in the outbox reached the receiver, with a valid signature (duplicates allowed,
 *   losses not), so every SUCCEEDED intent's payment.completed did;
 * - no intent is PROCESSING, no wallet is negative, each paid intent has exactly one succeeded
 *   charge or mobile-money attempt, and the merchant's balance is what the intents say;
 * - intents paid directly with MTN MoMo (about one flow in eight): each prompt the provider
 *   approved paid its intent once, none it refused moved money, no attempt is left PENDING;
 * - through the aggregators (MTN MoMo payments and payouts through pawaPay, its route in
 *   Cameroon switched on for half of the windows between kills; Orange Money through CinetPay's
 *   page, the route of a merchant in Côte d'Ivoire set by the CLI at the start; attempts whose
 *   route moved on; refunds of some of them): each deposit or payment the aggregator recorded paid its
 *   intent once or moved no money; each refund (pawaPay's refund, a CinetPay transfer) and payout
 *   it completed is in the database once, each it refused gave the money back, none is PENDING;
 * - every 200 the client got from /charge (and every 201 refund, 200 cancel) is in the database;
 * - every charge whose answer was lost got, retried with its Idempotency-Key, a 200 or a 402 (the
 *   stored answer, replayed, when the first try had committed): never a 409
 *   `intent_state_invalid` for a charge that was paid, nor any other answer;
 * - the last server stops on SIGTERM with exit 0.
 *
 * Options (environment): CRASH_DATABASE_URL (else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/test: a database is created beside it and dropped after),
 * CRASH_KILLS, CRASH_MIN_UP_MS, CRASH_MAX_UP_MS, CRASH_USERS, CRASH_CONCURRENCY, CRASH_SEED.
 * Exit 0 when every check passed, 1 otherwise.
 */
import { performance } from 'node:perf_hooks';
import {
  between,
  closeRun,
  configureLoad,
  drainAndCheck,
  type Lifecycle,
  loadLoop,
  newOutcomes,
  rand,
  type Receiver,
  setPawapayRoutes,
  type Run,
  sleep,
  startProviderSandbox,
  startRun,
  stopLastServer,
} from './full-load.ts';
import { createRunDatabase, freePort, processEnv, type RunDatabase, type ServerProc, startServerProcess } from '../test/processes.ts';
import { CINETPAY_CONNECTOR, MTN_MOMO_CONNECTOR, PAWAPAY_CONNECTOR } from '../src/modules/connectors/index.ts';

const short = process.argv.includes('--short');
const num = (name: string, fallback: number) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number`);
  return Number(raw);
};
const KILLS = num('CRASH_KILLS', short ? 20 : 40);
const MIN_UP_MS = num('CRASH_MIN_UP_MS', short ? 300 : 1000);
const MAX_UP_MS = num('CRASH_MAX_UP_MS', short ? 1800 : 8000);
const USERS = num('CRASH_USERS', short ? 60 : 150);
const CONCURRENCY = num('CRASH_CONCURRENCY', short ? 10 : 16);
/** After the last restart: how long the dispatcher may take (leases of killed dispatchers last 70 s). */
const DRAIN_TIMEOUT_MS = num('CRASH_DRAIN_TIMEOUT_MS', 120_000);
const ADMIN_URL = process.env.CRASH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const SEED = num('CRASH_SEED', Math.floor(Math.random() * 2 ** 31));
const t0 = performance.now();
const log = (line: string) => process.stdout.write(`[crash ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

configureLoad({ seed: SEED, short, log });

// ---- the run -------------------------------------------------------------------------------------

async function main(): Promise<boolean> {
  log(
    `seed ${SEED}; ${KILLS} kills, up ${MIN_UP_MS}–${MAX_UP_MS} ms between them, ${USERS} users, ${CONCURRENCY} concurrent flows${short ? ' (short form)' : ''}`,
  );
  let database: RunDatabase | undefined;
  const run: Run = {};
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failures.push(what);
  };
  try {
    database = await createRunDatabase(ADMIN_URL, 'crash');
    const port = await freePort();
    // The providers' sandbox lives in this process: it outlives every kill of the server.
    const { sandbox, env: sandboxEnv } = await startProviderSandbox(run, port);
    const env = processEnv({
      ...database.env,
      CAISSE_WEBHOOK_CONCURRENCY: '16',
      ...sandboxEnv,
    });
    const { keys, api, pool } = await startRun(run, { env, port, name: 'Crash', users: USERS });
    const life = run.life as Lifecycle;
    const receiver = run.receiver as Receiver;
    log(`merchant ${keys.merchantId}, ${pool.length} users with 100 000 XAF, webhook receiver at ${receiver.url}`);

    const o = newOutcomes();
    const stop = { stopped: false };
    const loops = Array.from({ length: CONCURRENCY }, () => loadLoop(api, life, pool, o, stop));

    let restartMs = 0;
    const serverErrors: string[] = [];
    for (let kill = 1; kill <= KILLS; kill++) {
      // The provider misbehaves differently between kills: 500s, lost and doubled callbacks.
      sandbox.of(MTN_MOMO_CONNECTOR).setFaults({ answer500: rand() < 0.15, dropCallbacks: rand() < 0.3, duplicateCallbacks: rand() < 0.3 });
      // The aggregators lose callbacks too: their requests are then read back by the poller.
      sandbox.of(PAWAPAY_CONNECTOR).setFaults({ dropCallbacks: rand() < 0.3 });
      sandbox.of(CINETPAY_CONNECTOR).setFaults({ dropCallbacks: rand() < 0.3 });
      await sleep(between(MIN_UP_MS, MAX_UP_MS));
      const victim = life.server as ServerProc;
      life.markDown();
      victim.kill('SIGKILL');
      const exit = await victim.exited;
      serverErrors.push(...victim.lines.filter((l) => /"level":50/.test(l)));
      if (exit.signal !== 'SIGKILL') failures.push(`server ${victim.pid} had exited by itself (${exit.code ?? exit.signal}) before kill ${kill}`);
      const started = performance.now();
      // MTN MoMo through pawaPay for half of the windows between kills (docs: setPawapayRoutes).
      await setPawapayRoutes(database.url, kill % 4 >= 2);
      life.markUp(await startServerProcess({ env, port }));
      restartMs += performance.now() - started;
      if (kill % 5 === 0 || kill === KILLS) {
        log(`kill ${kill}/${KILLS}: ${o.flows} flows, ${o.paid.size} paid, ${o.abandoned} abandoned, ${receiver.deliveries()} deliveries received`);
      }
    }
    log(`after the last restart: the load stops; charges in doubt are retried with their Idempotency-Key`);
    stop.stopped = true;
    await Promise.all(loops);
    while (o.resolving.size > 0) await Promise.allSettled([...o.resolving]);
    sandbox.of(MTN_MOMO_CONNECTOR).setFaults({ answer500: false, dropCallbacks: false, duplicateCallbacks: false });
    sandbox.of(PAWAPAY_CONNECTOR).setFaults({ dropCallbacks: false });
    sandbox.of(CINETPAY_CONNECTOR).setFaults({ dropCallbacks: false });

    // The dispatcher delivers what is left (deliveries leased by killed processes are due again once their 70 s lease lapses).
    const { lines } = await drainAndCheck(run, o, {
      databaseUrl: database.url,
      env,
      merchantId: keys.merchantId,
      serverErrors,
      check,
      drainTimeoutMs: DRAIN_TIMEOUT_MS,
    });
    await stopLastServer(life, check);
    log([`summary: ${KILLS} SIGKILLs (restart ${(restartMs / KILLS / 1000).toFixed(1)} s on average)`, ...lines].join('\n'));
  } catch (err) {
    failures.push(`the run failed: ${(err as Error).stack ?? String(err)}`);
    log(`FAIL ${(err as Error).stack ?? String(err)}`);
    if (run.life?.server) log(`server output:\n${run.life.server.lines.slice(-40).join('\n')}`);
  } finally {
    await closeRun(run);
    await database?.drop().catch(() => {});
  }
  log(failures.length === 0 ? `PASSED in ${((performance.now() - t0) / 1000).toFixed(0)} s` : `FAILED: ${failures.length} check(s)`);
  return failures.length === 0;
}

process.exitCode = (await main()) ? 0 : 1;
