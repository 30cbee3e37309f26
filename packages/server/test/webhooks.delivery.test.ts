import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDispatcher, type DispatcherOptions } from '../src/modules/webhooks/dispatcher.ts';
import type { PaymentEvent } from '../src/modules/intents/index.ts';
import { nodeTransport, type TransportRequest, type TransportResponse } from '../src/modules/webhooks/transport.ts';
import { DAY, HOUR, MINUTE, SECOND } from '../src/platform/clock.ts';
import { call, createMerchant, createTestContext, setTotpEnrolled, sk, type TestContext, type TestMerchant } from './harness.ts';
import { makeEvent, ok, type Receiver, startReceiver, testIntent } from './webhooks.receiver.ts';

/**
 * Delivery end to end: events recorded in a transaction, a dispatcher driven by hand with the
 * ManualClock, real HTTP receivers on 127.0.0.1. Nothing sleeps: time moves by the clock, and
 * the only real waits are the short injected timeouts of receivers that hang.
 */
let ctx: TestContext;
const receivers: Receiver[] = [];
const stripe = new Stripe('sk_test_unused_by_these_tests');

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  // Each test starts with an empty queue: what a test leaves pending must not reach the next one.
  await ctx.deps.db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null }).where('status', '=', 'pending').execute();
});

async function receiver(handler = ok, port = 0) {
  const r = await startReceiver(handler, port);
  receivers.push(r);
  return r;
}

// 2 s: a local receiver's answer on a loaded CI machine can take more than half a second.
const dispatcher = (opts: DispatcherOptions = {}) => createDispatcher(ctx.deps, { timeoutMs: 2000, concurrency: 8, ...opts });

async function endpoint(m: TestMerchant, url: string, extra: Record<string, unknown> = {}) {
  const res = await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
}

async function deliveries(endpointId: string) {
  return ctx.deps.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('id').execute();
}

/** Verifiers check the timestamp against the real clock: make "real now" the ManualClock's now. */
function atClockTime<T>(fn: () => T): T {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ctx.clock.now());
  try {
    return fn();
  } finally {
    vi.useRealTimers();
  }
}

function header(r: { headers: Record<string, string | string[] | undefined> }, name: string): string {
  return String(r.headers[name]);
}

describe('signing', () => {
  it('every delivery verifies with Stripe’s constructEvent and with the Standard Webhooks library', async () => {
    const m = await createMerchant(ctx, 'Signer');
    const r = await receiver();
    const ep = await endpoint(m, r.url);
    const event = await makeEvent(ctx, m.merchantId, { metadata: { orderId: 'A-1', note: 'crème brûlée ✓ "quoted"' } });
    expect(await dispatcher().runOnce()).toMatchObject({ claimed: 1, succeeded: 1 });

    expect(r.received).toHaveLength(1);
    const got = r.received[0] as (typeof r.received)[number];
    const row = await ctx.deps.db.selectFrom('events').select('payload').where('id', '=', event.id).executeTakeFirstOrThrow();
    expect(got.body).toBe(row.payload);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toBe(event.id);
    const t = Math.floor(ctx.clock.now().getTime() / 1000);
    expect(got.headers['webhook-timestamp']).toBe(String(t));
    expect(header(got, 'pay-signature')).toMatch(new RegExp(`^t=${t},v1=[0-9a-f]{64}$`));
    expect(header(got, 'webhook-signature')).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    // Stripe's official library, as a merchant would call it.
    const parsed = stripe.webhooks.constructEvent(got.body, header(got, 'pay-signature'), ep.secret, 300, undefined, ctx.clock.now().getTime());
    expect(parsed).toMatchObject({ id: event.id, type: 'payment.completed' });
    expect((parsed as unknown as PaymentEvent).data.paymentIntent.metadata).toEqual({ orderId: 'A-1', note: 'crème brûlée ✓ "quoted"' });
    // Standard Webhooks, keyed with the bytes after whsec_.
    const verified = atClockTime(() => new Webhook(ep.secret).verify(got.body, got.headers as Record<string, string>));
    expect(verified).toMatchObject({ id: event.id });

    // Both refuse a tampered body, another secret, and a stale timestamp.
    const tampered = got.body.replace('5000', '5001');
    expect(() => stripe.webhooks.constructEvent(tampered, header(got, 'pay-signature'), ep.secret, 300, undefined, ctx.clock.now().getTime())).toThrow();
    expect(() => atClockTime(() => new Webhook(ep.secret).verify(tampered, got.headers as Record<string, string>))).toThrow();
    const otherSecret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect(() => stripe.webhooks.constructEvent(got.body, header(got, 'pay-signature'), otherSecret, 300, undefined, ctx.clock.now().getTime())).toThrow();
    expect(() => atClockTime(() => new Webhook(otherSecret).verify(got.body, got.headers as Record<string, string>))).toThrow();
    expect(() =>
      stripe.webhooks.constructEvent(got.body, header(got, 'pay-signature'), ep.secret, 300, undefined, ctx.clock.now().getTime() + 301_000),
    ).toThrow(/tolerance/);
  });

  it('during a secret roll each delivery carries one signature per live secret; after 24 h only the new one', async () => {
    const m = await createMerchant(ctx, 'Roller');
    const r = await receiver();
    const ep = await endpoint(m, r.url);
    const fresh = (await call(ctx.app, 'POST', `/webhook-endpoints/${ep.id}/roll-secret`, sk(m))).json().secret as string;
    await makeEvent(ctx, m.merchantId);
    await dispatcher().runOnce();
    const during = r.received[0] as (typeof r.received)[number];
    expect(header(during, 'pay-signature').match(/v1=/g)).toHaveLength(2);
    expect(header(during, 'webhook-signature').split(' ')).toHaveLength(2);
    for (const secret of [ep.secret, fresh]) {
      expect(stripe.webhooks.constructEvent(during.body, header(during, 'pay-signature'), secret, 300, undefined, ctx.clock.now().getTime())).toBeTruthy();
      expect(atClockTime(() => new Webhook(secret).verify(during.body, during.headers as Record<string, string>))).toBeTruthy();
    }

    ctx.clock.advance(24 * HOUR);
    await makeEvent(ctx, m.merchantId);
    await dispatcher().runOnce();
    const after = r.received[1] as (typeof r.received)[number];
    expect(header(after, 'pay-signature').match(/v1=/g)).toHaveLength(1);
    expect(stripe.webhooks.constructEvent(after.body, header(after, 'pay-signature'), fresh, 300, undefined, ctx.clock.now().getTime())).toBeTruthy();
    expect(() => stripe.webhooks.constructEvent(after.body, header(after, 'pay-signature'), ep.secret, 300, undefined, ctx.clock.now().getTime())).toThrow();
    expect(() => atClockTime(() => new Webhook(ep.secret).verify(after.body, after.headers as Record<string, string>))).toThrow();
  });
});

