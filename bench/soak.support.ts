/**
 * What the soak and the receiver-outage runs share: Caisse as a child process on a fresh
 * database, a merchant, funded test users, a webhook receiver that can go down, full payment
 * flows over HTTP (the same client `caisse trigger` uses: @caisse/node), and the server's RSS sampled from /proc.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { type Caisse, CaisseError } from '@caisse/node';
import { createCaisse } from '../packages/server/src/cli/client.ts';
import { type TestUser, testPayments } from '../packages/server/src/cli/test-payments.ts';
import {
  createMerchantWithCli,
  createRunDatabase,
  freePort,
  processEnv,
  type RunDatabase,
  type ServerProc,
  startServerProcess,
  type TestKeys,
} from '../packages/server/test/processes.ts';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number`);
  return n;
}

/** `--name value` or `--name=value` on the command line. */
export function argValue(name: string): string | undefined {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const arg = process.argv[i] as string;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : process.argv[i + 1];
}

const started = performance.now();
export const elapsed = () => (performance.now() - started) / 1000;
export const say = (tag: string, line: string) => process.stdout.write(`[${tag} ${elapsed().toFixed(0).padStart(5)} s] ${line}\n`);

// ---- the receiver --------------------------------------------------------------------------------

export type ReceiverMode = 'up' | 'refuse' | '503' | 'hang';

/**
 * A webhook receiver on a fixed 127.0.0.1 port that checks every signature and counts event ids.
 * Its mode can change: `refuse` closes the port (connections refused), `503` answers 503,
 * `hang` accepts and never answers (the dispatcher's 10 s timeout), `up` answers 200.
 */
export async function startReceiver() {
  const port = await freePort();
  const received = new Map<string, { count: number; firstAt: number; createdAt: number; type: string }>();
  let secret: string | undefined;
  let mode: ReceiverMode = 'up';
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  const stats = { requests: 0, badSignatures: 0, answered503: 0, hung: 0 };

  function listen(): Promise<void> {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        stats.requests += 1;
        if (mode === 'hang') {
          stats.hung += 1;
          return;
        }
        if (mode === '503') {
          stats.answered503 += 1;
          res.writeHead(503);
          res.end();
          return;
        }
        const body = Buffer.concat(chunks).toString('utf8');
        try {
          const event = new Webhook(secret ?? '').verify(body, req.headers as Record<string, string>) as { id: string; type: string; createdAt: string };
          const seen = received.get(event.id);
          if (seen) seen.count += 1;
          else received.set(event.id, { count: 1, firstAt: Date.now(), createdAt: Date.parse(event.createdAt), type: event.type });
          res.writeHead(200);
          res.end('ok');
        } catch {
          stats.badSignatures += 1;
          res.writeHead(400);
          res.end('bad signature');
        }
      });
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    return new Promise((resolve) => server?.listen(port, '127.0.0.1', resolve));
  }

  function unlisten(): Promise<void> {
    const s = server;
    server = undefined;
    if (s === undefined) return Promise.resolve();
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => s.close(() => resolve()));
  }

  await listen();
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    stats,
    setSecret(s: string) {
      secret = s;
    },
    mode: () => mode,
    async setMode(next: ReceiverMode) {
      if (next === 'refuse' && server !== undefined) await unlisten();
      if (next !== 'refuse' && server === undefined) await listen();
      // Requests left hanging are cut when the receiver comes back.
      if (mode === 'hang' && next !== 'hang') for (const socket of sockets) socket.destroy();
      mode = next;
    },
    close: unlisten,
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

// ---- memory ----------------------------------------------------------------------------------------

/** Resident set size of a process in MB (VmRSS), or undefined once it is gone. */
export function rssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

export function sampleRss(pid: number, everyMs: number) {
  const samples: { t: number; mb: number }[] = [];
  const take = () => {
    const mb = rssMb(pid);
    if (mb !== undefined) samples.push({ t: elapsed(), mb });
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    samples,
    stop: () => clearInterval(timer),
  };
}

