/**
 * `npm run bench`: Caisse against the machine's limits, in one run (see bench/README.md).
 *
 * Every process it starts listens on 127.0.0.1 only; every load phase is bounded in time and
 * stops by itself; the fresh PostgreSQL database it creates is dropped at the end.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { createIntent, type FlowContext, payment, STEPS } from './lib/flow.ts';
import { monotonicMicros, readProfile, recording, type SelfTimes, selfTimes, top, type Window } from './lib/profile.ts';
import { closedLoop, Http, openLoop, type Requester, Rotate, type RunResult, sleep, withTimeout } from './lib/load.ts';
import { type HostsWorld, openHosts } from './lib/hosts.ts';
import { describeMachine, loadAverage, type Machine } from './lib/machine.ts';
import { addH, type CpuUse, cpuBetween, cpuSnapshot, inH, rssMbOf } from './lib/cpu.ts';
import { CAISSE_BIN, freePort, type MemoryReport, npmStartNodeArgs, REPO, startCaisse, startProcess, type Started } from './lib/processes.ts';
import { startCountingRelay, topStatements } from './lib/pgcount.ts';
import { benchProvider, callbacksInLog, insertWaitingAttempts, type MomoContext, momoPayment } from './lib/momo.ts';
import { callbackSigner } from '../packages/server/src/modules/connectors/connectors.references.ts';
import { buildScript, capturePayments, type PgbenchResult, runPgbench, writeScript } from './lib/replay.ts';
import { type Comparison, compare, readBaseline } from './lib/compare.ts';
import { cpuLine, markdownReport } from './lib/report.ts';
import { LabelledSamples, round, Samples, type Summary } from './lib/stats.ts';
import { BENCH_DASHBOARD, BENCH_MASTER_KEY, configFor, createDatabase, dropDatabase, type Merchant, UserQueue, World } from './lib/world.ts';

// ---- configuration ------------------------------------------------------------------------------

const env = process.env;
const QUICK = env.BENCH_QUICK === '1';
const int = (name: string, fallback: number) => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number`);
  return Number(raw);
};
const ALL_PHASES = ['hello', 'flow', 'create', 'pgbench', 'webhooks', 'bigtable', 'cluster', 'pglite', 'momo', 'profile', 'hosts'] as const;
type Phase = (typeof ALL_PHASES)[number];
/** `npm run bench -- --profile`: only the CPU profile of the flow (and the hello world that gives H). */
const PROFILE = process.argv.includes('--profile');
/** `profile` runs alone; `hosts` needs root (network namespaces) and PgBouncer: both asked for by name only. */
const DEFAULT_PHASES: Phase[] = PROFILE ? ['hello', 'profile'] : ALL_PHASES.filter((p) => p !== 'profile' && p !== 'hosts');
/** `npm run bench -- --phases hello,flow` (or `--phases=hello,flow`): the same as BENCH_PHASES, which it overrides. */
function phasesArgument(argv: readonly string[]): string | undefined {
  const i = argv.findIndex((a) => a === '--phases' || a.startsWith('--phases='));
  if (i < 0) return undefined;
  const arg = argv[i] as string;
  const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1];
  if (value === undefined || value === '' || value.startsWith('--')) throw new Error('--phases needs a comma-separated list, e.g. --phases hello,flow');
  return value;
}
const PHASES = phasesArgument(process.argv) ?? env.BENCH_PHASES;