describe('fan-out', () => {
  it('an event goes to the enabled endpoints of its merchant and mode that want its type, in its transaction', async () => {
    const m = await createMerchant(ctx, 'Fan');
    const other = await createMerchant(ctx, 'Other');
    const all = await endpoint(m, 'https://a.shop.example/h');
    const onlyFailed = await endpoint(m, 'https://b.shop.example/h', { enabledEvents: ['payment.failed'] });
    const wanted = await endpoint(m, 'https://c.shop.example/h', { enabledEvents: ['payment.completed', 'payment.refunded'] });
    const disabled = await endpoint(m, 'https://d.shop.example/h', { enabled: false });
    const live = (
      await call(ctx.app, 'POST', '/webhook-endpoints', { apiKey: m.live.apiKey, secretKey: m.live.secretKey }, { url: 'https://e.shop.example/h' })
    ).json();
    const foreign = await endpoint(other, 'https://f.shop.example/h');

    const event = await makeEvent(ctx, m.merchantId, { type: 'payment.completed' });
    const rows = await ctx.deps.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', event.id).execute();
    expect(rows.map((d) => d.endpoint_id).sort()).toEqual([all.id, wanted.id].sort());
    expect(rows.every((d) => d.status === 'pending' && d.next_attempt_at?.getTime() === ctx.clock.now().getTime())).toBe(true);
    for (const id of [onlyFailed.id, disabled.id, live.id, foreign.id]) expect(await deliveries(id)).toHaveLength(0);

    // A transaction that rolls back leaves neither the event nor its deliveries.
    await expect(
      ctx.deps.db.transaction().execute(async (tx) => {
        const { recordEvent } = await import('./webhooks.receiver.ts');
        await recordEvent(tx, ctx.deps, {
          merchantId: m.merchantId,
          mode: 'test',
          type: 'payment.failed',
          apiVersion: '2026-11-01',
          paymentIntent: testIntent({ id: 'pi_rolledback' }),
        });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await ctx.deps.db.selectFrom('events').select('id').where('intent_id', '=', 'pi_rolledback').execute()).toHaveLength(0);
    expect(await deliveries(onlyFailed.id)).toHaveLength(0);
  });
});

describe('retries', () => {
  it('a receiver down for two simulated days gets everything afterwards', async () => {
    const m = await createMerchant(ctx, 'Outage');
    const r = await receiver();
    const port = Number(new URL(r.url).port);
    const ep = await endpoint(m, r.url);
    await r.close();
    receivers.splice(receivers.indexOf(r), 1);

    const d = dispatcher();
    const made: string[] = [];
    const start = ctx.clock.now().getTime();
    // Two days of outage: events keep coming, every attempt is refused.
    while (ctx.clock.now().getTime() - start < 2 * DAY) {
      if (made.length < 20) made.push((await makeEvent(ctx, m.merchantId)).id);
      await d.runOnce();
      ctx.clock.advance(10 * MINUTE);
    }
    const during = await deliveries(ep.id);
    expect(during).toHaveLength(20);
    expect(during.every((x) => x.status === 'pending' && x.attempts > 1)).toBe(true);
    const attempts = await ctx.deps.db
      .selectFrom('webhook_delivery_attempts')
      .selectAll()
      .where('delivery_id', '=', (during[0] as { id: string }).id)
      .orderBy('id')
      .execute();
    expect(attempts.every((a) => !a.succeeded && a.status_code === null && /ECONNREFUSED/.test(a.error ?? ''))).toBe(true);

    // The receiver comes back on the same address.
    const back = await receiver(ok, port);
    for (let i = 0; i < 8 * 6 && (await deliveries(ep.id)).some((x) => x.status !== 'succeeded'); i++) {
      await d.runOnce();
      ctx.clock.advance(10 * MINUTE);
    }
    const after = await deliveries(ep.id);
    expect(after.map((x) => x.status)).toEqual(Array(20).fill('succeeded'));
    expect(new Set(back.received.map((x) => x.headers['webhook-id']))).toEqual(new Set(made));
  });

  it('retries with backoff: the first retry within a minute, then growing; failed after about 3 days', async () => {
    const m = await createMerchant(ctx, 'Backoff');
    const r = await receiver((_req, res) => {
      res.writeHead(500);
      res.end('boom');
    });
    const ep = await endpoint(m, r.url);
    await makeEvent(ctx, m.merchantId);
    const d = dispatcher();
    const created = ctx.clock.now().getTime();
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const [row] = await deliveries(ep.id);
      if (row?.status !== 'pending') break;
      if ((row.next_attempt_at?.getTime() ?? Infinity) > ctx.clock.now().getTime()) ctx.clock.set(row.next_attempt_at as Date);
      times.push(ctx.clock.now().getTime() - created);
      await d.runOnce();
    }
    const [row] = await deliveries(ep.id);
    expect(row?.status).toBe('failed');
    expect(row?.last_status_code).toBe(500);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    expect(gaps[0]).toBeGreaterThan(0);
    expect(gaps[0]).toBeLessThanOrEqual(MINUTE);
    expect(gaps[3]).toBeGreaterThan(gaps[0] as number);
    const last = times[times.length - 1] as number;
    expect(last).toBeGreaterThanOrEqual(3 * DAY - 1);
    expect(last).toBeLessThanOrEqual(3 * DAY);
    expect(times.length).toBeGreaterThanOrEqual(15);
    expect(times.length).toBeLessThanOrEqual(30);
    expect(r.received).toHaveLength(times.length);
  });

  it('honours Retry-After (seconds and HTTP date)', async () => {
    const m = await createMerchant(ctx, 'RetryAfter');
    let answer: Record<string, string> = { 'retry-after': '120' };
    const r = await receiver((_req, res) => {
      res.writeHead(503, answer);
      res.end();
    });
    const ep = await endpoint(m, r.url);
    await makeEvent(ctx, m.merchantId);
    const d = dispatcher();
    await d.runOnce();
    let [row] = await deliveries(ep.id);
    expect(row?.next_attempt_at?.getTime()).toBe(ctx.clock.now().getTime() + 120 * SECOND);
    ctx.clock.advance(119 * SECOND);
    expect((await d.runOnce()).claimed).toBe(0);
    ctx.clock.advance(SECOND);
    answer = { 'retry-after': new Date(ctx.clock.now().getTime() + 2 * HOUR).toUTCString() };
    expect((await d.runOnce()).claimed).toBe(1);
    [row] = await deliveries(ep.id);
    expect(row?.next_attempt_at?.getTime()).toBe(ctx.clock.now().getTime() + 2 * HOUR);
  });

  it('an endpoint failing for 5 days is disabled; enabling it again resumes its parked deliveries', async () => {
    const m = await createMerchant(ctx, 'Failing');
    let up = false;
    const r = await receiver((_req, res) => {
      res.writeHead(up ? 200 : 500);
      res.end();
    });
    const ep = await endpoint(m, r.url);
    const d = dispatcher();
    const start = ctx.clock.now().getTime();
    while (ctx.clock.now().getTime() - start < 5 * DAY + HOUR) {
      await makeEvent(ctx, m.merchantId);
      await d.runOnce();
      ctx.clock.advance(6 * HOUR);
    }
    const view = (await call(ctx.app, 'GET', `/webhook-endpoints/${ep.id}`, sk(m))).json();
    expect(view).toMatchObject({ enabled: false, disabledReason: 'failing' });
    const pending = (await deliveries(ep.id)).filter((x) => x.status === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.every((x) => x.next_attempt_at === null)).toBe(true);
    // New events skip a disabled endpoint.
    const skipped = await makeEvent(ctx, m.merchantId);
    expect((await deliveries(ep.id)).some((x) => x.event_id === skipped.id)).toBe(false);

    up = true;
    await call(ctx.app, 'PATCH', `/webhook-endpoints/${ep.id}`, sk(m), { enabled: true });
    const before = r.received.length;
    await d.runOnce();
    expect(r.received.length - before).toBe(pending.length);
    expect((await deliveries(ep.id)).filter((x) => x.status === 'pending')).toHaveLength(0);
  });
});

describe('receivers that misbehave', () => {
  async function oneDelivery(handler: Parameters<typeof startReceiver>[0], opts: DispatcherOptions = {}) {
    const m = await createMerchant(ctx, 'Misbehaving');
    const r = await receiver(handler);
    const ep = await endpoint(m, r.url);
    await makeEvent(ctx, m.merchantId);
    const summary = await dispatcher(opts).runOnce();
    const [row] = await deliveries(ep.id);
    const attempts = await ctx.deps.db
      .selectFrom('webhook_delivery_attempts')
      .selectAll()
      .where('delivery_id', '=', row?.id as string)
      .execute();
    return { m, r, ep, summary, row, attempt: attempts[0], attempts };
  }

  it('a receiver that hangs times out (short timeout injected) and is retried within a minute', async () => {
    const { row, attempt } = await oneDelivery(() => {}, { timeoutMs: 150 });
    expect(row).toMatchObject({ status: 'pending', last_status_code: null });
    expect(attempt?.error).toMatch(/timed out after 150 ms/);
    expect(attempt?.latency_ms).toBeGreaterThanOrEqual(140);
    expect((row?.next_attempt_at?.getTime() ?? 0) - ctx.clock.now().getTime()).toBeLessThanOrEqual(MINUTE);
  });

  it('a receiver that resets the connection is a failure', async () => {
    const { row, attempt } = await oneDelivery((req) => req.socket.destroy());
    expect(row?.status).toBe('pending');
    expect(attempt?.error).toMatch(/ECONNRESET|socket hang up/);
  });

  it('500 is a failure; the answer of a loopback target is never stored (issue 20)', async () => {
    const { row, attempt } = await oneDelivery((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('database on fire');
    });
    expect(row).toMatchObject({ status: 'pending', last_status_code: 500, last_error: 'HTTP 500' });
    expect(attempt).toMatchObject({ status_code: 500, response_excerpt: null, succeeded: false });
  });

  it('the excerpt of a public target is logged, NUL bytes and all made safe', async () => {
    const m = await createMerchant(ctx, 'Public');
    const ep = (
      await call(ctx.app, 'POST', '/webhook-endpoints', { apiKey: m.live.apiKey, secretKey: m.live.secretKey }, { url: 'https://hooks.public.example/x' })
    ).json();
    const d = dispatcher({
      resolver: async () => [{ address: '93.184.216.34', family: 4 }],
      transport: async () => ({ status: 500, headers: {}, excerpt: 'database \u0000on fire\ufffd' }),
    });
    await makeEvent(ctx, m.merchantId, { mode: 'live' });
    await d.runOnce();
    const [row] = await deliveries(ep.id);
    const attempts = await ctx.deps.db
      .selectFrom('webhook_delivery_attempts')
      .selectAll()
      .where('delivery_id', '=', row?.id as string)
      .execute();
    expect(attempts[0]).toMatchObject({ status_code: 500, response_excerpt: 'database on fire\ufffd' });
  });

  it('301 is a failure and the redirect is not followed', async () => {
    const elsewhere = await receiver();
    const { row } = await oneDelivery((_req, res) => {
      res.writeHead(301, { location: elsewhere.url });
      res.end();
    });
    expect(row).toMatchObject({ status: 'pending', last_status_code: 301 });
    expect(elsewhere.received).toHaveLength(0);
  });

  it('410 disables the endpoint and fails the delivery', async () => {
    const { m, ep, row } = await oneDelivery((_req, res) => {
      res.writeHead(410);
      res.end();
    });
    expect(row).toMatchObject({ status: 'failed', last_status_code: 410 });
    expect((await call(ctx.app, 'GET', `/webhook-endpoints/${ep.id}`, sk(m))).json()).toMatchObject({ enabled: false, disabledReason: 'gone' });
  });

  it('a huge body is not downloaded: the excerpt is capped and a 200 still acknowledges', async () => {
    let written = 0;
    const answers: TransportResponse[] = [];
    const { row, attempt } = await oneDelivery(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const pump = () => {
          while (written < 50 * 1024 * 1024) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => {});
        pump();
      },
      { transport: async (req) => answers[answers.push(await nodeTransport(req)) - 1] as TransportResponse },
    );
    expect(row?.status).toBe('succeeded');
    expect(answers[0]?.excerpt.length).toBe(2048);
    expect(attempt?.response_excerpt).toBeNull();
    expect(written).toBeLessThan(50 * 1024 * 1024);
  });

  it('invalid UTF-8 in an answer is read safely', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(500);
      res.end(Buffer.from([0x61, 0x00, 0xff, 0xfe, 0x62]));
    });
    const res = await nodeTransport({
      url: new URL(r.url),
      address: { address: '127.0.0.1', family: 4 },
      headers: {},
      body: '{}',
      timeoutMs: 1000,
      maxExcerptBytes: 100,
    });
    expect(res.excerpt.startsWith('a\u0000') && res.excerpt.endsWith('b')).toBe(true);
  });
});