/** Least-squares slope of RSS over time, in MB per hour. */
export function rssSlopeMbPerHour(samples: { t: number; mb: number }[]): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const mt = samples.reduce((s, x) => s + x.t, 0) / n;
  const mm = samples.reduce((s, x) => s + x.mb, 0) / n;
  const num = samples.reduce((s, x) => s + (x.t - mt) * (x.mb - mm), 0);
  const den = samples.reduce((s, x) => s + (x.t - mt) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 3600;
}

// ---- the world of a run ----------------------------------------------------------------------------

export interface PooledUser extends TestUser {
  sends: number[];
  busy: boolean;
}

export interface World {
  database: RunDatabase;
  env: Record<string, string>;
  keys: TestKeys;
  server: ServerProc;
  api: Caisse;
  receiver: Receiver;
  endpointId: string;
  users: PooledUser[];
  db: pg.Client;
  close(): Promise<void>;
}

/** A fresh database (PostgreSQL from BENCH_DATABASE_URL / TEST_DATABASE_URL, default the machine's), the server, a merchant, an endpoint, `users` users. */
export async function setUpWorld(tag: string, opts: { users: number; serverEnv?: Record<string, string> }): Promise<World> {
  const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const database = await createRunDatabase(adminUrl, tag);
  const env = processEnv({ ...database.env, ...opts.serverEnv });
  const keys = await createMerchantWithCli(env, tag);
  const server = await startServerProcess({ env });
  const api = createCaisse({ baseUrl: server.url, apiKey: keys.apiKey, secretKey: keys.secretKey }, { timeoutMs: 30_000 });
  const receiver = await startReceiver();
  const endpoint = await api.webhookEndpoints.create({ url: receiver.url });
  receiver.setSecret(endpoint.secret);
  const pay = testPayments(api);
  const users: PooledUser[] = [];
  for (let i = 0; i < opts.users; i += 8) {
    const batch = await Promise.all(Array.from({ length: Math.min(8, opts.users - i) }, () => pay.createUser({ balance: '10000000' })));
    users.push(...batch.map((u) => ({ ...u, sends: [], busy: false })));
  }
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  say(tag, `server pid ${server.pid} on ${server.url} (${database.kind}), merchant ${keys.merchantId}, ${users.length} users, receiver ${receiver.url}`);
  return {
    database,
    env,
    keys,
    server,
    api,
    receiver,
    endpointId: endpoint.id,
    users,
    db,
    async close() {
      await db.end().catch(() => {});
      const stopping = performance.now();
      server.kill('SIGTERM');
      const exit = await Promise.race([server.exited, sleep(40_000).then(() => undefined)]);
      if (exit === undefined) server.kill('SIGKILL');
      say(
        tag,
        `server stopped on SIGTERM in ${((performance.now() - stopping) / 1000).toFixed(1)} s (${exit === undefined ? 'killed after 40 s' : `exit ${exit.code ?? exit.signal}`})`,
      );
      await receiver.close();
      await database.drop().catch(() => {});
    },
  };
}

// ---- the load ----------------------------------------------------------------------------------------

export interface LoadStats {
  flows: number;
  paid: number;
  /** Every failed request, by `status code` or network error. */
  errors: Map<string, number>;
  /** Flows skipped because every user had had a code too recently (the OTP limits). */
  noUser: number;
  latenciesMs: number[];
}

export function newLoadStats(): LoadStats {
  return { flows: 0, paid: 0, errors: new Map(), noUser: 0, latenciesMs: [] };
}

function takeUser(users: PooledUser[]): PooledUser | undefined {
  const now = Date.now();
  for (let tries = 0; tries < users.length; tries++) {
    const u = users[Math.floor(Math.random() * users.length)] as PooledUser;
    if (u.busy || (u.sends.at(-1) ?? 0) > now - 31_000) continue;
    u.sends = u.sends.filter((t) => t > now - 15 * 60_000);
    if (u.sends.length >= 5) continue;
    u.busy = true;
    return u;
  }
  return undefined;
}

