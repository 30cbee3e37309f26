/**
 * Waiting payers (issue 60, decision 0083): what many payers waiting on their intent's status cost
 * the server when each waits on one held long-poll (`GET /gateway/sessions/{token}?status=…&wait=25`)
 * instead of reading again every 1–5 s.
 *
 *   npm run bench:longpoll                          # 2 000 payers, a 30 s window
 *   BENCH_WAITERS=5000 BENCH_WINDOW_S=30 npm run bench:longpoll
 *
 * A real server (`caisse start`, compiled, one process) on a fresh database of the machine's
 * PostgreSQL (`BENCH_DATABASE_URL`, default postgres://postgres@127.0.0.1:5432/test); one merchant,
 * `BENCH_WAITERS` intents. Measured from /proc: the server's RSS and CPU idle, then while every payer
 * holds a long-poll (re-sent at once when the 25 s answer comes, as `waitForPayment` does), then
 * the same payers reading as the old `waitForPayment` did (every 2.5 s on average: its 1 s … 5 s
 * backoff) for comparison; and how long a waiting payer takes to hear of a change: a sample of
 * intents canceled one by one (the merchant's cancel, a committed status change), from the cancel's
 * answer to the long-poll's. Writes bench/results/<label>.json and .md (label default `longpoll`).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { cpuSnapshot, rssMbOf } from './lib/cpu.ts';
import { REPO, startCaisse } from './lib/processes.ts';
import { BENCH_MASTER_KEY, createDatabase, dropDatabase } from './lib/world.ts';

const WAITERS = Number(process.env.BENCH_WAITERS ?? 2000);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 30);
const POLL_MEAN_MS = 2500;
const RAMP_MS = Math.max(1000, (WAITERS / 500) * 1000);
const WAKE_SAMPLE = Number(process.env.BENCH_WAKE_SAMPLE ?? 200);
const LABEL = process.env.BENCH_LABEL ?? 'longpoll';
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const say = (what: string) => process.stderr.write(`longpoll: ${what}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? NaN;

const dbName = `caisse_bench_longpoll_${Date.now()}_${process.pid}`;
const databaseUrl = await createDatabase(ADMIN_URL, dbName);
const dataDir = mkdtempSync(join(tmpdir(), 'caisse-bench-longpoll-'));
const resultsDir = join(REPO, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const server = await startCaisse({
  databaseUrl,
  dataDir,
  masterKey: BENCH_MASTER_KEY,
  logFile: join(dataDir, 'server.log'),
  logLevel: 'warn',
  apiProcesses: 1,
  // Payers come from as many addresses as there are phones; here all from one.
  extraEnv: { CAISSE_RATE_LIMIT_IP: '1000000' },
});
const pid = server.child.pid as number;
// One connection per payer, as phones each hold their own.
const agent = new Agent({ connections: WAITERS + 100, pipelining: 0, keepAliveTimeout: 60_000, headersTimeout: 60_000, bodyTimeout: 60_000 });
let stopping = false;

try {
  const { url: adminUrl, token } = JSON.parse(readFileSync(join(dataDir, 'admin.json'), 'utf8')) as { url: string; token: string };
  const made = await fetch(`${adminUrl}/admin/merchants/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Boutique Akwa', email: `bench-${process.pid}@akwa.example`, country: 'CM', language: 'fr' }),
  });
  if (!made.ok) throw new Error(`merchants/create: ${made.status} ${await made.text()}`);
  const merchant = ((await made.json()) as { test: { apiKey: string; secretKey: string } }).test;
  const api = (path: string, init: { method?: 'GET' | 'POST'; body?: unknown; sk?: boolean } = {}) =>
    request(`${server.origin}${path}`, {
      dispatcher: agent,
      method: init.method ?? 'GET',
      headers: {
        'x-api-key': merchant.apiKey,
        ...(init.sk ? { authorization: `Bearer ${merchant.secretKey}` } : {}),
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  const intents: { id: string; sessionToken: string }[] = [];
  for (let i = 0; i < WAITERS; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, WAITERS - i) }, async () => {
        const res = await api('/gateway', { method: 'POST', sk: true, body: { amount: '5000', currency: 'XAF', expiresIn: 3600 } });
        if (res.statusCode !== 201) throw new Error(`POST /gateway: ${res.statusCode} ${await res.body.text()}`);
        return (await res.body.json()) as { id: string; sessionToken: string };
      }),
    );
    intents.push(...batch);
  }

  /** Server CPU (ms per second of wall time) and RSS over `seconds`, sampled every second. */
  async function measure(seconds: number) {
    const a = cpuSnapshot(pid);
    const rss: number[] = [];
    for (let s = 0; s < seconds; s++) {
      await sleep(1000);
      rss.push(rssMbOf(pid));
    }
    const b = cpuSnapshot(pid);
    const wallS = (b.at - a.at) / 1000;
    return {
      serverCpuMsPerS: Math.round(((b.server - a.server) / wallS) * 10) / 10,
      postgresCpuMsPerS: Math.round(((b.postgres - a.postgres) / wallS) * 10) / 10,
      rssMb: { mean: Math.round(rss.reduce((x, y) => x + y, 0) / rss.length), max: Math.max(...rss) },
    };
  }

  say(`${intents.length} intents`);
  await sleep(2000);
  const idle = await measure(Math.min(10, WINDOW_S));
  say('idle measured');

  // Every payer on one held read, sent again at once when it comes back (as waitForPayment does).
  let requests = 0;
  let busy = 0;
  let errors = 0;
  const errorKinds: Record<string, number> = {};
  /** How long each read that came back unchanged was held (ms): 20–25 s when the server holds as it should. */
  const heldFor: number[] = [];
  const heard = new Map<string, (at: number) => void>();
  async function waitOn(intent: { id: string; sessionToken: string }) {
    while (!stopping) {
      try {
        requests++;
        const sent = performance.now();
        const res = await api(`/gateway/sessions/${intent.sessionToken}?status=PENDING&wait=25`);
        const body = (await res.body.json()) as { status: string };
        if (res.statusCode !== 200) {
          errors++;
          errorKinds[res.statusCode] = (errorKinds[res.statusCode] ?? 0) + 1;
          await sleep(1000);
          continue;
        }
        if (res.headers['caisse-wait'] === 'busy') {
          busy++;
          await sleep(2000);
        }
        if (body.status === 'PENDING' && res.headers['caisse-wait'] === 'held') heldFor.push(performance.now() - sent);
        if (body.status !== 'PENDING') {
          heard.get(intent.id)?.(performance.now());
          return;
        }
      } catch (err) {
        errors++;
        const kind = (err as { code?: string }).code ?? 'error';
        errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
        await sleep(1000);
      }
    }
  }
  const started = performance.now();
  // Payers arrive over RAMP_MS (500 a second for 2 000), not all in the same millisecond.
  const loops = intents.map(async (intent, k) => {
    await sleep((k / intents.length) * RAMP_MS);
    return waitOn(intent);
  });
  // Every read in (sent, and the server holding it).
  await sleep(RAMP_MS + 3000);
  say(`payers waiting (${requests} reads sent, ${errors} errors)`);
  const requestsAtStart = requests;
  const held = await measure(WINDOW_S);
  const heldRequests = requests - requestsAtStart;

  say('held measured');
  // How long a waiting payer takes to hear of a change: cancels one at a time.
  const wake: number[] = [];
  for (const intent of intents.slice(0, WAKE_SAMPLE)) {
    const answered = new Promise<number>((resolve) => heard.set(intent.id, resolve));
    const res = await api(`/gateway/${intent.id}/cancel`, { method: 'POST', sk: true, body: {} });
    const committed = performance.now();
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`cancel: ${res.statusCode}`);
    wake.push(Math.max(0, (await answered) - committed));
  }
  say('wake-ups measured');
  stopping = true;
  const heldForS = (performance.now() - started) / 1000;

  // The old way, for comparison: the same payers (those not canceled) reading every 1–5 s.
  let pollStop = false;
  let polls = 0;
  let pollErrors = 0;
  const pollers = intents.slice(WAKE_SAMPLE).map(async (intent) => {
    await sleep(Math.random() * POLL_MEAN_MS);
    while (!pollStop) {
      polls++;
      try {
        const res = await api(`/gateway/sessions/${intent.sessionToken}`);
        await res.body.text();
        if (res.statusCode !== 200) pollErrors++;
      } catch {
        pollErrors++;
      }
      await sleep(POLL_MEAN_MS * (0.6 + Math.random() * 0.8));
    }
  });
  await sleep(POLL_MEAN_MS + 1000);
  const pollsAtStart = polls;
  const polling = await measure(WINDOW_S);
  const pollRequests = polls - pollsAtStart;
  pollStop = true;
  await Promise.race([Promise.all(pollers), sleep(10_000)]);
  // The long-polls still held end with the server.

  const result = {
    label: LABEL,
    at: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, loadAverage: loadavg().map((x) => Math.round(x * 100) / 100), node: process.version },
    waiters: WAITERS,
    windowS: WINDOW_S,
    idle,
    held: {
      ...held,
      requestsPerS: Math.round((heldRequests / WINDOW_S) * 10) / 10,
      busyAnswers: busy,
      errors,
      errorKinds,
      unchangedAnswers: heldFor.length,
      heldMs: { min: Math.round(Math.min(...heldFor)), p50: Math.round(pct(heldFor, 50)), max: Math.round(Math.max(...heldFor)) },
      heldForS: Math.round(heldForS),
    },
    wakeMs: {
      sample: wake.length,
      p50: Math.round(pct(wake, 50) * 10) / 10,
      p99: Math.round(pct(wake, 99) * 10) / 10,
      max: Math.round(Math.max(...wake) * 10) / 10,
    },
    polling: { payers: WAITERS - WAKE_SAMPLE, ...polling, requestsPerS: Math.round((pollRequests / WINDOW_S) * 10) / 10, errors: pollErrors },
  };
  const perWaiterKb = Math.round(((held.rssMb.mean - idle.rssMb.mean) * 1024) / WAITERS);
  const md = [
    `# Waiting payers: ${WAITERS} held long-polls (\`${LABEL}\`)`,
    '',
    `${result.at}; ${result.machine.cpus} × ${result.machine.model}; load average ${result.machine.loadAverage.join(', ')}; Node ${result.machine.node}. One server process (\`caisse start\`, compiled) on PostgreSQL. \`npm run bench:longpoll\` (bench/longpoll.ts).`,
    '',
    '| | server CPU (ms/s) | PostgreSQL CPU (ms/s) | server RSS mean / max (MB) | requests/s |',
    '|---|---|---|---|---|',
    `| idle, no payer | ${idle.serverCpuMsPerS} | ${idle.postgresCpuMsPerS} | ${idle.rssMb.mean} / ${idle.rssMb.max} | 0 |`,
    `| ${WAITERS} payers, each on one held long-poll (wait=25) | ${held.serverCpuMsPerS} | ${held.postgresCpuMsPerS} | ${held.rssMb.mean} / ${held.rssMb.max} | ${result.held.requestsPerS} |`,
    `| ${result.polling.payers} payers reading every 1–5 s (the old way, mean ${POLL_MEAN_MS / 1000} s) | ${polling.serverCpuMsPerS} | ${polling.postgresCpuMsPerS} | ${polling.rssMb.mean} / ${polling.rssMb.max} | ${result.polling.requestsPerS} |`,
    '',
    `About ${perWaiterKb} KB of server memory per waiting payer (RSS held − idle, over ${WAITERS}). Busy answers: ${busy}; failed reads: ${errors} (${JSON.stringify(errorKinds)}), each read again a second later.`,
    '',
    `Reads answered unchanged at their deadline: ${heldFor.length}, held ${result.held.heldMs.min}–${result.held.heldMs.max} ms (median ${result.held.heldMs.p50}); requests/s counts the reads sent in the window (every payer's first went in before it).`,
    '',
    `A waiting payer hears of a committed change (the merchant's cancel, ${wake.length} one after the other) ${result.wakeMs.p50} ms after the cancel's answer at the median, p99 ${result.wakeMs.p99} ms, max ${result.wakeMs.max} ms.`,
    '',
  ].join('\n');
  writeFileSync(join(resultsDir, `${LABEL}.json`), JSON.stringify(result, null, 2) + '\n');
  writeFileSync(join(resultsDir, `${LABEL}.md`), md);
  process.stdout.write(md);
  void loops;
} finally {
  stopping = true;
  await server.stop().catch(() => undefined);
  await agent.destroy().catch(() => undefined);
  await dropDatabase(ADMIN_URL, dbName).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}