describe('dispatchers', () => {
  it('a claim takes at most its limit, and claimed deliveries are not claimed again while leased', async () => {
    const m = await createMerchant(ctx, 'Claims');
    await endpoint(m, 'https://claims.shop.example/h');
    for (let i = 0; i < 10; i++) await makeEvent(ctx, m.merchantId);
    const a = dispatcher();
    const first = await a.claim(3);
    expect(first).toHaveLength(3);
    const rest = await dispatcher().claim(100);
    expect(rest).toHaveLength(7);
    expect(new Set([...first, ...rest].map((c) => c.id)).size).toBe(10);
    expect(await a.claim(100)).toHaveLength(0);
  });

  it('a dispatcher killed mid-delivery loses nothing: the lease lapses and another one delivers', async () => {
    const m = await createMerchant(ctx, 'Killed');
    const r = await receiver();
    const ep = await endpoint(m, r.url);
    const events = [];
    for (let i = 0; i < 5; i++) events.push(await makeEvent(ctx, m.merchantId));

    // Dispatcher A claims everything and hangs forever inside its transport (as if killed).
    const hung: TransportRequest[] = [];
    const a = dispatcher({ transport: (req) => (hung.push(req), new Promise(() => {})) });
    void a.runOnce();
    await vi.waitFor(() => expect(hung).toHaveLength(5));

    // B finds nothing to do while A's lease holds...
    const b = dispatcher();
    expect((await b.runOnce()).claimed).toBe(0);
    ctx.clock.advance(60 * SECOND);
    expect((await b.runOnce()).claimed).toBe(0);
    // ...and delivers all of it once the lease (timeout + 60 s) has lapsed.
    ctx.clock.advance(11 * SECOND);
    expect(await b.runOnce()).toMatchObject({ claimed: 5, succeeded: 5 });
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set(events.map((e) => e.id)));
    expect((await deliveries(ep.id)).map((x) => x.status)).toEqual(Array(5).fill('succeeded'));
  });

  it('a late answer under a lapsed lease does not undo the newer claim', async () => {
    const m = await createMerchant(ctx, 'Late');
    const r = await receiver((_req, res) => {
      res.writeHead(500);
      res.end();
    });
    const ep = await endpoint(m, r.url);
    await makeEvent(ctx, m.merchantId);
    const a = dispatcher();
    const claimedByA = await a.claim(10);
    ctx.clock.advance(2 * MINUTE);
    r.handler = ok;
    const b = dispatcher();
    expect(await b.runOnce()).toMatchObject({ claimed: 1, succeeded: 1 });
    // A comes back with its stale claim: past its lease it is not sent again, and the success stands.
    r.handler = (_req, res) => {
      res.writeHead(500);
      res.end();
    };
    expect(await a.deliver(claimedByA)).toEqual(['lost_lease']);
    const [row] = await deliveries(ep.id);
    expect(row?.status).toBe('succeeded');
  });

  it('a claimed delivery whose lease would lapse before its answer is given back unsent', async () => {
    const m = await createMerchant(ctx, 'Stale');
    const r = await receiver();
    const ep = await endpoint(m, r.url);
    await makeEvent(ctx, m.merchantId);
    const d = dispatcher();
    const claimed = await d.claim(10);
    expect(claimed).toHaveLength(1);
    // The lease is the timeout (2 s here) + 60 s: waiting 60 s in line leaves too little.
    ctx.clock.advance(60 * SECOND);
    expect(await d.deliver(claimed)).toEqual(['lost_lease']);
    expect(r.received).toHaveLength(0);
    const [row] = await deliveries(ep.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 0, lease_token: null });
    expect(row?.next_attempt_at?.getTime()).toBe(ctx.clock.now().getTime());
    expect(await d.runOnce()).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(r.received).toHaveLength(1);
  });

  it('stop() lets in-flight deliveries finish', async () => {
    const m = await createMerchant(ctx, 'Stopper');
    const { r, release } = await gatedReceiver();
    const ep = await endpoint(m, r.url);
    await makeEvent(ctx, m.merchantId);
    const d = dispatcher({ pollIntervalMs: 5, timeoutMs: 5000 });
    d.start();
    await vi.waitFor(() => expect(r.received).toHaveLength(1));
    let stopped = false;
    const stopping = d.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    const [row] = await deliveries(ep.id);
    expect(row?.status).toBe('succeeded');
  });

  it('stop() gives back what was claimed ahead and not sent, due at once', async () => {
    const m = await createMerchant(ctx, 'Ahead');
    const { r, release } = await gatedReceiver();
    const ep = await endpoint(m, r.url);
    for (let i = 0; i < 5; i++) await makeEvent(ctx, m.merchantId);
    const d = dispatcher({ concurrency: 1, pollIntervalMs: 5, timeoutMs: 5000 });
    d.start();
    await vi.waitFor(() => expect(r.received).toHaveLength(1));
    const stopping = d.stop();
    release();
    await stopping;
    expect(r.received).toHaveLength(1);
    const rows = await deliveries(ep.id);
    expect(rows.filter((x) => x.status === 'succeeded')).toHaveLength(1);
    const back = rows.filter((x) => x.status === 'pending');
    expect(back).toHaveLength(4);
    expect(back.every((x) => x.attempts === 0 && x.lease_token === null && x.next_attempt_at?.getTime() === ctx.clock.now().getTime())).toBe(true);
  });

  it('the background loop delivers what is committed', async () => {
    const m = await createMerchant(ctx, 'Looper');
    const r = await receiver();
    await endpoint(m, r.url);
    const d = dispatcher({ pollIntervalMs: 5 });
    d.start();
    try {
      const made = [];
      for (let i = 0; i < 30; i++) made.push((await makeEvent(ctx, m.merchantId)).id);
      // A real loop on a shared machine: a generous bound, never a sleep.
      await vi.waitFor(() => expect(r.received).toHaveLength(30), { timeout: 45_000 });
      expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set(made));
    } finally {
      await d.stop();
    }
  });
});

