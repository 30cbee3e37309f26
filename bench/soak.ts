/**
 * The soak: Caisse (`caisse start` on a fresh PostgreSQL database) under a steady load of full
 * payment flows for 30 minutes, with a webhook endpoint and a `caisse listen` stream (the same
 * client code) receiving every event. Every minute it reports the flows, the errors, the flow
 * latency, the deliveries and the server's RSS; at the end, whether anything failed or was lost
 * and how RSS grew after the warm-up (growth and least-squares slope).
 *
 *   node --conditions=source --import tsx bench/soak.ts                 # 30 minutes
 *   node --conditions=source --import tsx bench/soak.ts --minutes 3     # a short run (also SOAK_MINUTES=3)
 *
 * Knobs: SOAK_MINUTES (30), SOAK_RATE (payments started per second, 2), SOAK_REPORT_S (60, or
 * 15 for runs under 10 minutes), SOAK_MAX_RSS_SLOPE_MB_H (fail above it on runs of 10 minutes or
 * more; 50), BENCH_DATABASE_URL. Writes bench/results/soak-<minutes>min.json. Exit 1 when a
 * request failed, an event was lost, or RSS kept growing.
 */
import { forwardingSecret, listen } from '../packages/server/src/cli/listen.ts';
import {
  argValue,
  deliveryBacklog,
  envNumber,
  newLoadStats,
  paceLoad,
  percentile,
  rssSlopeMbPerHour,
  sampleRss,
  say,
  setUpWorld,
  runWithVerdict,
  sleep,
  startReceiver,
  writeResult,
} from './soak.support.ts';

const MINUTES = Number(argValue('minutes') ?? envNumber('SOAK_MINUTES', 30));
const RATE = envNumber('SOAK_RATE', 2);
const REPORT_S = envNumber('SOAK_REPORT_S', MINUTES < 10 ? 15 : 60);
const MAX_SLOPE = envNumber('SOAK_MAX_RSS_SLOPE_MB_H', 50);
// One code per user per 30 s and 5 per 15 min: enough users that the load never waits for one.
const USERS = Math.ceil(RATE * 180 * 1.2);
const tag = 'soak';

