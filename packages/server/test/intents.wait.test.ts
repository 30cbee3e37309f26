import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createIntentsService, createStatusWaiters, MAX_WAIT_SECONDS, WAITER_LIMITS } from '../src/modules/intents/index.ts';
import { SECOND } from '../src/platform/clock.ts';
import { createWakeups, type Wakeups } from '../src/platform/wakeups.ts';
import { call, createMerchant, createTestContext, onPostgres, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

/**
 * The payer's long-poll on an intent's status (`GET /gateway/sessions/{token}?status=…&wait=…`,
 * decision 0083): answered once a change commits (in this process or another), at the deadline
 * of the injected clock, at once when the limits are reached; a payer hanging up releases the waiter.
 */
let ctx: TestContext;
let m: TestMerchant;
const wakeups: Wakeups[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Waiting shop');
});
afterEach(async () => {
  await Promise.all(wakeups.splice(0).map((w) => w.close()));
});
afterAll(() => ctx.close());

interface Created {
  id: string;
  sessionToken: string;
}

async function createIntent(body: Record<string, unknown> = {}): Promise<Created> {
  const res = await call(ctx.app, 'POST', '/gateway', sk(m), { amount: '5000', currency: 'XAF', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Created;
}

const waiters = () => ctx.services.intents.waiters;
const longPoll = (intent: Created, query: string) => call(ctx.app, 'GET', `/gateway/sessions/${intent.sessionToken}?${query}`, pk(m));

/** Until the server holds `n` waiters on the intent (the request is in, not answered). */
async function held(intent: Created, n = 1): Promise<void> {
  await expect.poll(() => waiters().size(intent.id), { interval: 5, timeout: 5000 }).toBe(n);
}

describe('GET /gateway/sessions/{sessionToken}?status=…&wait=…', () => {
  it('answers at once when the intent no longer reads the status the client has, or without status', async () => {
    const intent = await createIntent();
    const differs = await longPoll(intent, `status=PROCESSING&wait=${MAX_WAIT_SECONDS}`);
    expect(differs.statusCode, differs.body).toBe(200);
    expect(differs.json()).toMatchObject({ id: intent.id, status: 'PENDING' });
    const noStatus = await longPoll(intent, 'wait=10');
    expect(noStatus.json()).toMatchObject({ status: 'PENDING' });
    expect(noStatus.headers['caisse-wait']).toBeUndefined();
    expect(waiters().size()).toBe(0);
  });

  it('wakes as soon as a change committed through the normal path (a cancel), the clock unmoved', async () => {
    const intent = await createIntent();
    const answer = longPoll(intent, 'status=PENDING&wait=25');
    await held(intent);
    const canceled = await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, sk(m), {});
    expect(canceled.statusCode, canceled.body).toBe(200);
    const res = await answer;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: intent.id, status: 'CANCELED' });
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.headers['caisse-wait']).toBe('held');
    expect(waiters().size(intent.id)).toBe(0);
  });

  it('answers the unchanged intent by the time `wait` seconds have passed on the clock, not before four fifths of it', async () => {
    const intent = await createIntent();
    let answered = false;
    const answer = longPoll(intent, 'status=PENDING&wait=20').then((r) => ((answered = true), r));
    await held(intent);
    // Deadlines are spread over the wait's last fifth (16–20 s here).
    ctx.clock.advance(16 * SECOND - 1);
    waiters().tick();
    await Promise.resolve();
    expect(answered).toBe(false);
    expect(waiters().size(intent.id)).toBe(1);
    ctx.clock.advance(4 * SECOND + 1);
    waiters().tick();
    const res = await answer;
    expect(res.json()).toMatchObject({ status: 'PENDING' });
    expect(waiters().size()).toBe(0);
  });

  it('an unchanged wait ends without reading the intent again: the answer is the one read at its start', async () => {
    const intent = await createIntent({ description: 'before' });
    const answer = longPoll(intent, 'status=PENDING&wait=25');
    await held(intent);
    // Written behind the notifier's back (no transition, so nobody is woken): the deadline's
    // answer does not see it, the next read does.
    await sql`update intents set description = 'behind' where id = ${intent.id}`.execute(ctx.deps.db);
    ctx.clock.advance(25 * SECOND);
    waiters().tick();
    expect((await answer).json()).toMatchObject({ status: 'PENDING', description: 'before' });
    expect((await longPoll(intent, '')).json()).toMatchObject({ description: 'behind' });
  });

  it('a PENDING intent is answered EXPIRED at its expiresAt when that comes before the wait ends', async () => {
    const intent = await createIntent({ expiresIn: 300 });
    ctx.clock.advance(290 * SECOND);
    const answer = longPoll(intent, 'status=PENDING&wait=25');
    await held(intent);
    ctx.clock.advance(10 * SECOND);
    waiters().tick();
    expect((await answer).json()).toMatchObject({ status: 'EXPIRED' });
  });

  it('a change rolled back wakes nobody', async () => {
    const intent = await createIntent();
    const answer = longPoll(intent, 'status=PENDING&wait=25');
    await held(intent);
    const failed = ctx.deps.db.transaction().execute(async (tx) => {
      const row = await ctx.services.intents.lockForChange(tx, { merchantId: m.merchantId, mode: 'test' }, intent.id);
      await ctx.services.intents.transition(tx, row!, 'CANCELED', { apiVersion: '2026-11-01' });
      throw new Error('rolled back on purpose');
    });
    await expect(failed).rejects.toThrow('rolled back on purpose');
    await Promise.resolve();
    expect(waiters().size(intent.id)).toBe(1);
    ctx.clock.advance(25 * SECOND);
    waiters().tick();
    expect((await answer).json()).toMatchObject({ status: 'PENDING' });
  });

  it('beyond the waiters allowed on one intent, answers at once with Retry-After', async () => {
    const intent = await createIntent();
    const hangUp = new AbortController();
    const far = new Date(ctx.clock.now().getTime() + 25 * SECOND);
    const filling = Array.from({ length: WAITER_LIMITS.perIntent }, () => waiters().wait(intent.id, far, hangUp.signal));
    expect(filling.every((p) => p !== undefined)).toBe(true);
    const res = await longPoll(intent, 'status=PENDING&wait=25');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'PENDING' });
    expect(res.headers['retry-after']).toBe('2');
    expect(res.headers['caisse-wait']).toBe('busy');
    hangUp.abort();
    expect(await Promise.all(filling)).toEqual(filling.map(() => 'closed'));
    expect(waiters().size()).toBe(0);
  });

  it('a payer who hangs up releases their waiter', async () => {
    const intent = await createIntent();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path: `/gateway/sessions/${intent.sessionToken}?status=PENDING&wait=25`,
      headers: { 'x-api-key': m.apiKey },
    });
    req.on('error', () => {});
    req.end();
    await held(intent);
    req.destroy();
    await expect.poll(() => waiters().size(intent.id), { interval: 5, timeout: 5000 }).toBe(0);
  });

  it('bad input: a wait over the maximum, an unknown status or parameter → 400', async () => {
    const intent = await createIntent();
    for (const query of [`status=PENDING&wait=${MAX_WAIT_SECONDS + 1}`, 'status=PENDING&wait=-1', 'status=WAITING&wait=5', 'status=PENDING&after=3']) {
      const res = await longPoll(intent, query);
      expect(res.statusCode, query).toBe(400);
      expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
      expect((res.json() as { code: string }).code, query).toMatch(/^(validation_error|parameter_unknown)$/);
    }
  });
});