describe('batches', () => {
  it('one batch where one delivery fails: the others are recorded succeeded, each with its attempt, and the failure retries', async () => {
    const m = await createMerchant(ctx, 'Mixed');
    const bad = new Set<string>();
    const r = await receiver((req, res, body) => {
      const id = (JSON.parse(body) as { id: string }).id;
      res.writeHead(bad.has(id) ? 500 : 200);
      res.end();
    });
    const ep = await endpoint(m, r.url);
    // The endpoint was failing: the batch's successes end that run.
    await ctx.deps.db.updateTable('webhook_endpoints').set({ failing_since: ctx.clock.now() }).where('id', '=', ep.id).execute();
    const events: { id: string }[] = [];
    for (let i = 0; i < 6; i++) events.push(await makeEvent(ctx, m.merchantId));
    bad.add((events[2] as { id: string }).id);

    const d = dispatcher();
    const claimed = await d.claim(10);
    expect(claimed).toHaveLength(6);
    const outcomes = await d.deliver(claimed);
    expect(outcomes.filter((o) => o === 'succeeded')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'retrying')).toHaveLength(1);

    const rows = await deliveries(ep.id);
    const failed = rows.find((x) => x.event_id === events[2]?.id);
    expect(failed).toMatchObject({ status: 'pending', last_status_code: 500, last_error: 'HTTP 500', attempts: 1 });
    expect(rows.filter((x) => x.status === 'succeeded')).toHaveLength(5);
    expect(
      rows
        .filter((x) => x.status === 'succeeded')
        .every((x) => x.last_status_code === 200 && x.last_error === null && x.completed_at !== null && x.lease_token === null),
    ).toBe(true);
    const attempts = await ctx.deps.db
      .selectFrom('webhook_delivery_attempts')
      .selectAll()
      .where(
        'delivery_id',
        'in',
        rows.map((x) => x.id),
      )
      .execute();
    expect(attempts).toHaveLength(6);
    for (const row of rows) {
      const mine = attempts.filter((a) => a.delivery_id === row.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]?.succeeded).toBe(row.status === 'succeeded');
      expect(JSON.parse(mine[0]?.request_headers ?? '{}')).toMatchObject({ 'webhook-id': row.event_id });
    }
    const [endpointRow] = await ctx.deps.db.selectFrom('webhook_endpoints').select(['failing_since', 'enabled']).where('id', '=', ep.id).execute();
    // The failure came with successes from the same endpoint: whichever was recorded last, the
    // endpoint stays enabled, and the retry is due within a minute.
    expect(endpointRow?.enabled).toBe(true);
    expect((failed?.next_attempt_at?.getTime() ?? 0) - ctx.clock.now().getTime()).toBeLessThanOrEqual(MINUTE);

    bad.clear();
    ctx.clock.advance(MINUTE);
    expect(await d.runOnce()).toMatchObject({ claimed: 1, succeeded: 1 });
    expect((await deliveries(ep.id)).every((x) => x.status === 'succeeded')).toBe(true);
    const [healthy] = await ctx.deps.db.selectFrom('webhook_endpoints').select('failing_since').where('id', '=', ep.id).execute();
    expect(healthy?.failing_since).toBeNull();
  });

  it('two dispatchers claiming at the same moment never send one delivery twice', async () => {
    const m = await createMerchant(ctx, 'Racing');
    const r = await receiver();
    await endpoint(m, r.url);
    const made: string[] = [];
    for (let i = 0; i < 40; i++) made.push((await makeEvent(ctx, m.merchantId)).id);
    const sent = new Map<string, number>();
    const counting = (req: TransportRequest) => {
      const id = String(req.headers['webhook-id']);
      sent.set(id, (sent.get(id) ?? 0) + 1);
      return nodeTransport(req);
    };
    const a = dispatcher({ transport: counting, concurrency: 4 });
    const b = dispatcher({ transport: counting, concurrency: 4 });
    const [ra, rb] = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(ra.claimed + rb.claimed).toBe(40);
    expect(ra.succeeded + rb.succeeded).toBe(40);
    expect([...sent.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(sent.keys())).toEqual(new Set(made));
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set(made));
    expect(r.received).toHaveLength(40);
  });
});

