import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, type DispatcherOptions } from '../src/modules/webhooks/dispatcher.ts';
import { nodeTransport } from '../src/modules/webhooks/transport.ts';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { call, createMerchant, createTestContext, setTotpEnrolled, sk, type TestContext, type TestMerchant } from './harness.ts';
import { makeEvent, type Handler, ok, type Receiver, startReceiver } from './webhooks.receiver.ts';

/**
 * The dashboard's Events page API (issue 22): every attempt kept with the request it sent and
 * the answer's excerpt, the event's detail and list filters, resend. Real receivers on
 * 127.0.0.1, a dispatcher driven by hand on the ManualClock (retries come due by moving it).
 */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;
const receivers: Receiver[] = [];

interface Session {
  cookie: string;
  csrf: string;
}
let session: Session;
let otherSession: Session;

async function login(who: TestMerchant): Promise<Session> {
  const res = await ctx.app.inject({ method: 'POST', url: '/dashboard/api/login', payload: who.dashboard });
  expect(res.statusCode, res.body).toBe(200);
  return { cookie: String(res.headers['set-cookie']).split(';')[0] as string, csrf: res.json().csrfToken };
}

function dash(method: InjectOptions['method'], url: string, who: Session = session, body?: unknown) {
  const headers: Record<string, string> = { cookie: who.cookie, 'x-csrf-token': who.csrf };
  return ctx.app.inject({ method, url: `/dashboard/api${url}`, headers, ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}) });
}

async function receiver(handler: Handler = ok) {
  const r = await startReceiver(handler);
  receivers.push(r);
  return r;
}

async function endpoint(who: TestMerchant, url: string, live = false) {
  const creds = live ? { apiKey: who.live.apiKey, secretKey: who.live.secretKey } : sk(who);
  const res = await call(ctx.app, 'POST', '/webhook-endpoints', creds, { url });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

const dispatcher = (opts: DispatcherOptions = {}) => createDispatcher(ctx.deps, { timeoutMs: 2000, concurrency: 4, ...opts });

interface AttemptJson {
  statusCode: number | null;
  succeeded: boolean;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
  requestHeaders: Record<string, string> | null;
  requestBodyExcerpt: string | null;
}
interface DetailJson {
  event: { id: string; type: string };
  payload: string;
  deliveries: { id: string; status: string; endpoint: { id: string; url: string } | null; attempts: AttemptJson[] }[];
}

async function detail(id: string, who: Session = session, mode = 'test'): Promise<DetailJson> {
  const res = await dash('GET', `/${mode}/events/${id}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as DetailJson;
}

async function listIds(query: string): Promise<string[]> {
  const res = await dash('GET', `/test/events${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { id: string }[]).map((e) => e.id);
}

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Eventful');
  other = await createMerchant(ctx, 'Elsewhere');
  session = await login(m);
  otherSession = await login(other);
  // Signed in with the password alone, then enrolled: live mode needs two-factor sign-in.
  for (const who of [m, other]) await setTotpEnrolled(ctx, who.dashboard.email, true);
});
afterAll(() => ctx.close());
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  // What a test leaves pending must not be delivered by the next one's dispatcher.
  await ctx.deps.db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null }).where('status', '=', 'pending').execute();
  await ctx.deps.db.updateTable('webhook_endpoints').set({ enabled: false }).execute();
});