/** One full payment: intent → initOtp → code from the outbox → verifyOtp → charge. */
export async function payOnce(api: Caisse, users: PooledUser[], stats: LoadStats): Promise<void> {
  const user = takeUser(users);
  if (user === undefined) {
    stats.noUser += 1;
    return;
  }
  const pay = testPayments(api);
  const t = performance.now();
  // The request under way, to name a failure by it.
  let step = 'POST /gateway';
  try {
    const intent = await pay.createIntent({ amount: String(100 + Math.floor(Math.random() * 50) * 100), description: 'soak', metadata: { run: 'soak' } });
    user.sends.push(Date.now());
    let otpToken: string;
    // pay.authorize, one request at a time.
    const authorize = async () => {
      step = 'POST /otp/init';
      await api.testHelpers.initOtp(user.token, { userId: user.id, channel: 'sms', intentionId: intent.id });
      step = 'GET /test/messages';
      const otp = await pay.latestCode(user.id);
      step = 'POST /otp/verify';
      return (await api.testHelpers.verifyOtp(user.token, { userId: user.id, otp })).authorizationToken;
    };
    try {
      otpToken = await authorize();
    } catch (err) {
      if (err instanceof CaisseError && err.code === 'access_token_invalid') {
        step = 'POST /auth/web';
        await pay.signIn(user);
        otpToken = await authorize();
      } else throw err;
    }
    step = 'POST /charge';
    const res = await pay.charge(user, intent.id, otpToken, { idempotencyKey: `soak-${intent.id}` });
    if (res.status !== 200) throw new CaisseError({ code: res.problem?.code ?? `http_${res.status}`, message: 'the charge was refused', status: res.status });
    stats.paid += 1;
    stats.latenciesMs.push(performance.now() - t);
  } catch (err) {
    const key = err instanceof CaisseError && err.status !== undefined ? `${step} → ${err.status} ${err.code}` : `network: ${(err as Error).message}`;
    stats.errors.set(key, (stats.errors.get(key) ?? 0) + 1);
  } finally {
    stats.flows += 1;
    user.busy = false;
  }
}

/** Starts a payment every 1/rate s (open loop, at most `maxInFlight` at once) until `stop()`. */
export function paceLoad(api: Caisse, users: PooledUser[], stats: LoadStats, rate: number, maxInFlight = 64) {
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const loop = (async () => {
    const interval = 1000 / rate;
    let next = performance.now();
    while (!stopped) {
      if (inFlight.size < maxInFlight) {
        const p = payOnce(api, users, stats).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      next += interval;
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      else next = performance.now();
    }
    await Promise.allSettled([...inFlight]);
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** Events of the merchant not yet received, and deliveries not yet succeeded. */
export async function deliveryBacklog(world: World): Promise<{ events: number; missing: number; pending: number }> {
  const ids = (await world.db.query<{ id: string }>('select id from events where merchant_id = $1', [world.keys.merchantId])).rows.map((r) => r.id);
  const pending = Number((await world.db.query<{ n: string }>(`select count(*) as n from webhook_deliveries where status <> 'succeeded'`)).rows[0]?.n);
  return { events: ids.length, missing: ids.filter((id) => !world.receiver.received.has(id)).length, pending };
}

/** Writes bench/results/<name>.json and says where. */
export function writeResult(tag: string, name: string, data: unknown): void {
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  say(tag, `written ${file}`);
}

/** Runs `body` (which adds to `problems`), always tears the world down, prints the verdict; true when nothing went wrong. */
export async function runWithVerdict(tag: string, world: World, body: (problems: string[]) => Promise<void>): Promise<boolean> {
  const problems: string[] = [];
  try {
    await body(problems);
  } catch (err) {
    problems.push(`the run failed: ${(err as Error).stack ?? String(err)}`);
  } finally {
    await world.close();
  }
  for (const p of problems) say(tag, `PROBLEM ${p}`);
  say(tag, problems.length === 0 ? 'PASSED' : 'FAILED');
  return problems.length === 0;
}
