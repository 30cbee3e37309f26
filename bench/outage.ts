/**
 * The receiver outage: Caisse (`caisse start` on a fresh PostgreSQL database) takes payments at
 * a steady rate while its merchant's webhook receiver goes away, then comes back. For each kind
 * of outage — the port refuses connections (`refuse`), the receiver answers 503 (`503`), it
 * accepts and never answers (`hang`: every attempt waits out the 10 s timeout) — it reports
 * whether the payment API noticed (errors, latency), how many attempts failed, how long after the
 * receiver's return every event was delivered (the retries back off: the first within a minute,
 * then doubling), duplicates, and the server's RSS before, during and after.
 *
 *   node --conditions=source --import tsx bench/outage.ts                  # refuse, 503 and hang, 2 minutes each
 *   OUTAGE_MODES=refuse OUTAGE_SECONDS=30 node --conditions=source --import tsx bench/outage.ts
 *
 * Knobs: OUTAGE_MODES (refuse,503,hang), OUTAGE_SECONDS (120), OUTAGE_BASELINE_SECONDS (20),
 * OUTAGE_RATE (payments started per second, 2), OUTAGE_RECOVERY_TIMEOUT_S (900),
 * BENCH_DATABASE_URL. Writes bench/results/outage.json. Exit 1 when a payment request failed or
 * an event was lost.
 */
import {
  deliveryBacklog,
  envNumber,
  type LoadStats,
  newLoadStats,
  paceLoad,
  percentile,
  type ReceiverMode,
  rssMb,
  say,
  setUpWorld,
  runWithVerdict,
  sleep,
  type World,
  writeResult,
} from './soak.support.ts';

const MODES = (process.env.OUTAGE_MODES || 'refuse,503,hang').split(',').map((m) => m.trim()) as ReceiverMode[];
for (const m of MODES) if (!['refuse', '503', 'hang'].includes(m)) throw new Error(`OUTAGE_MODES: unknown mode ${m} (refuse, 503, hang)`);
const OUTAGE_S = envNumber('OUTAGE_SECONDS', 120);
const BASELINE_S = envNumber('OUTAGE_BASELINE_SECONDS', 20);
const RATE = envNumber('OUTAGE_RATE', 2);
const RECOVERY_TIMEOUT_S = envNumber('OUTAGE_RECOVERY_TIMEOUT_S', 900);
const tag = 'outage';

function errorsOf(stats: LoadStats): number {
  return [...stats.errors.values()].reduce((a, b) => a + b, 0);
}

async function failedAttempts(world: World): Promise<number> {
  return Number((await world.db.query<{ n: string }>('select count(*) as n from webhook_delivery_attempts where not succeeded')).rows[0]?.n);
}