describe('attempts are kept with the request they sent', () => {
  it('a success: status, duration, the headers as sent and the body; a loopback answer is never kept', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('thanks, stored');
    });
    const ep = await endpoint(m, r.url);
    const event = await makeEvent(ctx, m.merchantId);
    expect(await dispatcher().runOnce()).toMatchObject({ succeeded: 1 });

    const got = await detail(event.id);
    expect(got.event).toMatchObject({ id: event.id, type: 'payment.completed' });
    const stored = await ctx.deps.db.selectFrom('events').select('payload').where('id', '=', event.id).executeTakeFirstOrThrow();
    expect(got.payload).toBe(stored.payload);
    expect(got.deliveries).toHaveLength(1);
    const [delivery] = got.deliveries;
    expect(delivery).toMatchObject({ status: 'succeeded', endpoint: { id: ep.id, url: r.url } });
    expect(delivery?.attempts).toHaveLength(1);
    const attempt = delivery?.attempts[0] as AttemptJson;
    expect(attempt).toMatchObject({ statusCode: 200, succeeded: true, error: null, requestBodyExcerpt: stored.payload });
    expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
    // The headers are those the receiver got, byte for byte.
    const sent = r.received[0]?.headers ?? {};
    for (const name of ['content-type', 'user-agent', 'pay-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'host', 'content-length']) {
      expect(attempt.requestHeaders?.[name], name).toBe(sent[name]);
    }
    expect(attempt.requestHeaders?.['webhook-id']).toBe(event.id);
    // The receiver answered text, but it is on 127.0.0.1: its answer is never stored (issue 20).
    expect(attempt.responseExcerpt).toBeNull();
    const row = await ctx.deps.db
      .selectFrom('webhook_delivery_attempts')
      .selectAll()
      .where('delivery_id', '=', delivery?.id as string)
      .executeTakeFirstOrThrow();
    expect(row.response_excerpt).toBeNull();
    expect(JSON.parse(row.request_headers as string)).toEqual(attempt.requestHeaders);
  });

  it('a failure then a retry when the clock reaches it: both attempts, and the failed filter follows', async () => {
    let answer = 500;
    const r = await receiver((_req, res) => {
      res.writeHead(answer);
      res.end('busy');
    });
    await endpoint(m, r.url);
    const event = await makeEvent(ctx, m.merchantId);
    expect(await dispatcher().runOnce()).toMatchObject({ retrying: 1 });

    let got = await detail(event.id);
    expect(got.deliveries[0]).toMatchObject({ status: 'pending' });
    expect(got.deliveries[0]?.attempts).toEqual([expect.objectContaining({ statusCode: 500, succeeded: false, error: 'HTTP 500' })]);
    expect(await listIds('?deliveryStatus=failed')).toContain(event.id);

    // Not due yet: nothing happens until the clock moves.
    expect(await dispatcher().runOnce()).toMatchObject({ claimed: 0 });
    answer = 200;
    ctx.clock.advance(10 * MINUTE);
    expect(await dispatcher().runOnce()).toMatchObject({ succeeded: 1 });
    got = await detail(event.id);
    expect(got.deliveries[0]?.status).toBe('succeeded');
    expect(got.deliveries[0]?.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
    expect(r.received).toHaveLength(2);
    expect(await listIds('?deliveryStatus=failed')).not.toContain(event.id);
  });

  it('a network failure keeps its error; a request never sent has no headers', async () => {
    const r = await receiver((req) => req.socket.destroy());
    // A name, not an address, so that the injected resolver decides where it leads.
    await endpoint(m, r.url.replace('127.0.0.1', 'localhost'));
    const event = await makeEvent(ctx, m.merchantId);
    await dispatcher({ resolver: async () => [{ address: '127.0.0.1', family: 4 }] }).runOnce();
    const attempt = (await detail(event.id)).deliveries[0]?.attempts[0];
    expect(attempt).toMatchObject({ statusCode: null, succeeded: false, error: expect.stringMatching(/ECONNRESET|socket hang up/) });
    expect(attempt?.requestHeaders?.['webhook-id']).toBe(event.id);

    // The resolver refuses the address: nothing left, so no request to show.
    ctx.clock.advance(10 * MINUTE);
    await dispatcher({ resolver: async () => [{ address: '10.0.0.1', family: 4 }] }).runOnce();
    const refused = (await detail(event.id)).deliveries[0]?.attempts[1];
    expect(refused).toMatchObject({ statusCode: null, requestHeaders: null, requestBodyExcerpt: null, error: expect.stringMatching(/not a public one/) });
  });

  it('excerpts are capped: 2 KiB of the answer of a public target, 2048 characters of the body', async () => {
    const big = 'x'.repeat(10_000);
    const r = await receiver((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(big);
    });
    await endpoint(m, 'https://hooks.public.example/caisse', true);
    const metadata = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'é'.repeat(400)]));
    const event = await makeEvent(ctx, m.merchantId, { mode: 'live', metadata });
    // A public address for the policy; the bytes go to the local receiver.
    await dispatcher({
      resolver: async () => [{ address: '93.184.216.34', family: 4 }],
      transport: (req) => nodeTransport({ ...req, url: new URL(r.url), address: { address: '127.0.0.1', family: 4 } }),
    }).runOnce();
    expect(r.received).toHaveLength(1);

    const got = await detail(event.id, session, 'live');
    const attempt = got.deliveries[0]?.attempts[0] as AttemptJson;
    expect(attempt.statusCode).toBe(500);
    expect(attempt.responseExcerpt).toBe('x'.repeat(2048));
    expect(got.payload.length).toBeGreaterThan(4000);
    expect(got.payload).toBe(r.received[0]?.body);
    expect(attempt.requestBodyExcerpt).toBe(`${got.payload.slice(0, 2048)}…`);
  });
});