describe('SSRF at delivery time', () => {
  it('resolves, checks, then connects to the checked address (DNS rebinding)', async () => {
    const m = await createMerchant(ctx, 'Rebind');
    const ep = (
      await call(ctx.app, 'POST', '/webhook-endpoints', { apiKey: m.live.apiKey, secretKey: m.live.secretKey }, { url: 'https://hooks.rebind.example/x' })
    ).json();
    let answer = '10.0.0.9';
    const sent: TransportRequest[] = [];
    const d = dispatcher({
      resolver: async () => [{ address: answer, family: 4 }],
      transport: async (req) => {
        sent.push(req);
        return { status: 200, headers: {}, excerpt: '' };
      },
    });
    await makeEvent(ctx, m.merchantId, { mode: 'live' });
    await d.runOnce();
    expect(sent).toHaveLength(0);
    let [row] = await deliveries(ep.id);
    expect(row?.last_error).toMatch(/refused to connect: hooks\.rebind\.example resolves to 10\.0\.0\.9 is a private address/);
    expect(row?.status).toBe('pending');

    answer = '127.0.0.1';
    ctx.clock.set(row?.next_attempt_at as Date);
    await d.runOnce();
    expect(sent).toHaveLength(0);

    answer = '93.184.216.34';
    [row] = await deliveries(ep.id);
    ctx.clock.set(row?.next_attempt_at as Date);
    await d.runOnce();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.address).toEqual({ address: '93.184.216.34', family: 4 });
    expect(sent[0]?.url.hostname).toBe('hooks.rebind.example');
    [row] = await deliveries(ep.id);
    expect(row?.status).toBe('succeeded');
  });
});