const cfg = {
  adminUrl: env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  quick: QUICK,
  durationS: int('BENCH_DURATION_S', QUICK ? 5 : 20),
  warmupS: int('BENCH_WARMUP_S', QUICK ? 2 : 5),
  concurrency: int('BENCH_CONCURRENCY', 32),
  /** The closed loops of the flow phase; its peak is the best of them. */
  concurrencies: (env.BENCH_FLOW_CONCURRENCIES || (QUICK ? '32' : '16,32,64')).split(',').map((c) => Number(c)),
  intents: int('BENCH_INTENTS', QUICK ? 200_000 : 10_000_000),
  bulkTimeoutS: int('BENCH_BULK_TIMEOUT_S', 1800),
  webhookBacklog: int('BENCH_WEBHOOK_BACKLOG', QUICK ? 3000 : 20_000),
  /** Direct mobile-money payments started per second in the momo phase (each waits about a second for the sandbox's approval). */
  momoRate: int('BENCH_MOMO_RATE', 20),
  /** Attempts left waiting on phones while the momo phase measures the idle server. */
  waitingAttempts: int('BENCH_WAITING_ATTEMPTS', 10_000),
  /** Provider callbacks per second sent at those waiting attempts (the goal's rate). */
  callbackRate: int('BENCH_CALLBACK_RATE', 2000),
  apiProcesses: int('BENCH_API_PROCESSES', availableParallelism()),
  poolSize: env.BENCH_POOL_SIZE ? int('BENCH_POOL_SIZE', 10) : undefined,
  /** The highest payment rate the bench prepares users for (each user pays once: OTP send limits). */
  maxRate: int('BENCH_MAX_RATE', 1500),
  logLevel: env.BENCH_LOG_LEVEL || 'info',
  label: env.BENCH_LABEL || (PROFILE ? 'profile' : QUICK ? 'quick' : 'full'),
  phases: (PHASES ? PHASES.split(',').map((p) => p.trim()) : DEFAULT_PHASES) as Phase[],
  keepDb: env.BENCH_KEEP_DB === '1',
  keepWork: env.BENCH_KEEP_WORK === '1',
  /** Options for node in the Caisse processes (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile). */
  serverNodeArgs: env.BENCH_SERVER_NODE_ARGS ? env.BENCH_SERVER_NODE_ARGS.split(' ') : undefined,
  /** More environment for the Caisse processes, `NAME=value` separated by spaces (e.g. `CAISSE_PGLITE_THREAD=false`). */
  serverEnv: Object.fromEntries(
    (env.BENCH_SERVER_ENV ?? '')
      .split(' ')
      .filter((kv) => kv.includes('='))
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  ),
};
for (const p of cfg.phases) if (!ALL_PHASES.includes(p)) throw new Error(`unknown phase ${p}; known: ${ALL_PHASES.join(', ')}`);
if (!/^postgres(ql)?:\/\/[^/]*@?(127\.0\.0\.1|localhost)(:\d+)?\//.test(cfg.adminUrl)) throw new Error('BENCH_DATABASE_URL must point at 127.0.0.1');

const work = mkdtempSync(join(tmpdir(), 'caisse-bench-'));
const say = (line: string) => process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)} load ${loadAverage()[0]}] ${line}\n`);

// ---- results ------------------------------------------------------------------------------------

export interface FlowRun {
  concurrency?: number;
  rate?: number;
  paymentsPerSecond: number;
  requestsPerSecond: number;
  completed: number;
  errors: number;
  errorSamples: string[];
  dropped?: number;
  seconds: number;
  latency: Record<string, Summary>;
  loadAverage: number[];
  /** CPU ms per payment of the server, PostgreSQL and the load generator, and how busy the machine was. */
  cpu?: CpuUse;
}

export interface Results {
  label: string;
  startedAt: string;
  finishedAt?: string;
  config: typeof cfg;
  machine?: Machine;
  phases: Record<string, unknown>;
  memory: Record<string, MemoryReport>;
  goals: { goal: string; target: string; measured: string; met: boolean | null }[];
  notes: string[];
  /** Every headline figure beside the previous reference run's (BENCH_BASELINE, default full). */
  comparison?: Comparison;
  /**
   * H, the machine unit: the server CPU (ms, from /proc) of one Fastify hello-world request, measured
   * in this run with the same load client. Every CPU figure is also given in H (`perUnitH`), which
   * drifts far less than milliseconds on a shared machine.
   */
  H?: { ms: number; requests: number; loadGenerator: number };
}

const results: Results = { label: cfg.label, startedAt: new Date().toISOString(), config: cfg, phases: {}, memory: {}, goals: [], notes: [] };

function flowRun(r: RunResult, samples: LabelledSamples, extra: { concurrency?: number; rate?: number }): FlowRun {
  const seconds = r.elapsedMs / 1000;
  const requests = [...samples.byLabel.values()].reduce((n, s) => n + s.count, 0);
  return {
    ...extra,
    paymentsPerSecond: round(r.completed / seconds, 1),
    requestsPerSecond: round(requests / seconds, 1),
    completed: r.completed,
    errors: r.errors,
    errorSamples: r.errorSamples,
    ...(r.dropped !== undefined ? { dropped: r.dropped } : {}),
    seconds: round(seconds, 1),
    latency: samples.summaries(),
    loadAverage: loadAverage(),
  };
}

// ---- the world ----------------------------------------------------------------------------------

const dbName = `caisse_bench_${Date.now()}_${process.pid}`;
let databaseUrl = '';
let world: World;
let merchant: Merchant;
const children = new Set<Started>();
const dataDir = join(work, 'data');

async function caisse(opts: {
  apiProcesses?: number;
  name: string;
  pglite?: string;
  nodeArgs?: string[];
  env?: Record<string, string>;
  databaseUrl?: string;
}): Promise<Started> {
  const started = await startCaisse({
    databaseUrl: opts.pglite ? undefined : (opts.databaseUrl ?? databaseUrl),
    dataDir: opts.pglite ?? dataDir,
    masterKey: BENCH_MASTER_KEY,
    logFile: join(work, `${opts.name}.log`),
    poolSize: cfg.poolSize,
    apiProcesses: opts.apiProcesses,
    logLevel: cfg.logLevel,
    nodeArgs: opts.nodeArgs ?? cfg.serverNodeArgs,
    extraEnv: { ...opts.env, ...cfg.serverEnv },
  });
  children.add(started);
  return started;
}

/** The server's own view of its memory (prom-client's default metrics), just before it stops. */
async function heapOf(s: Started): Promise<Record<string, number>> {
  const http = new Http(s.origin, 1);
  try {
    const res = await http.request('GET', '/metrics', {});
    const mb = (name: string) => Math.round(Number(new RegExp(`^caisse_${name} (\\S+)$`, 'm').exec(res.body)?.[1] ?? Number.NaN) / 2 ** 20);
    return { heapUsedMb: mb('nodejs_heap_size_used_bytes'), heapTotalMb: mb('nodejs_heap_size_total_bytes'), externalMb: mb('nodejs_external_memory_bytes') };
  } catch {
    return {};
  } finally {
    await http.close();
  }
}

async function stop(s: Started, name: string): Promise<MemoryReport> {
  children.delete(s);
  const heap = await heapOf(s);
  const report = { ...(await s.stop()), ...heap };
  results.memory[name] = report;
  return report;
}

/** Users for `payments` payments, with fresh access tokens. */
async function users(payments: number): Promise<UserQueue> {
  return new UserQueue(await world.takeUsers(Math.ceil(payments)));
}

/** A closed loop of whole payments; `server`: whose CPU is the server's (several: the hosts phase). */
async function flowClosed(http: Requester, seconds: number, concurrency: number, server?: Started | Started[]): Promise<FlowRun> {
  const queue = new UserQueue(await world.takeUsers(Math.ceil(cfg.maxRate * seconds)));
  const samples = new LabelledSamples();
  const ctx: FlowContext = { http, merchant, samples };
  const pids = server === undefined ? undefined : [server].flat().map((s) => s.child.pid as number);
  const before = cpuSnapshot(pids);
  const r = await closedLoop({ concurrency, durationMs: seconds * 1000, task: () => payment(ctx, queue.next()) });
  const run = flowRun(r, samples, { concurrency });
  return { ...run, cpu: cpuBetween(before, cpuSnapshot(pids), run.completed) };
}

/** An open loop of whole payments at `rate` per second. */
async function flowOpen(http: Http, seconds: number, rate: number): Promise<FlowRun> {
  const queue = await users(rate * seconds + 10);
  const samples = new LabelledSamples();
  const ctx: FlowContext = { http, merchant, samples };
  const r = await openLoop({ rate, durationMs: seconds * 1000, task: (at) => payment(ctx, queue.next(), at) });
  return flowRun(r, samples, { rate: round(rate, 1) });
}

// ---- phases -------------------------------------------------------------------------------------

async function phaseHello() {
  say('hello: Fastify hello world (the HTTP ceiling)');
  const port = await freePort();
  const hello = await startProcess({
    name: 'hello',
    args: ['--import', 'tsx', join(REPO, 'bench', 'hello.ts')],
    env: { PORT: String(port) },
    port,
    readyPath: '/healthz',
    logFile: join(work, 'hello.log'),
  });
  children.add(hello);
  const http = new Http(hello.origin, cfg.concurrency);
  const get = (samples: Samples) => async () => {
    const t0 = performance.now();
    const res = await http.request('GET', '/', {});
    samples.add(performance.now() - t0);
    if (res.status !== 200) throw new Error(`hello: HTTP ${res.status}`);
  };
  await closedLoop({ concurrency: cfg.concurrency, durationMs: cfg.warmupS * 1000, task: get(new Samples()) });
  const samples = new Samples();
  // The hello world's own CPU per request, from /proc as every other phase's: the unit H.
  const before = cpuSnapshot(hello.child.pid);
  const r = await closedLoop({ concurrency: cfg.concurrency, durationMs: cfg.durationS * 1000, task: get(samples) });
  const cpu = cpuBetween(before, cpuSnapshot(hello.child.pid), r.completed, 4);
  await http.close();
  const memory = await stop(hello, 'hello');
  results.phases.hello = {
    concurrency: cfg.concurrency,
    requestsPerSecond: round(r.completed / (r.elapsedMs / 1000), 0),
    completed: r.completed,
    errors: r.errors,
    latency: samples.summary(),
    cpu,
    memory,
    loadAverage: loadAverage(),
  };
  if (cpu.perUnitMs.server > 0) results.H = { ms: cpu.perUnitMs.server, requests: r.completed, loadGenerator: cpu.perUnitMs.loadGenerator };
  say(`hello: ${JSON.stringify(results.phases.hello)}; H = ${results.H?.ms ?? '?'} ms of server CPU per request`);
}

async function phaseFlow() {
  say('flow: the full payment flow on PostgreSQL, closed loop, then an open loop at 70 % of that peak');
  const server = await caisse({ name: 'flow' });
  const http = new Http(server.origin, Math.max(...cfg.concurrencies, 64));
  await flowClosed(http, cfg.warmupS, cfg.concurrency);
  // The peak: the best of the closed loops (as the ceiling is pgbench's best client count).
  const runs: FlowRun[] = [];
  for (const concurrency of cfg.concurrencies) {
    const run = await flowClosed(http, cfg.durationS, concurrency, server);
    say(
      `flow, ${concurrency} virtual users: ${run.paymentsPerSecond} payments/s, p99 all ${run.latency.all?.p99} ms, errors ${run.errors} ${run.errorSamples.join(' | ')}; CPU ms per payment ${JSON.stringify(run.cpu)}`,
    );
    runs.push(run);
  }
  const peak = runs.reduce((a, b) => (b.paymentsPerSecond > a.paymentsPerSecond ? b : a));
  say(`flow peak: ${peak.paymentsPerSecond} payments/s at ${peak.concurrency} virtual users`);
  const rate = Math.max(1, peak.paymentsPerSecond * 0.7);
  const at70 = await flowOpen(http, cfg.durationS, rate);
  say(`flow at 70 %: ${at70.paymentsPerSecond} payments/s, p50 ${at70.latency.all?.p50} p99 ${at70.latency.all?.p99} ms, dropped ${at70.dropped}`);
  await http.close();
  const memory = await stop(server, 'flow');
  results.phases.flow = {
    peak,
    at70,
    closedLoops: runs.map((r) => ({ concurrency: r.concurrency, paymentsPerSecond: r.paymentsPerSecond, p99: r.latency.all?.p99, errors: r.errors })),
    memory,
  };
}

async function phaseCreate() {
  say('create: POST /gateway alone, closed loop');
  const server = await caisse({ name: 'create' });
  const http = new Http(server.origin, cfg.concurrency);
  const run = async (seconds: number) => {
    const samples = new LabelledSamples();
    const ctx: FlowContext = { http, merchant, samples };
    const r = await closedLoop({ concurrency: cfg.concurrency, durationMs: seconds * 1000, task: async () => void (await createIntent(ctx)) });
    return flowRun(r, samples, { concurrency: cfg.concurrency });
  };
  await run(cfg.warmupS);
  const measured = await run(cfg.durationS);
  await http.close();
  const memory = await stop(server, 'create');
  results.phases.create = {
    requestsPerSecond: measured.paymentsPerSecond,
    errors: measured.errors,
    errorSamples: measured.errorSamples,
    latency: measured.latency.create,
    memory,
    loadAverage: measured.loadAverage,
  };
  say(`create: ${measured.paymentsPerSecond} intents/s, p50 ${measured.latency.create?.p50} p99 ${measured.latency.create?.p99} ms`);
}

async function phasePgbench() {
  say('pgbench: capture the statements of one payment, replay them with pgbench (the ceiling)');
  const capture = await capturePayments({ databaseUrl, dataDir, merchant, users: await world.takeUsers(3) });
  const script = buildScript(capture, world.seeded);
  const scriptFile = join(work, 'payment.pgbench.sql');
  writeScript(scriptFile, script);
  writeFileSync(join(REPO, 'bench', 'results', `${cfg.label}.payment.pgbench.sql`), script.text);
  const seconds = Math.max(3, Math.round(cfg.durationS / 2));
  const runs: PgbenchResult[] = [];
  const cpu: Record<number, CpuUse> = {};
  for (const clients of [8, 16, 32]) {
    const before = cpuSnapshot(undefined);
    const r = await runPgbench({ url: databaseUrl, scriptFile, clients, seconds, protocol: 'prepared' });
    // pgbench is this process's child: its CPU is counted as the load generator's once it exits.
    cpu[clients] = cpuBetween(before, cpuSnapshot(undefined), r.tps * seconds);
    say(
      `pgbench -M prepared -c ${clients}: ${r.tps} payments/s, ${r.latencyAvgMs} ms avg, failed ${r.failed}; CPU ms per payment ${JSON.stringify(cpu[clients])}`,
    );
    runs.push(r);
  }
  const best = runs.reduce((a, b) => (b.tps > a.tps ? b : a));
  const extended = await runPgbench({ url: databaseUrl, scriptFile, clients: best.clients, seconds, protocol: 'extended' });
  say(`pgbench -M extended -c ${best.clients}: ${extended.tps} payments/s`);
  results.phases.pgbench = {
    statementsPerPayment: script.statements,
    transactionsPerPayment: script.transactions,
    variables: script.variables,
    runs: [...runs, extended],
    ceiling: best.tps,
    ceilingClients: best.clients,
    ceilingCpu: cpu[best.clients],
    loadAverage: loadAverage(),
  };
}

/** The webhook receiver, in its own process. */
async function startReceiver(): Promise<{ child: ChildProcess; port: number; take(): Promise<Receipt[]> }> {
  const child = fork(join(REPO, 'bench', 'receiver.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await withTimeout(
    new Promise<number>((resolve) => child.once('message', (m: { kind: string; port: number }) => resolve(m.port))),
    30_000,
    'webhook receiver start',
  );
  return {
    child,
    port,
    take: () =>
      withTimeout(
        new Promise<Receipt[]>((resolve) => {
          child.once('message', (m: { receipts: Receipt[] }) => resolve(m.receipts));
          child.send({ kind: 'take' });
        }),
        30_000,
        'webhook receipts',
      ),
  };
}

interface Receipt {
  id: string;
  type: string;
  createdAt: number;
  receivedAt: number;
}

async function phaseWebhooks() {
  say('webhooks: latency from the charge to the receiver, then deliveries/s on a backlog');
  const receiver = await startReceiver();
  const server = await caisse({ name: 'webhooks' });
  const http = new Http(server.origin, 64);
  const creds = { 'x-api-key': merchant.apiKey, authorization: `Bearer ${merchant.secretKey}` };
  let endpointId: string | undefined;
  try {
    const created = await http.request('POST', '/webhook-endpoints', creds, {
      url: `http://127.0.0.1:${receiver.port}/hooks`,
      enabledEvents: ['payment.completed'],
    });
    if (created.status !== 201) throw new Error(`webhook endpoint: HTTP ${created.status} ${created.body}`);
    endpointId = (JSON.parse(created.body) as { id: string }).id;

    // Latency: payments at a steady rate; each payment.completed is timed from its createdAt.
    const peak = (results.phases.flow as { peak?: FlowRun } | undefined)?.peak?.paymentsPerSecond ?? 100;
    const rate = Math.max(5, Math.min(100, Math.round(peak * 0.3)));
    const queue = await users(rate * cfg.durationS + 10);
    const samples = new LabelledSamples();
    const ctx: FlowContext = { http, merchant, samples };
    // Warmed up at the same rate first, as every other timed loop is: a server just started
    // spends its first second or two compiling the payment path, which holds up its event loop,
    // the dispatcher's included. Those deliveries are reported apart (coldLatency).
    const warm = await users(rate * cfg.warmupS + 10);
    await receiver.take();
    await openLoop({ rate, durationMs: cfg.warmupS * 1000, task: (at) => payment({ http, merchant, samples: new LabelledSamples() }, warm.next(), at) });
    await sleep(500);
    const cold = new Samples();
    for (const x of await receiver.take()) if (x.type === 'payment.completed') cold.add(x.receivedAt - x.createdAt);
    const r = await openLoop({ rate, durationMs: cfg.durationS * 1000, task: (at) => payment(ctx, queue.next(), at) });
    const receipts: Receipt[] = [];
    const deadline = Date.now() + 15_000;
    while (receipts.length < r.completed && Date.now() < deadline) {
      await sleep(250);
      receipts.push(...(await receiver.take()));
    }
    const latency = new Samples();
    for (const x of receipts) if (x.type === 'payment.completed') latency.add(x.receivedAt - x.createdAt);
    const latencyRun = { rate, payments: r.completed, errors: r.errors, received: receipts.length, latency: latency.summary(), coldLatency: cold.summary() };
    say(
      `webhooks latency: ${JSON.stringify(latencyRun.latency)} over ${receipts.length} deliveries at ${rate} payments/s (warm-up: ${JSON.stringify(latencyRun.coldLatency)})`,
    );

    // Throughput: a backlog of deliveries committed at once; the dispatcher drains it.
    const backlog = cfg.webhookBacklog;
    const sample = await world.db
      .selectFrom('events')
      .select(['payload', 'api_version'])
      .where('merchant_id', '=', merchant.merchantId)
      .limit(1)
      .executeTakeFirstOrThrow();
    await world.db.transaction().execute(async (tx) => {
      await sql`insert into events (id, merchant_id, mode, type, intent_id, api_version, payload, created_at)
        select 'evt_bulk' || lpad(g::text, 8, '0'), ${merchant.merchantId}, 'test', 'payment.completed', null, ${sample.api_version},
          jsonb_set(${sample.payload}::jsonb, '{id}', to_jsonb('evt_bulk' || lpad(g::text, 8, '0')))::text, now()
        from generate_series(1, ${backlog}::int) g`.execute(tx);
      await sql`insert into webhook_deliveries (id, event_id, endpoint_id, merchant_id, mode, status, attempts, next_attempt_at, created_at)
        select 'wd_bulk' || lpad(g::text, 8, '0'), 'evt_bulk' || lpad(g::text, 8, '0'), ${endpointId}, ${merchant.merchantId}, 'test', 'pending', 0, now(), now()
        from generate_series(1, ${backlog}::int) g`.execute(tx);
    });
    // A backlog that built up over time would have been analysed by autovacuum: without fresh
    // statistics the foreign-key checks keep plans made when the table was nearly empty.
    await sql`analyze events, webhook_deliveries`.execute(world.db);
    // Wakes the dispatcher where it listens (it also polls, so this only saves the poll interval).
    await sql`select pg_notify('caisse_webhooks', '')`.execute(world.db);
    const committedAt = performance.timeOrigin + performance.now();
    let got = 0;
    let first = Number.POSITIVE_INFINITY;
    let last = 0;
    const drainDeadline = Date.now() + Math.max(60_000, backlog * 5);
    while (got < backlog && Date.now() < drainDeadline) {
      await sleep(250);
      for (const x of await receiver.take()) {
        if (!x.id.startsWith('evt_bulk')) continue;
        got++;
        first = Math.min(first, x.receivedAt);
        last = Math.max(last, x.receivedAt);
      }
    }
    const seconds = (last - committedAt) / 1000;
    const throughput = {
      backlog,
      delivered: got,
      seconds: round(seconds, 2),
      deliveriesPerSecond: round(got / seconds, 0),
      firstReceiptAfterMs: round(first - committedAt, 1),
    };
    say(`webhooks throughput: ${JSON.stringify(throughput)}`);
    results.phases.webhooks = { latencyRun, throughput, loadAverage: loadAverage() };
  } finally {
    // The receiver stops with this phase: left behind, the endpoint would have the later phases'
    // servers retrying their payments' deliveries to nobody (the momo phase's idle CPU included).
    if (endpointId) await http.request('DELETE', `/webhook-endpoints/${endpointId}`, creds);
    await http.close();
    results.phases.webhooksMemory = await stop(server, 'webhooks');
    receiver.child.send({ kind: 'stop' });
  }
}