describe('who sees what', () => {
  it("another merchant's event, the other mode's event and an unknown id are 404", async () => {
    const mine = await makeEvent(ctx, m.merchantId);
    const live = await makeEvent(ctx, m.merchantId, { mode: 'live' });
    expect((await dash('GET', `/test/events/${mine.id}`, otherSession)).statusCode).toBe(404);
    expect((await dash('GET', `/live/events/${mine.id}`)).statusCode).toBe(404);
    expect((await dash('GET', `/test/events/${live.id}`)).statusCode).toBe(404);
    const unknown = await dash('GET', '/test/events/evt_00000000000000000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found' });
    expect((await dash('GET', `/live/events/${live.id}`)).statusCode).toBe(200);
    // Without a session: 401, not the event.
    expect((await ctx.app.inject({ method: 'GET', url: `/dashboard/api/test/events/${mine.id}` })).statusCode).toBe(401);
  });
});

describe('resend', () => {
  it('to one endpoint or to all: each resend is a new delivery with its own attempt', async () => {
    const a = await receiver();
    const b = await receiver();
    const epA = await endpoint(m, a.url);
    await endpoint(m, b.url);
    const event = await makeEvent(ctx, m.merchantId);
    await dispatcher().runOnce();
    expect((await detail(event.id)).deliveries).toHaveLength(2);

    const one = await dash('POST', `/test/events/${event.id}/resend`, session, { endpointId: epA.id });
    expect(one.statusCode, one.body).toBe(200);
    await dispatcher().runOnce();
    let got = await detail(event.id);
    const toA = got.deliveries.filter((d) => d.endpoint?.id === epA.id);
    expect(toA).toHaveLength(2);
    expect(toA.every((d) => d.status === 'succeeded' && d.attempts.length === 1)).toBe(true);
    expect(a.received).toHaveLength(2);
    expect(b.received).toHaveLength(1);

    const all = await dash('POST', `/test/events/${event.id}/resend`, session, {});
    expect(all.json().data).toHaveLength(2);
    await dispatcher().runOnce();
    got = await detail(event.id);
    expect(got.deliveries).toHaveLength(5);
    expect(a.received).toHaveLength(3);
    expect(b.received).toHaveLength(2);
    // The same event, the same body, each time.
    expect(new Set([...a.received, ...b.received].map((x) => x.body)).size).toBe(1);

    // Another merchant cannot resend it.
    expect((await dash('POST', `/test/events/${event.id}/resend`, otherSession, {})).statusCode).toBe(404);
  });
});

