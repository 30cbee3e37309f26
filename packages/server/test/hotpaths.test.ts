import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMerchantsService } from '../src/modules/merchants/merchants.service.ts';
import { KEY_CACHE_TTL_MS } from '../src/modules/merchants/merchants.keys.ts';
import { createDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { announceEvents as wakeDispatchers } from '../src/modules/events/index.ts';
import { ApiError } from '../src/platform/errors.ts';
import { openPostgres } from '../src/platform/db.ts';
import { createWakeups, type WakeChannel, type Wakeups } from '../src/platform/wakeups.ts';
import { call, createMerchant, createTestContext, onPostgres, pk, sk, type TestContext } from './harness.ts';
import { makeEvent, type Receiver, startReceiver } from './webhooks.receiver.ts';

/**
 * The fast paths' correctness: the API-key cache never outlives a revocation it was told about
 * (in this process or, through PostgreSQL, in another) and bounds what it was not told about, and
 * the webhook dispatcher is woken by a commit instead of waiting for its poll. Speed itself is
 * measured by `npm run bench`, never here.
 */
let ctx: TestContext;
const wakeups: Wakeups[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await Promise.all(wakeups.splice(0).map((w) => w.close()));
});
afterAll(() => ctx.close());

function newWakeups(): Wakeups {
  const w = createWakeups(ctx.database);
  wakeups.push(w);
  return w;
}

/** Resolves with the next message `w` hears on `channel`. */
function nextMessage(w: Wakeups, channel: WakeChannel): Promise<unknown> {
  return new Promise((resolve) => {
    const off = w.subscribe(channel, (m) => {
      off();
      resolve(m);
    });
  });
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    // A known key refused says why: `api_key_invalid (revoked)`.
    if (err instanceof ApiError) return err.options.extra?.reason ? `${err.code} (${String(err.options.extra.reason)})` : err.code;
    throw err;
  }
  return 'accepted';
}