/** create + charge latencies at a fixed payment rate (open loop). */
async function createAndCharge(server: Started, rate: number): Promise<{ create: Summary; charge: Summary; run: FlowRun }> {
  const http = new Http(server.origin, 64);
  const warm = await users(rate * cfg.warmupS + 10);
  const warmCtx: FlowContext = { http, merchant, samples: new LabelledSamples() };
  await openLoop({ rate, durationMs: cfg.warmupS * 1000, task: (at) => payment(warmCtx, warm.next(), at) });
  const run = await flowOpen(http, cfg.durationS, rate);
  await http.close();
  return { create: run.latency.create as Summary, charge: run.latency.charge as Summary, run };
}

async function phaseBigTable() {
  const peak = (results.phases.flow as { peak?: FlowRun } | undefined)?.peak?.paymentsPerSecond ?? 100;
  const rate = Math.max(5, Math.round(peak * 0.5));
  say(`bigtable: create + charge at ${rate} payments/s on an almost empty intents table, then with ${cfg.intents} more intents`);
  // Both sides start from the same state: earlier phases' dead rows vacuumed, nothing dirty pending.
  await sql`vacuum analyze`.execute(world.db);
  await sql`checkpoint`.execute(world.db);
  let server = await caisse({ name: 'bigtable-small' });
  const before = await sql<{ n: string }>`select count(*)::text as n from intents`.execute(world.db);
  const small = await createAndCharge(server, rate);
  await stop(server, 'bigtable-small');
  say(
    `bigtable small (${before.rows[0]?.n} intents): create p50 ${small.create.p50} p99 ${small.create.p99}, charge p50 ${small.charge.p50} p99 ${small.charge.p99}`,
  );

  // Bulk insert, straight into the tables, in chunks of 1M rows (bounded by BENCH_BULK_TIMEOUT_S):
  // a month of history spread evenly over the last 30 days, 70 % paid, 10 % declined, the rest
  // expired or canceled, each paid or declined one with its charge by a customer of a pool that
  // grows over the month (so new customers arrive every day), and a unique order reference each.
  const t0 = performance.now();
  const chunk = 1_000_000;
  const base = new Date();
  const n = cfg.intents;
  const pool = Math.min(world.seeded, 20_000);
  let inserted = 0;
  await sql`insert into ledger_transfers (id, merchant_id, mode, kind, reference, created_at)
    values ('tr_bench_history', ${merchant.merchantId}, 'test', 'charge', null, now()) on conflict do nothing`.execute(world.db);
  await sql`insert into customer_links (merchant_id, mode, user_id, linked_at)
    select ${merchant.merchantId}, 'test', 'usr_bench' || lpad(k::text, 8, '0'), now() - interval '31 days'
    from generate_series(1, ${pool}::int) k on conflict do nothing`.execute(world.db);
  while (inserted < cfg.intents && (performance.now() - t0) / 1000 < cfg.bulkTimeoutS) {
    const from = inserted + 1;
    const to = Math.min(cfg.intents, inserted + chunk);
    const at = sql`(${base}::timestamptz - interval '30 days' + (g::float8 / ${n}::float8) * interval '30 days')`;
    await sql`insert into intents (id, merchant_id, mode, status, amount_minor, amount_refunded_minor, currency, description, metadata,
        session_token_hash, attempts, last_error_code, last_error_message, expires_at, created_at, updated_at)
      select 'pi_00' || lpad(g::text, 24, '0'), ${merchant.merchantId}, 'test',
        case when g % 10 < 7 then 'SUCCEEDED' when g % 10 = 7 then 'FAILED' when g % 10 = 8 then 'EXPIRED' else 'CANCELED' end,
        500 + (g % 50) * 100, 0, 'XAF', 'Bench history', ('{"orderId":"ord-' || g || '"}')::json,
        sha256(('bench-history-' || g)::bytea), case when g % 10 < 8 then 1 else 0 end, null, null,
        ${at} + interval '15 minutes', ${at}, ${at} + interval '30 seconds'
      from generate_series(${from}::int, ${to}::int) g`.execute(world.db);
    // Charge ids sort by creation time (platform/ids.ts): the overview finds a period's charges by them.
    await sql`insert into charges (id, merchant_id, mode, intent_id, user_id, status, amount_minor, currency, failure_code, failure_message, transfer_id, fee_minor, created_at)
      select 'ch_' || ${chargeIdTime(sql`(extract(epoch from c.at) * 1000)::bigint`)} || lpad(g::text, 16, '0'), ${merchant.merchantId}, 'test',
        'pi_00' || lpad(g::text, 24, '0'),
        'usr_bench' || lpad((1 + ((g::bigint * 2654435761) % (1 + (g::bigint * ${pool}::bigint) / ${n}::bigint)))::text, 8, '0'),
        case when g % 10 < 7 then 'succeeded' else 'failed' end, 500 + (g % 50) * 100, 'XAF',
        case when g % 10 < 7 then null else 'insufficient_funds' end, null,
        case when g % 10 < 7 then 'tr_bench_history' end, 0, c.at
      from generate_series(${from}::int, ${to}::int) g, lateral (select ${at} + interval '30 seconds' as at) c
      where g % 10 < 8`.execute(world.db);
    inserted = to;
    say(`bigtable: ${inserted} intents (and their charges) inserted in ${round((performance.now() - t0) / 1000, 0)} s`);
  }
  await sql`vacuum analyze intents, charges, customer_links`.execute(world.db);
  // Write the load's dirty pages out now: a table that grew over months has no checkpoint of
  // gigabytes pending, and one running during the measurement would be measured instead.
  await sql`checkpoint`.execute(world.db);
  const insertSeconds = round((performance.now() - t0) / 1000, 0);
  say(`bigtable: ${inserted} intents inserted and vacuumed in ${insertSeconds} s`);
  const plans = await intentPlans();
  say(`bigtable plans: ${JSON.stringify(plans)}`);

  server = await caisse({ name: 'bigtable-large' });
  // The overview's rollup as production fills it: the server's worker catches up on every hour.
  const rollup = await waitForRollup();
  say(`bigtable: the rollup caught up on ${rollup.hours} hours in ${rollup.seconds} s`);
  const large = await createAndCharge(server, rate);
  const dashboard = await timeDashboard(server, n);
  say(`bigtable dashboard (p50 / max ms over ${DASHBOARD_RUNS} runs): ${JSON.stringify(dashboard)}`);
  await stop(server, 'bigtable-large');
  const ratio = (a: number, b: number) => round(a / b, 2);
  const ratios = {
    createP50: ratio(large.create.p50, small.create.p50),
    createP99: ratio(large.create.p99, small.create.p99),
    chargeP50: ratio(large.charge.p50, small.charge.p50),
    chargeP99: ratio(large.charge.p99, small.charge.p99),
  };
  say(
    `bigtable large: create p50 ${large.create.p50} p99 ${large.create.p99}, charge p50 ${large.charge.p50} p99 ${large.charge.p99}; ratios ${JSON.stringify(ratios)}`,
  );
  results.phases.bigtable = {
    rate,
    intentsBefore: Number(before.rows[0]?.n ?? 0),
    intentsInserted: inserted,
    insertSeconds,
    small: { create: small.create, charge: small.charge, paymentsPerSecond: small.run.paymentsPerSecond, errors: small.run.errors },
    large: { create: large.create, charge: large.charge, paymentsPerSecond: large.run.paymentsPerSecond, errors: large.run.errors },
    ratios,
    plans,
    rollup,
    dashboard,
    loadAverage: loadAverage(),
  };
}