async function main(): Promise<boolean> {
  say(tag, `${MINUTES} min at ${RATE} payments/s (${USERS} users), reports every ${REPORT_S} s`);
  const world = await setUpWorld(tag, { users: USERS });
  return runWithVerdict(tag, world, async (problems) => {
    // `caisse listen` beside the webhook endpoint: its own receiver, its own signing secret.
    const listenReceiver = await startReceiver();
    listenReceiver.setSecret(forwardingSecret(world.keys.secretKey));
    const stopListen = new AbortController();
    let listenReady!: () => void;
    const ready = new Promise<void>((resolve) => (listenReady = resolve));
    const listening = listen({
      baseUrl: world.server.url,
      apiKey: world.keys.apiKey,
      secretKey: world.keys.secretKey,
      forwardTo: listenReceiver.url,
      signal: stopListen.signal,
      say: () => {},
      onReady: () => listenReady(),
    });
    await ready;

    const rss = sampleRss(world.server.pid, 5000);
    const stats = newLoadStats();
    const load = paceLoad(world.api, world.users, stats, RATE);
    const end = Date.now() + MINUTES * 60_000;
    const rows: Record<string, number | string>[] = [];
    let lastFlows = 0;
    while (Date.now() < end) {
      await sleep(Math.min(REPORT_S * 1000, end - Date.now()));
      const backlog = await deliveryBacklog(world);
      const errors = [...stats.errors.values()].reduce((a, b) => a + b, 0);
      const row = {
        minute: Number((MINUTES - (end - Date.now()) / 60_000).toFixed(1)),
        flows: stats.flows,
        perSecond: Number(((stats.flows - lastFlows) / REPORT_S).toFixed(1)),
        paid: stats.paid,
        errors,
        p50ms: Math.round(percentile(stats.latenciesMs.slice(-2000), 50)),
        p99ms: Math.round(percentile(stats.latenciesMs.slice(-2000), 99)),
        rssMb: Math.round(rss.samples.at(-1)?.mb ?? 0),
        events: backlog.events,
        webhookBacklog: backlog.missing,
        listenReceived: listenReceiver.received.size,
      };
      lastFlows = stats.flows;
      rows.push(row);
      say(
        tag,
        Object.entries(row)
          .map(([k, v]) => `${k} ${v}`)
          .join(', '),
      );
    }
    await load.stop();

    // Everything committed gets delivered: wait for the dispatcher and the listen stream to catch up.
    let backlog = await deliveryBacklog(world);
    const drainEnd = Date.now() + 120_000;
    const ids = async () =>
      (await world.db.query<{ id: string }>('select id from events where merchant_id = $1', [world.keys.merchantId])).rows.map((r) => r.id);
    let listenMissing = (await ids()).filter((id) => !listenReceiver.received.has(id)).length;
    while ((backlog.missing > 0 || backlog.pending > 0 || listenMissing > 0) && Date.now() < drainEnd) {
      await sleep(1000);
      backlog = await deliveryBacklog(world);
      listenMissing = (await ids()).filter((id) => !listenReceiver.received.has(id)).length;
    }
    rss.stop();
    stopListen.abort();
    await listening;
    await listenReceiver.close();

    const errors = [...stats.errors.entries()];
    const errorCount = errors.reduce((a, [, n]) => a + n, 0);
    const warmup = Math.min(60, (MINUTES * 60) / 5);
    const after = rss.samples.filter((s) => s.t >= (rss.samples[0]?.t ?? 0) + warmup);
    const median = (xs: number[]) => percentile(xs, 50);
    const rssStart = median(after.slice(0, 5).map((s) => s.mb));
    const rssEnd = median(after.slice(-5).map((s) => s.mb));
    const slope = rssSlopeMbPerHour(after);
    const duplicates = [...world.receiver.received.values()].filter((r) => r.count > 1).length;
    const result = {
      minutes: MINUTES,
      rate: RATE,
      flows: stats.flows,
      paid: stats.paid,
      errors: Object.fromEntries(errors),
      flowsWithoutUser: stats.noUser,
      flowLatencyMs: {
        p50: Math.round(percentile(stats.latenciesMs, 50)),
        p99: Math.round(percentile(stats.latenciesMs, 99)),
        max: Math.round(Math.max(0, ...stats.latenciesMs)),
      },
      events: backlog.events,
      webhook: { lost: backlog.missing, notSucceeded: backlog.pending, duplicates, badSignatures: world.receiver.stats.badSignatures },
      listen: { lost: listenMissing, badSignatures: listenReceiver.stats.badSignatures },
      rssMb: {
        afterWarmup: Math.round(rssStart),
        end: Math.round(rssEnd),
        growth: Math.round(rssEnd - rssStart),
        slopePerHour: Math.round(slope),
        peak: Math.round(Math.max(...rss.samples.map((s) => s.mb))),
      },
      rows,
    };
    if (errorCount > 0) problems.push(`${errorCount} failed requests: ${errors.map(([k, n]) => `${k} × ${n}`).join('; ')}`);
    if (backlog.missing > 0 || backlog.pending > 0)
      problems.push(`${backlog.missing} events never reached the webhook receiver (${backlog.pending} deliveries not succeeded)`);
    if (listenMissing > 0) problems.push(`${listenMissing} events never reached caisse listen`);
    if (world.receiver.stats.badSignatures + listenReceiver.stats.badSignatures > 0) problems.push('bad signatures');
    if (MINUTES >= 10 && slope > MAX_SLOPE) problems.push(`RSS grew ${slope.toFixed(0)} MB/h after the warm-up (limit ${MAX_SLOPE})`);

    say(
      tag,
      [
        `${stats.flows} payments started, ${stats.paid} paid, ${errorCount} errors, ${stats.noUser} skipped for want of a user; latency p50 ${result.flowLatencyMs.p50} ms, p99 ${result.flowLatencyMs.p99} ms`,
        `${backlog.events} events: webhook lost ${backlog.missing} (duplicates ${duplicates}), listen lost ${listenMissing}`,
        `server RSS: ${result.rssMb.afterWarmup} MB after warm-up → ${result.rssMb.end} MB at the end (${result.rssMb.growth >= 0 ? '+' : ''}${result.rssMb.growth} MB, slope ${result.rssMb.slopePerHour} MB/h, peak ${result.rssMb.peak} MB)${MINUTES < 10 ? ' — too short a run to judge growth' : ''}`,
      ].join('\n  '),
    );
    writeResult(tag, `soak-${MINUTES}min`, result);
  });
}

process.exitCode = (await main()) ? 0 : 1;