describe('the notifier', () => {
  it('counts waiters per intent and in all: beyond either limit, no wait', () => {
    const hub = createStatusWaiters(ctx.deps, { perIntent: 2, total: 3 });
    const far = new Date(ctx.clock.now().getTime() + 25 * SECOND);
    const stop = new AbortController();
    expect(hub.wait('pi_a', far, stop.signal)).toBeDefined();
    expect(hub.wait('pi_a', far, stop.signal)).toBeDefined();
    expect(hub.wait('pi_a', far, stop.signal)).toBeUndefined();
    expect(hub.wait('pi_b', far, stop.signal)).toBeDefined();
    expect(hub.wait('pi_c', far, stop.signal)).toBeUndefined();
    expect(hub.size()).toBe(3);
    stop.abort();
    expect(hub.size()).toBe(0);
    expect(hub.wait('pi_c', far)).toBeDefined();
    hub.close();
    expect(hub.size()).toBe(0);
    expect(hub.wait('pi_c', far)).toBeUndefined();
  });

  it('a change committed by another process wakes the waiters of this one (through PostgreSQL on PostgreSQL)', async () => {
    const intent = await createIntent();
    const here = createWakeups(ctx.database);
    const there = onPostgres ? createWakeups(ctx.database) : here;
    wakeups.push(...new Set([here, there]));
    const hub = createStatusWaiters({ ...ctx.deps, wakeups: here });
    const theirs = createIntentsService(
      { ...ctx.deps, wakeups: there },
      { events: ctx.services.events, pinnedVersions: ctx.services.merchants.pinnedVersions },
    );
    await here.ready();
    const woken = hub.wait(intent.id, new Date(ctx.clock.now().getTime() + 25 * SECOND));
    await theirs.cancel({ merchantId: m.merchantId, mode: 'test', pinnedVersion: '2026-11-01' } as never, intent.id);
    expect(await woken).toBe('changed');
    hub.close();
  });
});