/** Crockford base32 of a millisecond time shifted left by 2 bits: the 10 first characters of an id made then (platform/ids.ts). */
function chargeIdTime(ms: ReturnType<typeof sql>) {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const chars = Array.from({ length: 10 }, (_, i) => sql`substr(${alphabet}, (((${ms} << 2) >> ${5 * (9 - i)}) & 31)::int + 1, 1)`);
  return sql.join(chars, sql` || `);
}

/** Waits until the server's rollup worker has rolled up every closed hour (bounded by BENCH_BULK_TIMEOUT_S). */
async function waitForRollup(): Promise<{ hours: number; seconds: number }> {
  const t0 = performance.now();
  const first = await sql<{ at: Date }>`select min(created_at) as at from charges`.execute(world.db);
  const startHour = Math.floor((first.rows[0]?.at?.getTime() ?? Date.now()) / 3_600_000);
  for (;;) {
    const state = await sql<{ rolled_until: Date | null }>`select rolled_until from charge_rollup_state`.execute(world.db);
    const rolled = state.rows[0]?.rolled_until?.getTime() ?? 0;
    // Closed hours: those ended 2 minutes ago (the worker's grace).
    if (rolled >= Math.floor((Date.now() - 120_000) / 3_600_000) * 3_600_000) {
      return { hours: rolled / 3_600_000 - startHour, seconds: round((performance.now() - t0) / 1000, 1) };
    }
    if ((performance.now() - t0) / 1000 > cfg.bulkTimeoutS) throw new Error('the rollup did not catch up in time');
    await sleep(500);
  }
}

const DASHBOARD_RUNS = 10;

/** The dashboard's overview and search through their HTTP routes, signed in as the merchant: p50 and max of DASHBOARD_RUNS runs each (after one warm-up). */
async function timeDashboard(server: Started, bulk: number): Promise<Record<string, { p50: number; max: number; results?: number }>> {
  const login = await fetch(`${server.origin}/dashboard/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_DASHBOARD),
  });
  if (login.status !== 200) throw new Error(`dashboard login: HTTP ${login.status}`);
  const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const http = new Http(server.origin, 1);
  const middle = Math.floor(bulk / 2);
  const customer = 1234;
  const paths: Record<string, string> = {
    'overview today': '/dashboard/api/test/overview?period=today',
    'overview 7d': '/dashboard/api/test/overview?period=7d',
    'overview 30d': '/dashboard/api/test/overview?period=30d',
    'search by id': `/dashboard/api/test/search?q=pi_00${String(middle).padStart(24, '0')}`,
    'search by metadata value (order reference)': `/dashboard/api/test/search?q=ord-${middle + 1}`,
    'search by amount': '/dashboard/api/test/search?q=2500',
    'search by phone (last 6 digits)': `/dashboard/api/test/search?q=${String(customer).padStart(6, '0')}`,
  };
  const out: Record<string, { p50: number; max: number; results?: number }> = {};
  try {
    for (const [name, path] of Object.entries(paths)) {
      const samples = new Samples();
      let results: number | undefined;
      for (let i = 0; i <= DASHBOARD_RUNS; i++) {
        const t0 = performance.now();
        const res = await http.request('GET', path, { cookie });
        const ms = performance.now() - t0;
        if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${res.body.slice(0, 300)}`);
        if (i > 0) samples.add(ms);
        const body = JSON.parse(res.body) as { data?: unknown[]; current?: { payments: number } };
        results = body.data?.length ?? body.current?.payments;
      }
      const s = samples.summary();
      out[name] = { p50: s.p50, max: s.max, results };
    }
  } finally {
    await http.close();
  }
  return out;
}