describe('the list', () => {
  it('filters by type and by creation period, and pages', async () => {
    const who = await createMerchant(ctx, 'Lister');
    const s = await login(who);
    const list = async (q: string) => {
      const res = await dash('GET', `/test/events${q}`, s);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: { id: string; type: string }[]; hasMore: boolean };
    };
    const t0 = ctx.clock.now();
    const first = await makeEvent(ctx, who.merchantId, { type: 'payment.completed' });
    ctx.clock.advance(10 * MINUTE);
    const t1 = ctx.clock.now();
    const second = await makeEvent(ctx, who.merchantId, { type: 'payment.failed' });
    ctx.clock.advance(10 * MINUTE);
    const third = await makeEvent(ctx, who.merchantId, { type: 'payment.completed' });

    expect((await list('')).data.map((e) => e.id)).toEqual([third.id, second.id, first.id]);
    expect((await list('?type=payment.completed')).data.map((e) => e.id)).toEqual([third.id, first.id]);
    expect((await list(`?createdGte=${t1.toISOString()}`)).data.map((e) => e.id)).toEqual([third.id, second.id]);
    expect((await list(`?createdGte=${t0.toISOString()}&createdLt=${t1.toISOString()}`)).data.map((e) => e.id)).toEqual([first.id]);
    const page1 = await list('?limit=2');
    expect(page1).toMatchObject({ hasMore: true });
    const page2 = await list(`?limit=2&startingAfter=${page1.data[1]?.id}`);
    expect(page2).toMatchObject({ hasMore: false, data: [{ id: first.id }] });
    for (const bad of ['?type=nope', '?createdGte=yesterday', '?deliveryStatus=lost', '?startingAfter=pi_x', '?limit=0']) {
      const res = await dash('GET', `/test/events${bad}`, s);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().code).toBe('validation_error');
    }
  });

  it('the failed filter pages through failing deliveries only, with the type filter on top', async () => {
    const who = await createMerchant(ctx, 'Failing');
    const s = await login(who);
    const r = await receiver((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    await endpoint(who, r.url);
    // A second apart: ids of one millisecond do not sort by creation.
    const failed = [];
    for (const type of ['payment.completed', 'payment.failed', 'payment.completed'] as const) {
      failed.push(await makeEvent(ctx, who.merchantId, { type }));
      ctx.clock.advance(SECOND);
    }
    await dispatcher().runOnce();
    r.handler = ok;
    const fine = await makeEvent(ctx, who.merchantId);
    await dispatcher().runOnce();
    const list = async (q: string) => (await dash('GET', `/test/events?deliveryStatus=failed${q}`, s)).json() as { data: { id: string }[]; hasMore: boolean };
    const all = await list('');
    expect(all.data.map((e) => e.id)).toEqual(failed.map((e) => e.id).reverse());
    expect(all.data.map((e) => e.id)).not.toContain(fine.id);
    const p1 = await list('&limit=2');
    expect(p1.hasMore).toBe(true);
    const p2 = await list(`&limit=2&startingAfter=${p1.data[1]?.id}`);
    expect(p2).toMatchObject({ hasMore: false, data: [{ id: failed[0]?.id }] });
    expect((await list('&type=payment.failed')).data.map((e) => e.id)).toEqual([failed[1]?.id]);
  });

  it('the filtered queries use their indexes', async () => {
    const plans = await ctx.deps.db.transaction().execute(async (tx) => {
      // On a small table the planner rightly prefers a scan: forbid it, to see which index fits.
      // And the other indexes that can give events in id order (the broader one, the primary key,
      // walked backwards with a filter), rolled back with the rest: on a table the planner thinks
      // is near empty they cost about the same, and it picks by their sizes on disk, which rows
      // of earlier files on a reused database swell.
      await sql`set local enable_seqscan = off`.execute(tx);
      await sql`drop index events_merchant`.execute(tx);
      await sql`alter table events drop constraint events_pkey cascade`.execute(tx);
      const explain = async (q: ReturnType<typeof sql>) => JSON.stringify((await sql`explain ${q}`.execute(tx)).rows);
      return [
        await explain(
          sql`select event_id from webhook_deliveries where merchant_id = 'm' and mode = 'test' and last_error is not null group by event_id order by event_id desc limit 10`,
        ),
        await explain(sql`select * from events where merchant_id = 'm' and mode = 'test' and type = 'payment.failed' order by id desc limit 10`),
      ];
    });
    expect(plans[0]).toMatch(/webhook_deliveries_failing/);
    expect(plans[1]).toMatch(/events_merchant_type/);
  });
});