describe('API-key cache', () => {
  it('a key revoked, rolled without grace or given other origins is seen at once by the process that changed it', async () => {
    const m = await createMerchant(ctx, 'Cached');
    const keys = await ctx.services.merchants.listKeys(m.merchantId);
    const apiKeyId = keys.find((k) => k.kind === 'publishable' && k.mode === 'test')?.id as string;
    const secretKeyId = keys.find((k) => k.kind === 'secret' && k.mode === 'test')?.id as string;
    const fromElsewhere = { ...pk(m), headers: { origin: 'https://elsewhere.example' } };
    // Cached by these requests (a key that lists no origin may be used from any)...
    expect((await call(ctx.app, 'GET', '/gateway/sessions/ps_x', fromElsewhere)).json()).toMatchObject({ code: 'not_found' });
    expect((await call(ctx.app, 'GET', '/gateway', sk(m))).statusCode).toBe(200);
    // ...and forgotten by each change, with no clock movement.
    await ctx.services.merchants.setAllowedOrigins(m.merchantId, apiKeyId, ['https://shop.example']);
    expect((await call(ctx.app, 'GET', '/gateway/sessions/ps_x', fromElsewhere)).json()).toMatchObject({ code: 'origin_not_allowed' });
    await ctx.services.merchants.rollKey(m.merchantId, secretKeyId, 0);
    expect((await call(ctx.app, 'GET', '/gateway', sk(m))).json()).toMatchObject({ code: 'secret_key_invalid', reason: 'expired' });
    await ctx.services.merchants.revokeKey(m.merchantId, apiKeyId);
    expect((await call(ctx.app, 'GET', '/gateway/sessions/ps_x', pk(m))).json()).toMatchObject({ code: 'api_key_invalid', reason: 'revoked' });
  });

  it('a change made behind its back (straight in the database) is seen once KEY_CACHE_TTL_MS has passed', async () => {
    const m = await createMerchant(ctx, 'Stale');
    const merchants = createMerchantsService(ctx.deps);
    await merchants.authenticate(m.apiKey, undefined, false);
    await ctx.deps.db.updateTable('api_keys').set({ revoked_at: ctx.clock.now() }).where('merchant_id', '=', m.merchantId).execute();
    // The documented staleness bound: still the cached row...
    expect(await refusal(merchants.authenticate(m.apiKey, undefined, false))).toBe('accepted');
    ctx.clock.advance(KEY_CACHE_TTL_MS);
    // ...never longer than the TTL.
    expect(await refusal(merchants.authenticate(m.apiKey, undefined, false))).toBe('api_key_invalid (revoked)');
  });

  it('the synchronous cache path answers as authenticate does, only from fresh keys with nothing to write, else defers to it', async () => {
    const m = await createMerchant(ctx, 'Synchronous');
    const merchants = createMerchantsService(ctx.deps);
    // Nothing cached yet: undefined, and the caller asks authenticate.
    expect(merchants.authenticateCached(m.apiKey, m.secretKey, true)).toBeUndefined();
    const full = await merchants.authenticate(m.apiKey, m.secretKey, true);
    expect(merchants.authenticateCached(m.apiKey, m.secretKey, true)).toEqual(full);
    expect(merchants.authenticateCached(m.apiKey, undefined, false)).toEqual({ ...full, secretKeyId: undefined });
    // Every refusal is authenticate's to name (and to count as a failure).
    expect(merchants.authenticateCached(undefined, undefined, false)).toBeUndefined();
    expect(merchants.authenticateCached(m.apiKey, undefined, true)).toBeUndefined();
    expect(merchants.authenticateCached(m.apiKey, 'sk_test_wrong', true)).toBeUndefined();
    expect(merchants.authenticateCached(m.secretKey, undefined, false)).toBeUndefined();
    // Past the cache's TTL the row is read again, by authenticate.
    ctx.clock.advance(KEY_CACHE_TTL_MS);
    expect(merchants.authenticateCached(m.apiKey, m.secretKey, true)).toBeUndefined();
    await merchants.authenticate(m.apiKey, m.secretKey, true);
    // A last use older than a minute is due a write: authenticate records it (the row was not fresh
    // in the cache), then the cache serves.
    const keyId = full.apiKeyId;
    await ctx.deps.db
      .updateTable('api_keys')
      .set({ last_used_at: new Date(ctx.clock.now().getTime() - 61_000) })
      .where('id', '=', keyId)
      .execute();
    ctx.clock.advance(KEY_CACHE_TTL_MS);
    await merchants.authenticate(m.apiKey, undefined, false); // reads the old last use, writes it anew
    const lastUsed = async () => (await merchants.listKeys(m.merchantId)).find((k) => k.id === keyId)?.lastUsedAt;
    expect(await lastUsed()).toBe(ctx.clock.now().toISOString());
    expect(merchants.authenticateCached(m.apiKey, undefined, false)).toEqual({ ...full, secretKeyId: undefined });
    // A revocation this process made is seen at once.
    await merchants.revokeKey(m.merchantId, keyId);
    expect(merchants.authenticateCached(m.apiKey, undefined, false)).toBeUndefined();
    expect(await refusal(merchants.authenticate(m.apiKey, undefined, false))).toBe('api_key_invalid (revoked)');
  });

  it('a revocation by another process reaches this process through the database', async () => {
    const m = await createMerchant(ctx, 'Broadcast');
    // Two processes' worth of services: their own caches, their own wake-ups (on PostgreSQL, their own LISTEN).
    const here = newWakeups();
    const there = onPostgres ? newWakeups() : here;
    const mine = createMerchantsService({ ...ctx.deps, wakeups: here });
    const theirs = createMerchantsService({ ...ctx.deps, wakeups: there });
    await mine.authenticate(m.apiKey, undefined, false);
    const keyId = (await theirs.listKeys(m.merchantId)).find((k) => k.kind === 'publishable' && k.mode === 'test')?.id as string;
    const heard = nextMessage(here, 'api_keys');
    await here.ready();
    await theirs.revokeKey(m.merchantId, keyId);
    expect(await heard).toEqual({ payload: keyId });
    expect(await refusal(mine.authenticate(m.apiKey, undefined, false))).toBe('api_key_invalid (revoked)');
  });

  it('a failed lookup is not cached: a key that starts to exist works at once', async () => {
    const m = await createMerchant(ctx, 'Fresh');
    const unknown = `pk_test_${'A'.repeat(32)}`;
    expect(await refusal(ctx.services.merchants.authenticate(unknown, undefined, false))).toBe('api_key_invalid');
    const created = await ctx.services.merchants.createKey(m.merchantId, { kind: 'publishable', mode: 'test', name: 'new' });
    expect(await refusal(ctx.services.merchants.authenticate(created.secret, undefined, false))).toBe('accepted');
  });
});

describe('verified access tokens', () => {
  it("a token checked once is still refused with another merchant's key, in the other mode, and once expired", async () => {
    const m = await createMerchant(ctx, 'Tokens');
    const other = await createMerchant(ctx, 'Other tokens');
    const user = await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber: '+237691234567', password: 'limbe-market-2026' });
    expect(user.statusCode, user.body).toBe(201);
    const userId = (user.json() as { id: string }).id;
    const { token, expiresAt } = await ctx.services.users.tokens.sign({ userId, merchantId: m.merchantId, mode: 'test', roles: ['USER'], version: 0 });
    const wallet = (apiKey: string) => call(ctx.app, 'GET', '/wallet', { apiKey, token });
    // Verified (and remembered) by this request...
    expect((await wallet(m.apiKey)).statusCode).toBe(200);
    // ...but the memory answers only for its merchant, its mode and its lifetime.
    expect((await wallet(other.apiKey)).json()).toMatchObject({ code: 'access_token_invalid' });
    expect((await wallet(m.live.apiKey)).json()).toMatchObject({ code: 'access_token_invalid' });
    expect((await wallet(m.apiKey)).statusCode).toBe(200);
    ctx.clock.set(expiresAt);
    expect((await wallet(m.apiKey)).json()).toMatchObject({ code: 'access_token_invalid' });
  });
});