describe('deliveries and resend API', () => {
  it('lists an endpoint’s deliveries with every attempt; resend creates new deliveries', async () => {
    const m = await createMerchant(ctx, 'Resender');
    let status = 500;
    const r = await receiver((_req, res) => {
      res.writeHead(status);
      res.end(`status ${status}`);
    });
    const ep = await endpoint(m, r.url);
    const quiet = await endpoint(m, 'https://quiet.shop.example/h', { enabledEvents: ['payment.failed'] });
    const event = await makeEvent(ctx, m.merchantId);
    const d = dispatcher();
    await d.runOnce();
    ctx.clock.advance(MINUTE);
    status = 200;
    await d.runOnce();

    const list = (await call(ctx.app, 'GET', `/webhook-endpoints/${ep.id}/deliveries`, sk(m))).json();
    expect(list.hasMore).toBe(false);
    expect(list.data).toHaveLength(1);
    const delivery = list.data[0];
    expect(delivery).toMatchObject({
      object: 'webhook_delivery',
      eventId: event.id,
      endpointId: ep.id,
      status: 'succeeded',
      attemptCount: 2,
      lastStatusCode: 200,
      nextAttemptAt: null,
    });
    expect(delivery.id).toMatch(/^wd_/);
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ statusCode: 500, responseExcerpt: null, error: 'HTTP 500', succeeded: false, latencyMs: expect.any(Number) }),
      expect.objectContaining({ statusCode: 200, responseExcerpt: null, error: null, succeeded: true }),
    ]);
    expect(new Date(delivery.attempts[1].attemptedAt).getTime() - new Date(delivery.attempts[0].attemptedAt).getTime()).toBe(MINUTE);

    // Resend to every endpoint that wants the type, then to one named endpoint.
    const resent = await call(ctx.app, 'POST', `/events/${event.id}/resend`, sk(m));
    expect(resent.statusCode).toBe(200);
    expect(resent.json().data).toEqual([expect.objectContaining({ eventId: event.id, endpointId: ep.id, status: 'pending', attemptCount: 0 })]);
    const named = await call(ctx.app, 'POST', `/events/${event.id}/resend`, sk(m), { endpointId: quiet.id });
    expect(named.json().data).toEqual([expect.objectContaining({ endpointId: quiet.id })]);
    const before = r.received.length;
    await d.runOnce();
    expect(r.received.length - before).toBe(1);
    expect(r.received.filter((x) => x.headers['webhook-id'] === event.id)).toHaveLength(3);
    const again = (await call(ctx.app, 'GET', `/webhook-endpoints/${ep.id}/deliveries?eventId=${event.id}`, sk(m))).json();
    expect(again.data.map((x: { status: string }) => x.status)).toEqual(['succeeded', 'succeeded']);

    await call(ctx.app, 'PATCH', `/webhook-endpoints/${quiet.id}`, sk(m), { enabled: false });
    const refused = await call(ctx.app, 'POST', `/events/${event.id}/resend`, sk(m), { endpointId: quiet.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('endpoint_disabled');
    expect((await call(ctx.app, 'POST', `/events/${event.id}/resend`, sk(m), { endpointId: 'we_nope' })).statusCode).toBe(404);
  });
});

