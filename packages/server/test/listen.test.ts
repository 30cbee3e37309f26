import type { AddressInfo } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventIdFloor, eventIdTime, isFloor } from '../src/platform/id-cursor.ts';
import { forwardingSecret } from '../src/cli/listen.ts';
import { LOOKBACK_MS } from '../src/modules/listen/listen.service.ts';
import { newId } from '../src/platform/ids.ts';
import { call, createMerchant, createTestContext, sk, type TestContext, type TestMerchant } from './harness.ts';
import { makeEvent } from './webhooks.receiver.ts';

/**
 * The event feed behind `GET /listen/stream` and `caisse listen`: events as they commit, none
 * lost when transactions commit out of id order or across a reconnect with Last-Event-ID; and
 * the stream's HTTP rules.
 */

let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Listener');
  other = await createMerchant(ctx, 'Other');
});
afterAll(() => ctx.close());

const owner = () => ({ merchantId: m.merchantId, mode: 'test' as const });
const ids = (events: { id: string }[]) => events.map((e) => e.id);

describe('cursors', () => {
  it('an event id gives back its millisecond; a floor sorts before every id of that millisecond', () => {
    const at = Date.parse('2026-11-21T10:00:00.123Z');
    const id = newId('event', { now: () => new Date(at) });
    expect(eventIdTime(id)).toBe(at);
    expect(eventIdFloor(at) <= id).toBe(true);
    expect(eventIdFloor(at + 1) > id).toBe(true);
    expect(isFloor(eventIdFloor(at))).toBe(true);
    expect(isFloor(id)).toBe(false);
  });

  it('the forwarding secret depends only on the secret key, and looks like an endpoint secret', () => {
    const a = forwardingSecret('sk_test_aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(a).toBe(forwardingSecret('sk_test_aaaaaaaaaaaaaaaaaaaaaaaa'));
    expect(a).not.toBe(forwardingSecret('sk_test_aaaaaaaaaaaaaaaaaaaaaaab'));
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
  });
});

describe('the feed', () => {
  it('sends the events committed after it opened, once each, oldest first, and none from before', async () => {
    const before = await makeEvent(ctx, m.merchantId);
    ctx.clock.advance(1);
    const feed = ctx.services.listen.openFeed(owner());
    expect(await feed.poll()).toEqual([]);
    const a = await makeEvent(ctx, m.merchantId, { type: 'payment.completed' });
    ctx.clock.advance(5);
    const b = await makeEvent(ctx, m.merchantId, { type: 'payment.refunded' });
    // Another merchant's and live events never show.
    await makeEvent(ctx, other.merchantId);
    await makeEvent(ctx, m.merchantId, { mode: 'live' });
    const got = await feed.poll();
    expect(ids(got)).toEqual([a.id, b.id]);
    expect(ids(got)).not.toContain(before.id);
    // The payload is the event exactly as stored (and delivered to webhooks).
    const stored = await ctx.deps.db.selectFrom('events').select('payload').where('id', '=', a.id).executeTakeFirstOrThrow();
    expect(got[0]).toEqual({ id: a.id, type: 'payment.completed', payload: stored.payload });
    expect(await feed.poll()).toEqual([]);
  });

  it('still sends an event that commits after a newer one was sent (a longer transaction)', async () => {
    ctx.clock.advance(LOOKBACK_MS);
    const feed = ctx.services.listen.openFeed(owner());
    const opened = ctx.clock.now();
    ctx.clock.advance(10_000);
    const newer = await makeEvent(ctx, m.merchantId);
    expect(ids(await feed.poll())).toEqual([newer.id]);
    // An event whose id was made 8 s before `newer`, committed only now.
    ctx.clock.set(new Date(opened.getTime() + 2_000));
    const older = await makeEvent(ctx, m.merchantId);
    expect(older.id < newer.id).toBe(true);
    expect(ids(await feed.poll())).toEqual([older.id]);
    expect(await feed.poll()).toEqual([]);
    ctx.clock.advance(LOOKBACK_MS);
  });

  it('resumed after the last event received (Last-Event-ID), sends every event committed meanwhile, past a page', async () => {
    ctx.clock.advance(1000);
    const first = ctx.services.listen.openFeed(owner());
    const seen = await makeEvent(ctx, m.merchantId);
    expect(ids(await first.poll())).toEqual([seen.id]);
    // Disconnected: 600 events (more than one page of ids) are committed.
    const missed: string[] = [];
    for (let i = 0; i < 600; i++) {
      if (i % 50 === 0) ctx.clock.advance(1);
      missed.push((await makeEvent(ctx, m.merchantId)).id);
    }
    const resumed = ctx.services.listen.openFeed(owner(), { lastEventId: seen.id });
    expect(resumed.resumedAfter).toBe(seen.id);
    const got = ids(await resumed.poll());
    expect(got).not.toContain(seen.id);
    expect(got.filter((id) => missed.includes(id)).sort()).toEqual([...missed].sort());
    expect(await resumed.poll()).toEqual([]);
  });

  it('resumed from the ready cursor of a stream that received nothing, sends what came after it and nothing before', async () => {
    ctx.clock.advance(LOOKBACK_MS);
    const earlier = await makeEvent(ctx, m.merchantId);
    ctx.clock.advance(5);
    const first = ctx.services.listen.openFeed(owner());
    expect(isFloor(first.cursor)).toBe(true);
    ctx.clock.advance(5);
    const during = await makeEvent(ctx, m.merchantId);
    const resumed = ctx.services.listen.openFeed(owner(), { lastEventId: first.cursor });
    const got = ids(await resumed.poll());
    expect(got).toEqual([during.id]);
    expect(got).not.toContain(earlier.id);
  });

  it('filters by type', async () => {
    ctx.clock.advance(LOOKBACK_MS);
    const feed = ctx.services.listen.openFeed(owner(), { types: ['payment.failed', 'payment.canceled'] });
    await makeEvent(ctx, m.merchantId, { type: 'payment.completed' });
    const failed = await makeEvent(ctx, m.merchantId, { type: 'payment.failed' });
    ctx.clock.advance(1);
    const canceled = await makeEvent(ctx, m.merchantId, { type: 'payment.canceled' });
    expect(ids(await feed.poll())).toEqual([failed.id, canceled.id]);
  });
});

describe('GET /listen/stream', () => {
  let base: string;
  const open: AbortController[] = [];

  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    for (const c of open.splice(0)) c.abort();
  });

  const headers = (creds: { apiKey: string; secretKey?: string }, extra: Record<string, string> = {}) => ({
    accept: 'text/event-stream',
    'x-api-key': creds.apiKey,
    ...(creds.secretKey ? { authorization: `Bearer ${creds.secretKey}` } : {}),
    ...extra,
  });

  /** Opens a stream and collects its messages. */
  async function stream(extra: Record<string, string> = {}, query = '') {
    // The ManualClock stands still: a stream opened now starts after the events of earlier tests.
    ctx.clock.advance(LOOKBACK_MS);
    const controller = new AbortController();
    open.push(controller);
    const get = () => fetch(`${base}/listen/stream${query}`, { headers: headers(sk(m) as { apiKey: string }, extra), signal: controller.signal });
    let res = await get();
    // Streams closed by the test before are counted until the server has seen their connection close.
    for (let i = 0; res.status === 422 && i < 100; i++) {
      await res.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 20));
      res = await get();
    }
    const messages: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (e) => messages.push(e) });
    let ended = false;
    const done = (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
      } catch {
        /* aborted */
      }
      ended = true;
    })();
    return { res, messages, done, ended: () => ended, close: () => controller.abort() };
  }

  it('refuses what is not a stream request: 406 without Accept, 404 live, 401 without the secret key, 400 for bad types or Last-Event-ID', async () => {
    const get = (h: Record<string, string>, q = '') => fetch(`${base}/listen/stream${q}`, { headers: h });
    const noAccept = await get({ 'x-api-key': m.apiKey, authorization: `Bearer ${m.secretKey}`, accept: '*/*' });
    expect(noAccept.status).toBe(406);
    expect(await noAccept.json()).toMatchObject({ code: 'not_acceptable', param: 'accept' });
    expect((await get(headers({ apiKey: m.live.apiKey, secretKey: m.live.secretKey }))).status).toBe(404);
    const pkOnly = await get(headers({ apiKey: m.apiKey }));
    expect(pkOnly.status).toBe(401);
    expect(await pkOnly.json()).toMatchObject({ code: 'secret_key_required' });
    const badType = await get(headers({ apiKey: m.apiKey, secretKey: m.secretKey }), '?events=payment.completed,payment.bogus');
    expect(badType.status).toBe(400);
    expect(await badType.json()).toMatchObject({ code: 'validation_error', param: 'events' });
    const badId = await get(headers({ apiKey: m.apiKey, secretKey: m.secretKey }, { 'last-event-id': 'pi_123' }));
    expect(badId.status).toBe(400);
    expect(await badId.json()).toMatchObject({ code: 'validation_error', param: 'last-event-id' });
    const unknownParam = await get(headers({ apiKey: m.apiKey, secretKey: m.secretKey }), '?since=1');
    expect(unknownParam.status).toBe(400);
  });

  it('starts with a ready message whose id is a cursor, then one message per event with the stored JSON', async () => {
    const s = await stream({}, '?events=payment.completed');
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(s.res.headers.get('request-id')).toMatch(/^req_/);
    await vi.waitFor(() => expect(s.messages).toHaveLength(1));
    const ready = s.messages[0] as EventSourceMessage;
    expect(ready.event).toBe('ready');
    expect(JSON.parse(ready.data)).toEqual({
      object: 'listen_session',
      merchantId: m.merchantId,
      livemode: false,
      events: ['payment.completed'],
      cursor: ready.id,
      resumedAfter: null,
    });
    await makeEvent(ctx, m.merchantId, { type: 'payment.failed' });
    const e = await makeEvent(ctx, m.merchantId, { type: 'payment.completed', metadata: { note: 'line\nbreak é' } });
    await vi.waitFor(() => expect(s.messages).toHaveLength(2), { timeout: 5000, interval: 20 });
    const stored = await ctx.deps.db.selectFrom('events').select('payload').where('id', '=', e.id).executeTakeFirstOrThrow();
    expect(s.messages[1]).toEqual({ id: e.id, event: 'payment.completed', data: stored.payload });
    s.close();
  });

  it('resumes with Last-Event-ID: events committed while disconnected arrive on the next stream', async () => {
    const s1 = await stream();
    await vi.waitFor(() => expect(s1.messages).toHaveLength(1));
    const a = await makeEvent(ctx, m.merchantId);
    await vi.waitFor(() => expect(s1.messages.map((x) => x.id)).toContain(a.id), { timeout: 5000, interval: 20 });
    s1.close();
    await s1.done;
    const missed = [await makeEvent(ctx, m.merchantId), await makeEvent(ctx, m.merchantId)];
    const s2 = await stream({ 'last-event-id': a.id });
    await vi.waitFor(() => expect(s2.messages.map((x) => x.id)).toEqual(expect.arrayContaining(missed.map((e) => e.id))), { timeout: 5000, interval: 20 });
    expect(JSON.parse((s2.messages[0] as EventSourceMessage).data)).toMatchObject({ resumedAfter: a.id });
    expect(s2.messages.filter((x) => x.event !== 'ready').map((x) => x.id)).not.toContain(a.id);
    s2.close();
  });

  it('allows 5 streams per merchant at once (422 limit_exceeded for a sixth), and frees the place when one closes', async () => {
    const streams = [];
    for (let i = 0; i < 5; i++) streams.push(await stream());
    for (const s of streams) await vi.waitFor(() => expect(s.messages.length).toBeGreaterThan(0));
    const sixth = await fetch(`${base}/listen/stream`, { headers: headers(sk(m) as { apiKey: string }) });
    expect(sixth.status).toBe(422);
    expect(await sixth.json()).toMatchObject({ code: 'limit_exceeded' });
    // Another merchant is not counted with these.
    const theirs = await call(ctx.app, 'GET', '/events', sk(other));
    expect(theirs.statusCode).toBe(200);
    streams[0]?.close();
    expect((await stream()).res.status).toBe(200);
  });

  it('ends open streams when the server closes, so a shutdown is not held up by them', async () => {
    const s = await stream();
    await vi.waitFor(() => expect(s.messages).toHaveLength(1));
    const t0 = performance.now();
    const closing = ctx.app.close();
    await s.done;
    expect(s.ended()).toBe(true);
    expect(performance.now() - t0).toBeLessThan(2000);
    // Keep-alive connections of earlier requests that were busy when the close began would keep
    // the server open until keepAliveTimeout: `caisse start` closes them as they go idle
    // (runtime.ts, closeHttp); here they are simply cut.
    ctx.app.server.closeAllConnections();
    await closing;
  });
});