describe('webhook dispatcher wake-up', () => {
  /** A dispatcher whose poll would only come in an hour: only a wake-up makes it deliver. */
  async function sleepyDispatcher(w: Wakeups) {
    const m = await createMerchant(ctx, 'Wakeful');
    const r = await startReceiver();
    receivers.push(r);
    const res = await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: r.url });
    expect(res.statusCode, res.body).toBe(201);
    const dispatcher = createDispatcher({ ...ctx.deps, wakeups: w }, { pollIntervalMs: 3_600_000, timeoutMs: 5000 });
    dispatcher.start();
    // Let its first round find the queue empty and go to sleep.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { m, r, dispatcher };
  }

  it('delivers an event as soon as its transaction has committed, not at the next poll', async () => {
    const w = newWakeups();
    const { m, r, dispatcher } = await sleepyDispatcher(w);
    try {
      const event = await makeEvent(ctx, m.merchantId);
      wakeDispatchers({ wakeups: w });
      await vi.waitFor(() => expect(r.received).toHaveLength(1), { timeout: 5000 });
      expect(r.received[0]?.headers['webhook-id']).toBe(event.id);
    } finally {
      await dispatcher.stop();
    }
  });

  it.runIf(onPostgres)('is woken through PostgreSQL NOTIFY by a process that runs no dispatcher', async () => {
    const dispatcherSide = newWakeups();
    const apiSide = newWakeups();
    const { m, r, dispatcher } = await sleepyDispatcher(dispatcherSide);
    try {
      // Its LISTEN must be in place before the NOTIFY is sent.
      await dispatcherSide.ready();
      const event = await makeEvent(ctx, m.merchantId);
      wakeDispatchers({ wakeups: apiSide });
      await vi.waitFor(() => expect(r.received).toHaveLength(1), { timeout: 5000 });
      expect(r.received[0]?.headers['webhook-id']).toBe(event.id);
    } finally {
      await dispatcher.stop();
    }
  });
});

describe('webhook delivery at volume', () => {
  it('deliveries to one receiver reuse kept-alive connections, and are all recorded with their attempts', async () => {
    const m = await createMerchant(ctx, 'Volume');
    let connections = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      const ep = await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url });
      expect(ep.statusCode, ep.body).toBe(201);
      for (let i = 0; i < 12; i++) await makeEvent(ctx, m.merchantId);
      const summary = await createDispatcher(ctx.deps, { concurrency: 2, timeoutMs: 5000 }).runOnce();
      expect(summary).toMatchObject({ claimed: 12, succeeded: 12 });
      // Two at a time over kept-alive connections: a handful of connections, not one per delivery.
      expect(connections).toBeLessThanOrEqual(4);
      const endpointId = (ep.json() as { id: string }).id;
      const rows = await ctx.deps.db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_delivery_attempts as a', 'a.delivery_id', 'd.id')
        .select(['d.status', 'd.last_status_code', 'a.succeeded'])
        .where('d.endpoint_id', '=', endpointId)
        .execute();
      expect(rows).toHaveLength(12);
      expect(rows.every((r) => r.status === 'succeeded' && r.last_status_code === 200 && r.succeeded)).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('prepared statements (PostgreSQL)', () => {
  it.runIf(onPostgres)('run named; a statement whose prepared plan a migration made stale fails once, then is prepared afresh', async () => {
    const opened = openPostgres(ctx.database.url as string, 1);
    try {
      const db = opened.db;
      await sql`create table prepared_probe (a int)`.execute(db);
      await sql`insert into prepared_probe values (${1})`.execute(db);
      const read = () => sql<Record<string, unknown>>`select * from prepared_probe where a = ${1}`.execute(db);
      expect((await read()).rows).toEqual([{ a: 1 }]);
      const named = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_prepared_statements where statement like ${'select * from prepared_probe%'}`.execute(db);
      expect(named.rows[0]?.n).toBe(1);
      await sql`alter table prepared_probe add column b int`.execute(db);
      // PostgreSQL refuses the stale plan once ("cached plan must not change result type")...
      await expect(read()).rejects.toMatchObject({ code: '0A000' });
      // ...and the next use prepares it again under a new name.
      expect((await read()).rows).toEqual([{ a: 1, b: null }]);
    } finally {
      await opened.close();
    }
  });
});