/** How PostgreSQL runs the payment path's reads of the large intents table (EXPLAIN, first node of each plan). */
async function intentPlans(): Promise<Record<string, string>> {
  const some = await sql<{ id: string }>`select id from intents where merchant_id = ${merchant.merchantId} order by id desc limit 1 offset 1000`.execute(
    world.db,
  );
  const intent = some.rows[0];
  if (!intent) return {};
  const m = merchant.merchantId;
  const queries: Record<string, ReturnType<typeof sql>> = {
    'charge: lock the intent': sql`select * from intents where merchant_id = ${m} and mode = 'test' and id = ${intent.id} for update`,
    'read by session token (the intent id it names)': sql`select * from intents where merchant_id = ${m} and mode = 'test' and id = ${intent.id}`,
    'initOtp: payer and payment': sql`select u.id, i.status from users u left join intents i on i.id = ${intent.id} and i.merchant_id = ${m} and i.mode = 'test' where u.id = 'usr_bench00000001' and u.merchant_id = ${m} and u.mode = 'test'`,
    'list, newest first': sql`select * from intents where merchant_id = ${m} and mode = 'test' order by id desc limit 21`,
    'list by status': sql`select * from intents where merchant_id = ${m} and mode = 'test' and status = 'SUCCEEDED' order by id desc limit 21`,
    'sweeper: PENDING past expiry': sql`select i.id from intents i join merchants m on m.id = i.merchant_id where i.status = 'PENDING' and i.expires_at <= now() order by i.expires_at limit 100 for update of i skip locked`,
  };
  const plans: Record<string, string> = {};
  for (const [name, query] of Object.entries(queries)) {
    const explained = await sql<{ 'QUERY PLAN': string }>`explain (costs off) ${query}`.execute(world.db);
    plans[name] = explained.rows
      .map((r) => r['QUERY PLAN'].trim())
      .filter((line) => /Scan/.test(line))
      .join('; ');
  }
  return plans;
}

async function phaseCluster() {
  say(`cluster: the full flow with ${cfg.apiProcesses} API processes (CAISSE_API_PROCESSES)`);
  const server = await caisse({ name: 'cluster', apiProcesses: cfg.apiProcesses });
  const http = new Http(server.origin, Math.max(cfg.concurrency, 64));
  await flowClosed(http, cfg.warmupS, cfg.concurrency);
  const peak = await flowClosed(http, cfg.durationS, cfg.concurrency, server);
  await http.close();
  const memory = await stop(server, 'cluster');
  say(`cluster: ${peak.paymentsPerSecond} payments/s, p99 all ${peak.latency.all?.p99} ms, ${memory.processes} processes, ${memory.peakTreeRssMb} MB`);
  results.phases.cluster = { apiProcesses: cfg.apiProcesses, peak, memory };
}

async function phasePglite() {
  say('pglite: the full flow on embedded PGlite');
  const dir = join(work, 'pglite');
  mkdirSync(dir, { recursive: true });
  const w = await World.open({ dataDir: dir });
  const m = await w.createMerchant();
  const seconds = cfg.durationS;
  const prepared = await w.takeUsers(Math.ceil(600 * (seconds + cfg.warmupS)));
  await w.close();
  // With the node options `npm start` gives it (packages/server/package.json).
  const server = await caisse({ name: 'pglite', pglite: dir, nodeArgs: [...npmStartNodeArgs(), ...(cfg.serverNodeArgs ?? [])] });
  const http = new Http(server.origin, cfg.concurrency);
  const queue = new UserQueue(prepared);
  const run = async (s: number) => {
    const samples = new LabelledSamples();
    const ctx: FlowContext = { http, merchant: m, samples };
    const before = cpuSnapshot(server.child.pid);
    const r = await closedLoop({ concurrency: cfg.concurrency, durationMs: s * 1000, task: () => payment(ctx, queue.next()) });
    const done = flowRun(r, samples, { concurrency: cfg.concurrency });
    return { ...done, cpu: cpuBetween(before, cpuSnapshot(server.child.pid), done.completed) };
  };
  await run(cfg.warmupS);
  const peak = await run(seconds);
  await http.close();
  const memory = await stop(server, 'pglite');
  say(`pglite: ${peak.paymentsPerSecond} payments/s, p99 all ${peak.latency.all?.p99} ms, errors ${peak.errors} ${peak.errorSamples.join(' | ')}`);
  results.phases.pglite = { peak, memory };
}

/**
 * Where the server's CPU goes: the flow on PostgreSQL under a V8 CPU profile, first as a closed
 * loop (self time per payment by package), then one virtual user alone (self time per request,
 * each sample given to the one request in flight). Writes `<label>.profile.md`.
 */
async function phaseProfile() {
  // BENCH_PROFILE_PGLITE=1: the same on embedded PGlite, with the node options `npm start` gives it.
  const onPglite = env.BENCH_PROFILE_PGLITE === '1';
  say(`profile: the full flow on ${onPglite ? 'embedded PGlite' : 'PostgreSQL'} under --cpu-prof`);
  const dir = join(work, 'cpu-profile');
  mkdirSync(dir, { recursive: true });
  let target = { merchant, takeUsers: (n: number) => world.takeUsers(n), pglite: undefined as string | undefined };
  if (onPglite) {
    const pgliteDir = join(work, 'pglite-profile');
    mkdirSync(pgliteDir, { recursive: true });
    const w = await World.open({ dataDir: pgliteDir });
    const m = await w.createMerchant();
    const prepared = await w.takeUsers(Math.ceil(400 * (2 * cfg.durationS + cfg.warmupS)));
    await w.close();
    target = { merchant: m, takeUsers: async (n: number) => prepared.splice(0, n), pglite: pgliteDir };
  }
  const nodeArgs = [...(onPglite ? npmStartNodeArgs() : []), ...(cfg.serverNodeArgs ?? []), '--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250'];
  const server = await caisse({ name: 'profile', pglite: target.pglite, nodeArgs });
  const http = new Http(server.origin, cfg.concurrency);
  const closed = async (seconds: number) => {
    const queue = new UserQueue(await target.takeUsers(Math.ceil((onPglite ? 150 : cfg.maxRate) * seconds)));
    const samples = new LabelledSamples();
    const ctx: FlowContext = { http, merchant: target.merchant, samples };
    const before = cpuSnapshot(server.child.pid);
    const r = await closedLoop({ concurrency: cfg.concurrency, durationMs: seconds * 1000, task: () => payment(ctx, queue.next()) });
    const run = flowRun(r, samples, { concurrency: cfg.concurrency });
    return { ...run, cpu: cpuBetween(before, cpuSnapshot(server.child.pid), run.completed) };
  };
  await closed(cfg.warmupS);
  const loopFrom = monotonicMicros();
  const loop = await closed(cfg.durationS);
  const loopTo = monotonicMicros();
  // One user alone: each request's samples are its own.
  const windows: Window[] = [];
  const step = (path: string) =>
    path.startsWith('/gateway')
      ? 'create'
      : path.startsWith('/otp/init')
        ? 'init'
        : path.startsWith('/test/messages')
          ? 'code'
          : path.startsWith('/otp/verify')
            ? 'verify'
            : 'charge';
  const single = new LabelledSamples();
  const queue = new UserQueue(await target.takeUsers(Math.ceil(200 * cfg.durationS)));
  const ctx: FlowContext = { http: recording(http, step, windows), merchant: target.merchant, samples: single };
  const alone = await closedLoop({ concurrency: 1, durationMs: cfg.durationS * 1000, task: () => payment(ctx, queue.next()) });
  await http.close();
  await stop(server, 'profile');
  const profile = readProfile(dir);
  const perPayment = selfTimes(profile, [{ from: loopFrom, to: loopTo, label: 'loop' }]).get('loop');
  const perRequest = selfTimes(profile, windows);
  const ms = (us: number, n: number) => round(us / 1000 / Math.max(1, n), 3);
  // Each figure in H too (the hello phase of this run, which --profile runs first).
  const H = results.H?.ms;
  const h = (us: number, n: number) => (H ? inH(us / 1000 / Math.max(1, n), H) : '–');
  const writesUs = perPayment?.byGroup.get('socket writes (native)') ?? 0;
  const counts = new Map<string, number>();
  for (const w of windows) counts.set(w.label, (counts.get(w.label) ?? 0) + 1);
  const lines = [
    `# Where the server's CPU goes (${cfg.label})`,
    '',
    `\`npm run bench -- --profile\`, ${new Date().toISOString()}: the server on ${onPglite ? "embedded PGlite (`npm start`'s node options)" : 'PostgreSQL'} under \`node --cpu-prof\` (250 µs samples, main thread only: no kernel, no libuv pool).`,
    '',
    H
      ? `H = ${H} ms: the server CPU of one Fastify hello-world request, measured in this run (the \`hello\` phase, without the profiler). The profiler's own sampling costs the server some CPU: figures here read higher than the flow phase's.`
      : 'H was not measured in this run (no `hello` phase): figures in ms only.',
    '',
    `Closed loop: ${loop.paymentsPerSecond} payments/s, ${loop.completed} payments, ${cfg.concurrency} virtual users. ${cpuLine(loop.cpu, 'load generator', H)}`,
    `Sampled on the main thread: ${ms(perPayment?.total ?? 0, loop.completed)} ms = ${h(perPayment?.total ?? 0, loop.completed)} H per payment.`,
    '',
    // V8 samples the thread's wall time: a write that wakes PostgreSQL or the client on the same two
    // cores is often preempted inside the system call, and those samples are waiting, not work.
    `The socket writes are sampled at ${ms(writesUs, loop.completed)} ms = ${h(writesUs, loop.completed)} H per payment, while /proc counts ${loop.cpu.perUnitMs.serverKernel} ms = ${H ? inH(loop.cpu.perUnitMs.serverKernel, H) : '–'} H of kernel time for the whole process: the profiler samples the thread's wall time, and a write that wakes PostgreSQL or the client on the same cores is often preempted inside the system call. Read the writes' row as waiting for a core, not as their cost; /proc's kernel time bounds what they cost.`,
    '',
    ...groupTables(perPayment, loop.completed, 'per payment', H, 30),
    '',
    `One user alone: ${alone.completed} payments in ${round(alone.elapsedMs / 1000, 1)} s; CPU sampled per request and its five largest groups.`,
    '',
    '| request | count | ms per request | H per request | largest groups (H per request) |',
    '|---|---|---|---|---|',
    ...STEPS.map((label) => {
      const t = perRequest.get(label);
      const n = counts.get(label) ?? 0;
      const groups = top(t?.byGroup ?? new Map(), 5)
        .map(([g, us]) => `${g} ${h(us, n)}`)
        .join(', ');
      return `| ${label} | ${n} | ${ms(t?.total ?? 0, n)} | ${h(t?.total ?? 0, n)} | ${groups} |`;
    }),
    '',
  ];
  const out = join(REPO, 'bench', 'results', `${cfg.label}.profile.md`);
  mkdirSync(join(REPO, 'bench', 'results'), { recursive: true });
  writeFileSync(out, lines.join('\n'));
  results.phases.profile = {
    loop: {
      paymentsPerSecond: loop.paymentsPerSecond,
      completed: loop.completed,
      cpu: loop.cpu,
      sampledMsPerPayment: ms(perPayment?.total ?? 0, loop.completed),
    },
    alone: {
      completed: alone.completed,
      perRequest: Object.fromEntries(
        STEPS.map((label) => [
          label,
          { ms: ms(perRequest.get(label)?.total ?? 0, counts.get(label) ?? 0), H: h(perRequest.get(label)?.total ?? 0, counts.get(label) ?? 0) },
        ]),
      ),
    },
  };
  say(`profile: written to bench/results/${cfg.label}.profile.md`);
}