describe("the endpoint's success rate on the dashboard", () => {
  it('counts the deliveries attempted in the last 24 hours and those that succeeded, for its own merchant and mode only', async () => {
    const m = await createMerchant(ctx, 'Rates');
    const other = await createMerchant(ctx, 'Others');
    const signIn = async () => {
      const login = await ctx.app.inject({ method: 'POST', url: '/dashboard/api/login', payload: m.dashboard });
      expect(login.statusCode, login.body).toBe(200);
      return String(login.headers['set-cookie']).split(';')[0] as string;
    };
    let cookie = await signIn();
    const stats = async (id: string, mode = 'test', who?: string) =>
      ctx.app.inject({ method: 'GET', url: `/dashboard/api/${mode}/webhook-endpoints/${id}/stats`, headers: { cookie: who ?? cookie } });
    const r = await receiver();
    const ep = await endpoint(m, r.url);
    const otherEp = await endpoint(other, r.url);

    const empty = (await stats(ep.id)).json();
    expect(empty).toMatchObject({ object: 'webhook_endpoint_stats', endpointId: ep.id, attempted: 0, succeeded: 0, successRate: null, lastFailure: null });
    expect(Date.parse(empty.until) - Date.parse(empty.since)).toBe(DAY);

    // Three acknowledged, then one refused (still pending, to retry): 3 of 4.
    for (let i = 0; i < 3; i++) await makeEvent(ctx, m.merchantId);
    await makeEvent(ctx, other.merchantId);
    expect(await dispatcher().runOnce()).toMatchObject({ succeeded: 4 });
    r.handler = (_req, res) => {
      res.writeHead(500);
      res.end();
    };
    await makeEvent(ctx, m.merchantId);
    expect(await dispatcher().runOnce()).toMatchObject({ claimed: 1, succeeded: 0 });
    const failing = (await stats(ep.id)).json();
    expect(failing).toMatchObject({ attempted: 4, succeeded: 3, successRate: 0.75 });
    // The latest delivery failed: the endpoint is failing, with that error, retried later.
    expect(failing.lastFailure).toEqual({ at: ctx.clock.now().toISOString(), error: expect.stringMatching(/500/), retrying: true });

    // A day later the window is empty; the retry that then succeeds is the only delivery in it.
    ctx.clock.advance(DAY + MINUTE);
    cookie = await signIn();
    expect((await stats(ep.id)).json()).toMatchObject({ attempted: 0, successRate: null });
    r.handler = ok;
    expect(await dispatcher().runOnce()).toMatchObject({ claimed: 1, succeeded: 1 });
    expect((await stats(ep.id)).json()).toMatchObject({ attempted: 1, succeeded: 1, successRate: 1, lastFailure: null });

    // Another merchant's endpoint, or the other mode: 404 (live mode open to an owner enrolled
    // in two-factor sign-in); no session: 401.
    await setTotpEnrolled(ctx, m.dashboard.email, true);
    for (const res of [await stats(otherEp.id), await stats(ep.id, 'live')]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
    expect((await stats(ep.id, 'test', '')).json()).toMatchObject({ status: 401, code: 'session_required' });
  });
});

describe('transport', () => {
  it('sends the Host of the URL while connecting to the checked address', async () => {
    const r = await receiver();
    const port = new URL(r.url).port;
    const { nodeTransport } = await import('../src/modules/webhooks/transport.ts');
    const res = await nodeTransport({
      url: new URL(`http://hooks.example.test:${port}/in?x=1`),
      address: { address: '127.0.0.1', family: 4 },
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
      timeoutMs: 1000,
      maxExcerptBytes: 10,
    });
    expect(res).toMatchObject({ status: 200, excerpt: 'ok' });
    expect(r.received[0]).toMatchObject({ path: '/in?x=1', body: '{"a":1}' });
    expect(r.received[0]?.headers.host).toBe(`hooks.example.test:${port}`);
  });
});

/** A receiver that holds every request until `release()`, then answers 204. */
async function gatedReceiver() {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const r = await receiver((_req, res) => {
    void gate.then(() => {
      res.writeHead(204);
      res.end();
    });
  });
  return { r, release };
}
