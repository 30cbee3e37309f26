/**
 * `npm run test:hosts`: Caisse on three hosts behind PgBouncer, checked (bench/README.md, "Several
 * hosts"). Three network namespaces (198.18.0.11–13), PgBouncer in transaction mode, the
 * machine's Redis through a forward, one `caisse start` per namespace started together (their
 * migrations race through PgBouncer). Then:
 *
 * - a payment crosses the hosts: create on A, initOtp on B, the code from the outbox on B,
 *   verifyOtp on C, charge on A; its payment.completed webhook arrives exactly once;
 * - an API key revoked through host A's dashboard API is refused by B and C (the time it took is printed);
 * - a per-key rate limit is shared: requests spread over the three hosts stop at the limit.
 *
 * Needs root. Prints PASSED or FAILED with "N passed, N failed"; exits 1 on a failure. Everything
 * it made is removed at the end, on failure and on SIGINT/SIGTERM too; a run that was killed is
 * cleaned up by the next.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { request } from 'undici';
import { createMerchantsService } from '../packages/server/src/modules/merchants/merchants.service.ts';
import { createIntent, type FlowContext, pay } from './lib/flow.ts';
import { HOST_ADDRESSES, type HostsWorld, openHosts, ROOT_ADDRESS } from './lib/hosts.ts';
import { Http, Rotate, sleep } from './lib/load.ts';
import { LabelledSamples } from './lib/stats.ts';
import { BENCH_MASTER_KEY, World } from './lib/world.ts';

const ADMIN_URL = process.env.HOSTS_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
/** Per test-mode key and second, on every host; the shared-limit check runs into it. */
const RATE_LIMIT = 20;
const say = (line: string) => process.stdout.write(`[hosts ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

const checks: { name: string; ok: boolean; detail: string }[] = [];
function check(name: string, ok: boolean, detail = ''): void {
  checks.push({ name, ok, detail });
  say(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}

/** The webhook receiver, on the bridge's address; host A reaches it through a forward from its own 127.0.0.1. */
async function startReceiver() {
  const received: { type: string; intentId?: string; signed: boolean }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      try {
        const event = JSON.parse(body) as { type: string; data?: { paymentIntent?: { id?: string } } };
        received.push({ type: event.type, intentId: event.data?.paymentIntent?.id, signed: Object.keys(req.headers).some((h) => h.includes('signature')) });
      } catch {
        received.push({ type: 'unparsable', signed: false });
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, ROOT_ADDRESS, resolve));
  return { port: (server.address() as { port: number }).port, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function dashboardLogin(origin: string, email: string, password: string): Promise<{ cookie: string; csrf: string }> {
  const res = await request(`${origin}/dashboard/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.body.json()) as { csrfToken: string };
  if (res.statusCode !== 200) throw new Error(`login: HTTP ${res.statusCode} ${JSON.stringify(body)}`);
  return { cookie: String(res.headers['set-cookie']).split(';')[0] as string, csrf: body.csrfToken };
}