async function main(): Promise<boolean> {
  const totalMinutes = (MODES.length * (BASELINE_S + OUTAGE_S)) / 60;
  // Enough users for the whole run at one code per user per 3 minutes on average.
  const users = Math.ceil(RATE * 180 * 1.2);
  say(
    tag,
    `modes ${MODES.join(', ')}: ${BASELINE_S} s normal then ${OUTAGE_S} s of outage each, at ${RATE} payments/s (${users} users, about ${totalMinutes.toFixed(0)} min plus recoveries)`,
  );
  const world = await setUpWorld(tag, { users });
  const results: Record<string, unknown>[] = [];
  return runWithVerdict(tag, world, async (problems) => {
    for (const mode of MODES) {
      const stats = newLoadStats();
      const load = paceLoad(world.api, world.users, stats, RATE);
      await sleep(BASELINE_S * 1000);
      const baseline = {
        p50: percentile(stats.latenciesMs, 50),
        p99: percentile(stats.latenciesMs, 99),
        errors: errorsOf(stats),
        rssMb: rssMb(world.server.pid) ?? 0,
      };
      const attemptsBefore = await failedAttempts(world);
      const eventsBefore = (await deliveryBacklog(world)).events;

      say(tag, `${mode}: the receiver goes down`);
      await world.receiver.setMode(mode);
      const outageStart = Date.now();
      const latencyMark = stats.latenciesMs.length;
      let rssPeak = 0;
      while (Date.now() - outageStart < OUTAGE_S * 1000) {
        await sleep(5000);
        rssPeak = Math.max(rssPeak, rssMb(world.server.pid) ?? 0);
        const b = await deliveryBacklog(world);
        say(
          tag,
          `${mode}: ${((Date.now() - outageStart) / 1000).toFixed(0)} s down, ${stats.paid} paid, ${errorsOf(stats)} API errors, ${b.missing} events waiting, RSS ${Math.round(rssMb(world.server.pid) ?? 0)} MB`,
        );
      }
      const during = stats.latenciesMs.slice(latencyMark);
      const failed = (await failedAttempts(world)) - attemptsBefore;
      await load.stop();
      const eventsInOutage = (await deliveryBacklog(world)).events - eventsBefore;

      say(tag, `${mode}: the receiver is back; waiting for every event`);
      await world.receiver.setMode('up');
      const back = Date.now();
      let backlog = await deliveryBacklog(world);
      while ((backlog.missing > 0 || backlog.pending > 0) && Date.now() - back < RECOVERY_TIMEOUT_S * 1000) {
        await sleep(1000);
        backlog = await deliveryBacklog(world);
      }
      const recoveredS = (Date.now() - back) / 1000;
      const latencies = [...world.receiver.received.values()].map((r) => (r.firstAt - r.createdAt) / 1000);
      const result = {
        mode,
        outageSeconds: OUTAGE_S,
        eventsDuringOutage: eventsInOutage,
        failedAttempts: failed,
        recoverySeconds: Number(recoveredS.toFixed(1)),
        lost: backlog.missing,
        notSucceeded: backlog.pending,
        maxEventToReceiptSeconds: Number(Math.max(0, ...latencies).toFixed(1)),
        duplicates: [...world.receiver.received.values()].filter((r) => r.count > 1).length,
        api: {
          errors: errorsOf(stats),
          errorKinds: Object.fromEntries(stats.errors),
          baselineP50ms: Math.round(baseline.p50),
          baselineP99ms: Math.round(baseline.p99),
          outageP50ms: Math.round(percentile(during, 50)),
          outageP99ms: Math.round(percentile(during, 99)),
          paid: stats.paid,
        },
        rssMb: { before: Math.round(baseline.rssMb), peakDuringOutage: Math.round(rssPeak), afterRecovery: Math.round(rssMb(world.server.pid) ?? 0) },
      };
      results.push(result);
      say(
        tag,
        `${mode}: ${eventsInOutage} events during ${OUTAGE_S} s, ${failed} failed attempts; all delivered ${recoveredS.toFixed(0)} s after the receiver came back (lost ${backlog.missing}, ${result.duplicates} duplicates so far); API errors ${result.api.errors}, flow p99 ${result.api.baselineP99ms} ms before vs ${result.api.outageP99ms} ms during; RSS ${result.rssMb.before} → ${result.rssMb.peakDuringOutage} → ${result.rssMb.afterRecovery} MB`,
      );
      if (result.api.errors > 0) problems.push(`${mode}: ${result.api.errors} payment requests failed: ${JSON.stringify(result.api.errorKinds)}`);
      if (backlog.missing > 0 || backlog.pending > 0)
        problems.push(`${mode}: ${backlog.missing} events not delivered ${RECOVERY_TIMEOUT_S} s after the receiver came back`);
    }
    if (world.receiver.stats.badSignatures > 0) problems.push(`${world.receiver.stats.badSignatures} bad signatures`);
    writeResult(tag, 'outage', { rate: RATE, baselineSeconds: BASELINE_S, results });
  });
}

process.exitCode = (await main()) ? 0 : 1;