/**
 * Direct mobile-money payments (bench/lib/momo.ts) against the providers' sandbox in its own
 * process (`caisse sandbox`), so its CPU is measured apart from the gateway's: an open loop of
 * payments, each approved by the sandbox's callback; then the idle server with and without
 * attempts waiting on phones; then provider callbacks at BENCH_CALLBACK_RATE for those attempts.
 */
async function phaseMomo() {
  say(`momo: direct mobile-money payments at ${cfg.momoRate}/s against the providers' sandbox in its own process`);
  const sandboxPort = await freePort();
  const sandbox = await startProcess({
    name: 'sandbox',
    args: [CAISSE_BIN, 'sandbox', '--port', String(sandboxPort), '--host', '127.0.0.1'],
    env: { CAISSE_COMPILED: '1' },
    port: sandboxPort,
    readyPath: '/',
    readyOnAnyAnswer: true,
    logFile: join(work, 'sandbox.log'),
  });
  children.add(sandbox);
  // The sandbox calls back from 127.0.0.1, every callback from one address: lift that limit as
  // the bench lifts the per-key one (a provider's callbacks come from a few addresses).
  // BENCH_MOMO_PROFILE=1: the server under a V8 CPU profile, read per payment, per idle second and
  // per callback (<label>.momo.profile.md); its CPU figures then include the profiler's own.
  const profileDir = env.BENCH_MOMO_PROFILE === '1' ? join(work, 'momo-profile') : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const windows: Window[] = [];
  let profiled: MomoCounts | undefined;
  // The server reaches PostgreSQL through a relay that counts its statements by SQL text: per
  // payment (the background loops' included), per idle second, per callback.
  const pgUrl = new URL(databaseUrl);
  const relay = await startCountingRelay({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
  const relayedUrl = new URL(databaseUrl);
  relayedUrl.port = String(relay.port);
  const server = await caisse({
    name: 'momo',
    databaseUrl: relayedUrl.toString(),
    env: { CAISSE_SANDBOX_URL: sandbox.origin, CAISSE_RATE_LIMIT_CALLBACKS: '1000000' },
    ...(profileDir ? { nodeArgs: [...(cfg.serverNodeArgs ?? []), '--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=250'] } : {}),
  });
  const serverLog = join(work, 'momo.log');
  const http = new Http(server.origin, 256);
  const pids = { server: server.child.pid as number, sandbox: sandbox.child.pid as number };
  const provider = benchProvider();
  const snap = () => ({ at: performance.now(), main: cpuSnapshot(pids.server), sandbox: cpuSnapshot(pids.sandbox).server });
  try {
    const loop = async (seconds: number) => {
      const ctx: MomoContext = { http, merchant, provider, samples: new LabelledSamples(), settled: new Samples(), statusReads: { count: 0 } };
      const r = await openLoop({ rate: cfg.momoRate, durationMs: seconds * 1000, task: (at) => momoPayment(ctx, at) });
      return { r, ctx };
    };
    await loop(cfg.warmupS);
    await sleep(1000);
    const logFrom = statSync(serverLog).size;
    const before = snap();
    relay.take();
    const loopFrom = monotonicMicros();
    const { r, ctx } = await loop(cfg.durationS);
    windows.push({ from: loopFrom, to: monotonicMicros(), label: 'payments' });
    const after = snap();
    const paymentStatements = relay.take();
    const run: FlowRun = { ...flowRun(r, ctx.samples, { rate: cfg.momoRate }), cpu: cpuBetween(before.main, after.main, r.completed) };
    if (run.cpu) run.cpu.perUnitMs.sandbox = round((after.sandbox - before.sandbox) / Math.max(1, r.completed), 2);
    const callbacks = callbacksInLog(serverLog, logFrom);
    say(
      `momo: ${run.paymentsPerSecond} payments/s, errors ${run.errors} ${run.errorSamples.join(' | ')}; approved in ${JSON.stringify(ctx.settled.summary())} ms; CPU ms per payment ${JSON.stringify(run.cpu)}; callbacks ${JSON.stringify(callbacks)}`,
    );

    // Idle: the server's CPU per second with nothing to do, then with attempts waiting on phones.
    const idle = async (label: string) => {
      const a = snap();
      relay.take();
      const from = monotonicMicros();
      await sleep(cfg.durationS * 1000);
      windows.push({ from, to: monotonicMicros(), label });
      const b = snap();
      const statements = relay.take();
      const seconds = (b.at - a.at) / 1000;
      return {
        seconds: round(seconds, 1),
        statementsPerSecond: round(statements.total / seconds, 2),
        // The process's resident memory at the end: the waiting attempts are rows, not objects.
        rssMb: rssMbOf(pids.server),
        serverMsPerSecond: round((b.main.server - a.main.server) / seconds, 2),
        postgresMsPerSecond: round((b.main.postgres - a.main.postgres) / seconds, 2),
      };
    };
    await sleep(3000); // the last polls and webhooks of the loop
    const without = await idle('idle');
    const removeWaiting = await insertWaitingAttempts(world, merchant, provider, cfg.waitingAttempts);
    const claimPlan = await sql<{ 'QUERY PLAN': string }>`explain (costs off)
      select id from provider_requests where status = 'PENDING' and next_poll_at <= now() order by next_poll_at limit 20 for update skip locked`.execute(
      world.db,
    );
    await sleep(1000);
    const withWaiting = await idle('idle, attempts waiting');
    say(`momo idle: without waiting attempts ${JSON.stringify(without)}, with ${cfg.waitingAttempts} ${JSON.stringify(withWaiting)}`);

    // Callbacks at the goal's rate, one per waiting attempt: the route, the token check and the
    // status read at the sandbox (which never saw these references: nothing to settle).
    const references = (await sql<{ reference: string }>`select reference from payment_attempts where id like 'pa_wait%'`.execute(world.db)).rows.map(
      (x) => x.reference,
    );
    const signer = callbackSigner(configFor(dataDir, databaseUrl).masterKey, provider.name);
    const cbSamples = new Samples();
    const cbStatus: Record<string, number> = {};
    let next = 0;
    const cbSeconds = Math.max(1, Math.min(cfg.durationS, Math.floor(references.length / cfg.callbackRate)));
    const cbBefore = snap();
    relay.take();
    const cbFrom = monotonicMicros();
    const cb = await openLoop({
      rate: cfg.callbackRate,
      durationMs: cbSeconds * 1000,
      task: async (at) => {
        const reference = references[next++ % references.length] as string;
        // The route takes the callback by PUT or POST.
        const res = await http.request(
          'POST',
          `/callbacks/${provider.name}/collection/${reference}/${signer.sign('collection', reference)}`,
          {},
          {
            externalId: reference,
            status: 'SUCCESSFUL',
          },
        );
        cbSamples.add(performance.now() - at);
        cbStatus[res.status] = (cbStatus[res.status] ?? 0) + 1;
      },
    });
    windows.push({ from: cbFrom, to: monotonicMicros(), label: 'callbacks' });
    const cbAfter = snap();
    const cbStatements = relay.take();
    const cbCpu = cpuBetween(cbBefore.main, cbAfter.main, cb.completed);
    cbCpu.perUnitMs.sandbox = round((cbAfter.sandbox - cbBefore.sandbox) / Math.max(1, cb.completed), 2);
    const burst = {
      rate: cfg.callbackRate,
      seconds: round(cb.elapsedMs / 1000, 1),
      sent: cb.completed + cb.errors,
      handledPerSecond: round(cb.completed / (cb.elapsedMs / 1000), 0),
      dropped: cb.dropped,
      errors: cb.errors,
      errorSamples: cb.errorSamples,
      byStatus: cbStatus,
      latency: cbSamples.summary(),
      cpu: cbCpu,
      statementsPerCallback: round(cbStatements.total / Math.max(1, cb.completed), 2),
    };
    say(`momo callbacks at ${cfg.callbackRate}/s: ${JSON.stringify(burst)}`);
    profiled = { payments: r.completed, idleSeconds: without.seconds, waitingSeconds: withWaiting.seconds, callbacks: cb.completed };
    await removeWaiting();
    results.phases.momo = {
      provider: provider.displayName,
      rate: cfg.momoRate,
      run,
      approvedAfter: ctx.settled.summary(),
      statusReadsPerPayment: round(ctx.statusReads.count / Math.max(1, r.completed), 2),
      statementsPerPayment: round(paymentStatements.total / Math.max(1, r.completed), 2),
      statements: topStatements(paymentStatements, r.completed),
      callbacks,
      idle: {
        waitingAttempts: cfg.waitingAttempts,
        without,
        with: withWaiting,
        claimPlan: claimPlan.rows.map((x) => x['QUERY PLAN'].trim()).join('; '),
      },
      burst,
    };
  } finally {
    await http.close();
    await stop(server, 'momo');
    await relay.close();
    children.delete(sandbox);
    results.memory.sandbox = await sandbox.stop();
  }
  if (profileDir && profiled) writeMomoProfile(profileDir, windows, profiled);
}

interface MomoCounts {
  payments: number;
  idleSeconds: number;
  waitingSeconds: number;
  callbacks: number;
}

/** `<label>.momo.profile.md`: the momo server's self time by group per payment, per idle second, per callback. */
function writeMomoProfile(dir: string, windows: Window[], n: MomoCounts) {
  const times = selfTimes(readProfile(dir), windows);
  const H = results.H?.ms;
  const sections: [label: string, unit: string, count: number][] = [
    ['payments', 'payment', n.payments],
    ['idle', 'second idle', n.idleSeconds],
    ['idle, attempts waiting', `second idle with ${cfg.waitingAttempts} attempts waiting`, n.waitingSeconds],
    ['callbacks', 'callback', n.callbacks],
  ];
  const lines = [
    `# Where the momo server's CPU goes (${cfg.label})`,
    '',
    `\`BENCH_MOMO_PROFILE=1 npm run bench -- --phases hello,momo\`, ${new Date().toISOString()}: the server of the momo phase under \`node --cpu-prof\` (250 µs samples, main thread only), the providers' sandbox in its own process. ${H ? `H = ${H} ms (this run's hello phase).` : 'No hello phase: ms only.'} Socket writes are sampled in wall time (a write preempted after waking its peer keeps being sampled): read them against /proc's kernel time in ${cfg.label}.md.`,
    '',
  ];
  for (const [label, unit, count] of sections) {
    const t = times.get(label);
    const sampled = (t?.total ?? 0) / 1000 / Math.max(1, count);
    lines.push(
      `## Per ${unit} (${label}: ${count})`,
      '',
      `Sampled: ${round(sampled, 3)} ms = ${H ? inH(sampled, H) : '–'} H per ${unit}.`,
      '',
      ...groupTables(t, count, `per ${unit}`, H, 20),
      '',
    );
  }
  const out = join(REPO, 'bench', 'results', `${cfg.label}.momo.profile.md`);
  writeFileSync(out, lines.join('\n'));
  say(`momo profile: written to bench/results/${cfg.label}.momo.profile.md`);
}

/** Markdown tables of self time by group and by function (the largest `rows`), per unit, in ms and H. */
function groupTables(t: SelfTimes | undefined, units: number, per: string, H: number | undefined, rows: number): string[] {
  const ms = (us: number) => round(us / 1000 / Math.max(1, units), 3);
  const h = (us: number) => (H ? inH(us / 1000 / Math.max(1, units), H) : '–');
  const total = t?.total ?? 0;
  return [
    `| group | share | ms ${per} | H ${per} |`,
    '|---|---|---|---|',
    ...top(t?.byGroup ?? new Map(), rows).map(([g, us]) => `| ${g} | ${round((100 * us) / Math.max(1, total), 1)} % | ${ms(us)} | ${h(us)} |`),
    '',
    'Functions with the most self time:',
    '',
    `| function (group) | ms ${per} | H ${per} |`,
    '|---|---|---|',
    ...top(t?.byFunction ?? new Map(), rows).map(([f, us]) => `| ${f.replaceAll('|', '\\|')} | ${ms(us)} | ${h(us)} |`),
  ];
}

let hostsWorld: HostsWorld | undefined;

/**
 * Several hosts (bench/lib/hosts.ts): three `caisse start` in network namespaces, behind PgBouncer
 * in transaction mode, Redis through a forward; the full flow on 1, 2 and 3 of them, every request
 * to the next host in turn. Needs root.
 */
async function phaseHosts() {
  say('hosts: the full flow on 1, 2 and 3 hosts (network namespaces) behind PgBouncer in transaction mode');
  hostsWorld = await openHosts({ adminUrl: cfg.adminUrl, database: dbName, masterKey: BENCH_MASTER_KEY, log: say });
  const h = hostsWorld;
  const https: Http[] = [];
  try {
    const env = { CAISSE_RATE_LIMIT_TEST: '1000000', LOG_LEVEL: cfg.logLevel, ...(cfg.poolSize ? { DB_POOL_SIZE: String(cfg.poolSize) } : {}) };
    const servers = await Promise.all([0, 1, 2].map((i) => h.startHost(i, env)));
    for (const s of servers) https.push(new Http(s.origin, cfg.concurrency));
    const runs: (FlowRun & { hosts: number })[] = [];
    for (const n of [1, 2, 3]) {
      const http = new Rotate(https.slice(0, n));
      await flowClosed(http, cfg.warmupS, cfg.concurrency);
      // Every host's CPU counts (the idle ones' too), and PgBouncer's apart.
      const run = { hosts: n, ...(await flowClosed(http, cfg.durationS, cfg.concurrency, servers)) };
      say(
        `hosts ${n}: ${run.paymentsPerSecond} payments/s, p99 all ${run.latency.all?.p99} ms, errors ${run.errors} ${run.errorSamples.join(' | ')}; CPU ms per payment ${JSON.stringify(run.cpu)}`,
      );
      runs.push(run);
    }
    const memory = servers.map((s) => s.memory.report());
    results.phases.hosts = { pgbouncer: h.pooledUrl, runs, peakProcessRssMb: Math.max(...memory.map((m) => m.peakProcessRssMb)) };
  } finally {
    await Promise.all(https.map((x) => x.close()));
    await h.close();
    hostsWorld = undefined;
  }
}

// ---- goals --------------------------------------------------------------------------------------

function goals() {
  const g = results.goals;
  const flow = results.phases.flow as { peak: FlowRun; at70: FlowRun } | undefined;
  const pgb = results.phases.pgbench as { ceiling: number } | undefined;
  const wh = results.phases.webhooks as { latencyRun: { latency: Summary }; throughput: { deliveriesPerSecond: number } } | undefined;
  const big = results.phases.bigtable as { ratios: Record<string, number>; dashboard?: Record<string, { p50: number; max: number }> } | undefined;
  const pgl = results.phases.pglite as { peak: FlowRun } | undefined;
  if (flow && pgb) {
    const ratio = round(flow.peak.paymentsPerSecond / pgb.ceiling, 2);
    results.phases.ratioToCeiling = ratio;
    g.push({
      goal: 'full flow vs pgbench ceiling',
      target: '≥ 0.6',
      measured: `${ratio} (${flow.peak.paymentsPerSecond} / ${pgb.ceiling} payments/s)`,
      met: ratio >= 0.6,
    });
  }
  const H = results.H?.ms;
  const inUnits = (ms: number) => (H ? `${inH(ms, H)} H (${ms} ms)` : `${ms} ms (H not measured: add the hello phase)`);
  if (flow?.peak.cpu) {
    const server = flow.peak.cpu.perUnitMs.server;
    if (H)
      g.push({
        goal: 'wallet payment: server CPU per payment (PostgreSQL, peak)',
        target: '≤ 100 H',
        measured: `${inUnits(server)}; PostgreSQL ${inUnits(flow.peak.cpu.perUnitMs.postgres)}`,
        met: inH(server, H) <= 100,
      });
    g.push({
      goal: 'server CPU per payment (PostgreSQL, peak)',
      target: '≤ 4 ms',
      measured: `${server} ms (${flow.peak.cpu.perUnitMs.serverKernel} ms of it in the kernel)`,
      met: server <= 4,
    });
  }
  if (flow) {
    const p99 = flow.at70.latency.all?.p99 ?? Number.NaN;
    const p50 = flow.at70.latency.all?.p50 ?? Number.NaN;
    g.push({ goal: 'API p99 at 70 % of peak', target: '< 20 ms', measured: `${p99} ms (${flow.at70.paymentsPerSecond} payments/s)`, met: p99 < 20 });
    g.push({ goal: 'tail at 70 % of peak: p99 / p50', target: '≤ 4', measured: `${round(p99 / p50, 2)} (p99 ${p99} ms, p50 ${p50} ms)`, met: p99 <= 4 * p50 });
  }
  const momo = results.phases.momo as
    | {
        run: FlowRun;
        idle: {
          waitingAttempts: number;
          without: { seconds: number; serverMsPerSecond: number; rssMb?: number };
          with: { seconds: number; serverMsPerSecond: number; rssMb?: number };
        };
        burst: { rate: number; handledPerSecond: number; latency: Summary; errors: number; dropped?: number; byStatus: Record<string, number> };
      }
    | undefined;
  if (momo?.run.cpu) {
    const u = momo.run.cpu.perUnitMs;
    g.push({
      goal: 'direct mobile-money payment: server CPU per payment (sandbox apart)',
      target: '≤ 100 H',
      measured: `${inUnits(u.server)}; the sandbox ${inUnits(u.sandbox ?? 0)}, PostgreSQL ${inUnits(u.postgres)}; ${momo.run.completed} payments, ${momo.run.errors} errors`,
      met: H ? inH(u.server, H) <= 100 && momo.run.errors === 0 : null,
    });
  }
  if (momo) {
    const { without, with: waiting } = momo.idle;
    // /proc counts in 10 ms ticks: over a window of s seconds a difference under 2 ticks is no difference.
    const resolution = round(20 / Math.min(without.seconds, waiting.seconds), 2);
    const extra = round(waiting.serverMsPerSecond - without.serverMsPerSecond, 2);
    const perS = (ms: number) => (H ? `${inH(ms, H)} H/s (${ms} ms/s)` : `${ms} ms/s`);
    g.push({
      goal: `${momo.idle.waitingAttempts.toLocaleString('en')} attempts waiting on phones: idle server CPU`,
      target: `no more than without them (± ${resolution} ms/s, the resolution of /proc over the window)`,
      measured: `with ${perS(waiting.serverMsPerSecond)}, without ${perS(without.serverMsPerSecond)}`,
      met: extra <= resolution,
    });
    if (waiting.rssMb !== undefined && without.rssMb !== undefined) {
      // Held in memory, an attempt would take at least a kilobyte: 10 MB for 10,000.
      const bound = Math.round(momo.idle.waitingAttempts / 1000);
      g.push({
        goal: `${momo.idle.waitingAttempts.toLocaleString('en')} attempts waiting on phones: server memory`,
        target: `resident memory within ${bound} MB of that without them (under 1 kB an attempt: rows, not objects)`,
        measured: `${waiting.rssMb} MB with them, ${without.rssMb} MB without`,
        met: waiting.rssMb - without.rssMb <= bound,
      });
    }
    const b = momo.burst;
    const ok = b.byStatus['204'] ?? 0;
    g.push({
      goal: `provider callbacks at ${b.rate.toLocaleString('en')}/s`,
      target: `${b.rate.toLocaleString('en')}/s handled, p99 < 50 ms`,
      measured: `${b.handledPerSecond}/s handled (${ok} answered 204, ${b.errors} errors, ${b.dropped ?? 0} not sent: too many in flight), p50 ${b.latency.p50} ms, p99 ${b.latency.p99} ms`,
      met: b.handledPerSecond >= 0.95 * b.rate && b.latency.p99 < 50 && b.errors === 0,
    });
  }
  if (wh) {
    g.push({ goal: 'webhook p50', target: '< 20 ms', measured: `${wh.latencyRun.latency.p50} ms`, met: wh.latencyRun.latency.p50 < 20 });
    g.push({ goal: 'webhook p99', target: '< 50 ms', measured: `${wh.latencyRun.latency.p99} ms`, met: wh.latencyRun.latency.p99 < 50 });
    g.push({
      goal: 'webhook deliveries/s',
      target: '≥ 5000',
      measured: `${wh.throughput.deliveriesPerSecond}`,
      met: wh.throughput.deliveriesPerSecond >= 5000,
    });
  }
  if (big) {
    const worst = Math.max(big.ratios.createP50 ?? 0, big.ratios.chargeP50 ?? 0);
    g.push({
      goal: `latency ratio with ${cfg.intents.toLocaleString('en')} intents (p50, create and charge)`,
      target: '≤ 1.2',
      measured: `create ${big.ratios.createP50}, charge ${big.ratios.chargeP50} (p99: ${big.ratios.createP99}, ${big.ratios.chargeP99})`,
      met: worst <= 1.2,
    });
  }
  if (big?.dashboard) {
    const worst = (key: 'p50' | 'max') => Object.entries(big.dashboard ?? {}).reduce((a, b) => (b[1][key] > a[1][key] ? b : a));
    const [p50Name, p50] = worst('p50');
    const [maxName, max] = worst('max');
    g.push({
      goal: `dashboard overview and search with ${cfg.intents.toLocaleString('en')} intents`,
      target: '< 200 ms',
      measured: `worst p50 ${p50.p50} ms (${p50Name}), worst max ${max.max} ms (${maxName})`,
      met: p50.p50 < 200,
    });
  }
  if (pgl) g.push({ goal: 'PGlite full flow', target: '≥ 100 payments/s', measured: `${pgl.peak.paymentsPerSecond}`, met: pgl.peak.paymentsPerSecond >= 100 });
  if (pgl && flow) {
    const ratio = round(pgl.peak.paymentsPerSecond / flow.peak.paymentsPerSecond, 2);
    g.push({
      goal: "PGlite payments/s against PostgreSQL's (same run)",
      target: '≥ 0.8',
      measured: `${ratio} (${pgl.peak.paymentsPerSecond} / ${flow.peak.paymentsPerSecond} payments/s; PGlite server CPU ${pgl.peak.cpu ? inUnits(pgl.peak.cpu.perUnitMs.server) : '?'} per payment)`,
      met: ratio >= 0.8,
    });
  }
  const pglRss = results.memory.pglite;
  if (pglRss)
    g.push({ goal: 'peak RSS of the PGlite server', target: '≤ 200 MB', measured: `${pglRss.peakProcessRssMb} MB`, met: pglRss.peakProcessRssMb <= 200 });
  const rss = Object.entries(results.memory).filter(([name]) => name !== 'hello' && name !== 'pglite' && name !== 'sandbox');
  if (rss.length > 0) {
    const worst = rss.reduce((a, b) => (b[1].peakProcessRssMb > a[1].peakProcessRssMb ? b : a));
    g.push({
      goal: 'peak RSS of a server process on PostgreSQL',
      target: '≤ 200 MB',
      measured: `${worst[1].peakProcessRssMb} MB (${worst[0]})`,
      met: worst[1].peakProcessRssMb <= 200,
    });
  }
}

// ---- main ---------------------------------------------------------------------------------------

async function main() {
  say(`work directory ${work}; phases ${cfg.phases.join(', ')}${cfg.quick ? ' (quick)' : ''}`);
  results.machine = await describeMachine(cfg.adminUrl);
  databaseUrl = await createDatabase(cfg.adminUrl, dbName);
  try {
    world = await World.open({ databaseUrl, dataDir });
    merchant = await world.createMerchant();
    await world.seedUsers(QUICK ? 20_000 : 100_000);
    say(`database ${dbName}: merchant ${merchant.merchantId}, ${world.seeded} users`);
    const run: Record<Phase, () => Promise<void>> = {
      hello: phaseHello,
      flow: phaseFlow,
      create: phaseCreate,
      pgbench: phasePgbench,
      webhooks: phaseWebhooks,
      bigtable: phaseBigTable,
      cluster: phaseCluster,
      pglite: phasePglite,
      momo: phaseMomo,
      profile: phaseProfile,
      hosts: phaseHosts,
    };
    for (const phase of ALL_PHASES) {
      if (!cfg.phases.includes(phase)) continue;
      try {
        await run[phase]();
      } catch (err) {
        say(`${phase} failed: ${(err as Error).stack ?? err}`);
        results.phases[`${phase}Error`] = String((err as Error).message ?? err);
      }
    }
  } finally {
    await hostsWorld?.close().catch(() => undefined);
    for (const c of children) await c.stop().catch(() => undefined);
    await world?.close().catch(() => undefined);
    if (!cfg.keepDb) await dropDatabase(cfg.adminUrl, dbName).catch((err) => say(`could not drop ${dbName}: ${err}`));
  }
  if (results.H) addH(results.phases, results.H.ms);
  goals();
  const baseline = readBaseline(join(REPO, 'bench', 'results', `${process.env.BENCH_BASELINE ?? 'full'}.json`));
  if (baseline) results.comparison = compare(results, baseline);
  results.finishedAt = new Date().toISOString();
  if (results.machine) results.machine.loadAverage = loadAverage();
  const dir = join(REPO, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${cfg.label}.json`), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(dir, `${cfg.label}.md`), markdownReport(results));
  say(`results: bench/results/${cfg.label}.json and .md`);
  process.stdout.write(`\n${markdownReport(results)}\n`);
  if (cfg.keepWork) say(`kept the work directory ${work} (logs, pgbench script)`);
  else rmSync(work, { recursive: true, force: true });
}

// Bounded as a whole too: nothing may keep the machine busy for ever.
const overall = setTimeout(() => {
  say('the bench ran for more than 2 hours: stopping');
  for (const c of children) c.child.kill('SIGKILL');
  process.exit(2);
}, 2 * 3600_000);
overall.unref();

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    for (const c of children) c.child.kill('SIGKILL');
    void (hostsWorld?.close() ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => dropDatabase(cfg.adminUrl, dbName))
      .finally(() => process.exit(130));
  });
}

await main();