async function dashboard(origin: string, who: { cookie: string; csrf: string }, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const res = await request(`${origin}/dashboard/api${path}`, {
    method,
    headers: { cookie: who.cookie, 'x-csrf-token': who.csrf, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: HTTP ${res.statusCode} ${text}`);
  return JSON.parse(text);
}

async function main(): Promise<void> {
  let hosts: HostsWorld | undefined;
  let world: World | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  const https: Http[] = [];
  const stopAll = async () => {
    await Promise.all(https.map((h) => h.close().catch(() => undefined)));
    await receiver?.close();
    await world?.close().catch(() => undefined);
    await hosts?.close();
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      say(`${sig}: cleaning up`);
      // The checks still running lose their connections meanwhile: nothing may stop the cleanup.
      process.on('uncaughtException', () => {});
      process.on('unhandledRejection', () => {});
      void stopAll().finally(() => process.exit(130));
    });
  }
  const deadline = setTimeout(() => {
    say('over 150 s: stopping');
    void stopAll().finally(() => process.exit(2));
  }, 150_000);
  try {
    const t0 = performance.now();
    hosts = await openHosts({ adminUrl: ADMIN_URL, masterKey: BENCH_MASTER_KEY, log: say });
    say(`network, PgBouncer (${hosts.pooledUrl}) and the Redis forward up; database ${hosts.database}`);
    const h = hosts;
    receiver = await startReceiver();
    await h.forwardFromHost(0, receiver.port);
    // Started together: their migrations race through PgBouncer in transaction mode.
    const env = { CAISSE_RATE_LIMIT_TEST: String(RATE_LIMIT), CAISSE_REDIS_PREFIX: `caisse-hosts-${process.pid}:` };
    const started = await Promise.all([0, 1, 2].map((i) => h.startHost(i, env)));
    check('three hosts start together behind PgBouncer (migrations applied once)', true, started.map((s) => s.origin).join(', '));
    for (const s of started) https.push(new Http(s.origin, 8));
    const [A, B, C] = https as [Http, Http, Http];

    world = await World.open({ databaseUrl: h.directUrl, dataDir: h.work });
    const merchant = await world.createMerchant();
    const [user] = await world.takeUsers(1);

    // 1. A payment across the hosts, and its webhook.
    const headers = { 'x-api-key': merchant.apiKey, authorization: `Bearer ${merchant.secretKey}` };
    const endpoint = await A.request('POST', '/webhook-endpoints', headers, {
      url: `http://127.0.0.1:${receiver.port}/hooks`,
      enabledEvents: ['payment.completed'],
    });
    check('webhook endpoint registered on host A', endpoint.status === 201, endpoint.status === 201 ? '' : endpoint.body);
    const ctx: FlowContext = { http: new Rotate([A, B, B, C, A]), merchant, samples: new LabelledSamples() };
    let intentId = '';
    try {
      intentId = await createIntent(ctx);
      await pay(ctx, user!, intentId);
      check('payment: create on A, initOtp and the code on B, verifyOtp on C, charge on A', true, intentId);
    } catch (err) {
      check('payment: create on A, initOtp and the code on B, verifyOtp on C, charge on A', false, (err as Error).message);
    }
    const stored = (await sql<{ status: string }>`select status from intents where id = ${intentId}`.execute(world.db)).rows[0];
    check('the intent is SUCCEEDED in PostgreSQL', stored?.status === 'SUCCEEDED', JSON.stringify(stored));
    const waitUntil = performance.now() + 15_000;
    const mine = () => receiver!.received.filter((r) => r.type === 'payment.completed' && r.intentId === intentId);
    while (mine().length === 0 && performance.now() < waitUntil) await sleep(50);
    await sleep(2000); // a duplicate would arrive meanwhile
    check(
      'payment.completed of that intent delivered exactly once, signed',
      receiver.received.length === 1 && mine().length === 1 && mine()[0]!.signed,
      JSON.stringify(receiver.received),
    );

    // 2. A key revoked through host A is refused by B and C.
    const services = createMerchantsService(world.deps);
    const password = 'hosts-test-password-2026';
    const other = await services.createMerchant({ name: 'Hosts revocation', email: `revoke-${process.pid}@caisse.local`, dashboardPassword: password });
    const otherHeaders = { 'x-api-key': other.test.apiKey, authorization: `Bearer ${other.test.secretKey}` };
    const probe = (http: Http) => http.request('GET', '/test/messages?limit=1', otherHeaders);
    const before = await Promise.all([A, B, C].map(probe));
    check(
      'the key works on A, B and C (now in their caches)',
      before.every((r) => r.status === 200),
      before.map((r) => r.status).join(' '),
    );
    const session = await dashboardLogin(A.origin, `revoke-${process.pid}@caisse.local`, password);
    const keys = (await dashboard(A.origin, session, 'GET', '/test/keys')) as { data?: { id: string; kind: string }[] } | { id: string; kind: string }[];
    const list = Array.isArray(keys) ? keys : (keys.data ?? []);
    const pk = list.find((k) => k.kind === 'publishable' || /pk/.test(k.kind)) ?? list[0];
    const revokedAt = performance.now();
    await dashboard(A.origin, session, 'POST', `/test/keys/${pk?.id}/revoke`, {});
    const refusedAfter: Record<string, number> = {};
    await Promise.all(
      (['B', 'C'] as const).map(async (name) => {
        const http = name === 'B' ? B : C;
        while (performance.now() - revokedAt < 5000) {
          if ((await probe(http)).status === 401) {
            refusedAfter[name] = Math.round((performance.now() - revokedAt) * 10) / 10;
            return;
          }
          await sleep(2);
        }
      }),
    );
    const onA = await probe(A);
    check('revoked on A: refused by A at once', onA.status === 401, `HTTP ${onA.status}`);
    check(
      'revoked on A: refused by B and C within 1 s (PostgreSQL NOTIFY over the session-mode path)',
      refusedAfter.B !== undefined && refusedAfter.C !== undefined && refusedAfter.B < 1000 && refusedAfter.C < 1000,
      `B after ${refusedAfter.B ?? '>5000'} ms, C after ${refusedAfter.C ?? '>5000'} ms (from the revoke request's start)`,
    );

    // 3. The per-key limit is counted in Redis: spread over three hosts, the limit still holds.
    const third = await services.createMerchant({ name: 'Hosts rate limit', email: `limit-${process.pid}@caisse.local` });
    const limitHeaders = { 'x-api-key': third.test.apiKey, authorization: `Bearer ${third.test.secretKey}` };
    let statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      while (Date.now() % 1000 > 30) await sleep(1);
      const second = Math.floor(Date.now() / 1000);
      statuses = [];
      for (let i = 0; i < RATE_LIMIT + 6; i++) statuses.push((await ([A, B, C][i % 3] as Http).request('GET', '/test/messages?limit=1', limitHeaders)).status);
      if (Math.floor(Date.now() / 1000) === second) break; // else the burst crossed a window: again
    }
    const ok = statuses.filter((s) => s === 200).length;
    const limited = statuses.filter((s) => s === 429).length;
    check(
      `rate limit shared through Redis: ${RATE_LIMIT + 6} requests in one second over A, B, C`,
      ok === RATE_LIMIT && limited === 6,
      `${ok} answered, ${limited} refused with 429 (per-process counters would have let all through)`,
    );
    say(`checks done in ${Math.round((performance.now() - t0) / 1000)} s; logs in ${h.work} (removed now)`);
  } catch (err) {
    check('the run itself', false, (err as Error).stack ?? String(err));
  } finally {
    clearTimeout(deadline);
    if (checks.some((c) => !c.ok) && hosts) {
      for (const f of readdirSync(hosts.work).filter((f) => /\.(log|out)$/.test(f))) {
        const lines = readFileSync(join(hosts.work, f), 'utf8').trim().split('\n').slice(-15);
        process.stdout.write(`--- ${f} (last lines)\n${lines.join('\n')}\n`);
      }
    }
    await stopAll().catch((err) => check('cleanup', false, String(err)));
  }
  const passed = checks.filter((c) => c.ok).length;
  const failed = checks.length - passed;
  process.stdout.write(`\nhosts test ${failed === 0 ? 'PASSED' : 'FAILED'}: ${passed} passed, ${failed} failed\n`);
  process.exit(failed === 0 ? 0 : 1);
}

if (HOST_ADDRESSES.length !== 3) throw new Error('three hosts');
await main();
