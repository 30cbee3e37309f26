import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import { expectProblem, variantApp } from './security.support.ts';

/**
 * docs/spec/request-rules.md: rate limits are shared across server processes when Redis is configured. Two app
 * instances (two Fastify servers, two Redis connections) share one limit through the machine's
 * Redis. Windows follow the injected clock, so nothing here waits for real time.
 */
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
const reachable = await redisReachable();

let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;
const prefix = `caisse-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Shared');
  other = await createMerchant(ctx, 'Apart');
}, 60_000);
afterAll(async () => {
  for (const app of apps) await app.close();
  await ctx.close();
  if (!reachable) return;
  // The keys expire on their own within seconds; remove them at once anyway.
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

async function instance(limits: { test?: number; live?: number; ipPerMinute?: number }) {
  const app = await variantApp(ctx, { redisUrl: REDIS_URL, security: { redisPrefix: prefix, rateLimit: limits } });
  apps.push(app);
  return app;
}

describe.skipIf(!reachable)('rate limits in Redis, shared by two server instances', () => {
  it('one key, two servers, one limit: the 7th request of the second is refused, then the next second opens', async () => {
    const [a, b] = [await instance({ test: 6 }), await instance({ test: 6 })] as [FastifyInstance, FastifyInstance];
    ctx.clock.set('2026-11-01T12:00:00.000Z');
    const remaining: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = i % 2 === 0 ? await call(a, 'GET', '/gateway', sk(m)) : await call(b, 'GET', '/gateway', sk(m));
      expect(res.statusCode).toBeLessThan(400);
      expect(res.headers['ratelimit-limit']).toBe('6');
      remaining.push(String(res.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    const overB = await call(b, 'GET', '/gateway', sk(m));
    expectProblem(overB, 429, 'rate_limited');
    expect(overB.headers['retry-after']).toBe('1');
    expectProblem(await call(a, 'GET', '/gateway', sk(m)), 429, 'rate_limited');
    // Another key is counted apart, on both servers.
    expect((await call(a, 'GET', '/gateway', sk(other))).statusCode).toBe(200);
    expect((await call(b, 'GET', '/gateway', sk(other))).headers['ratelimit-remaining']).toBe('4');
    // The next second of the clock is a new window for both.
    ctx.clock.advance(1000);
    const next = await call(b, 'GET', '/gateway', sk(m));
    expect(next.statusCode).toBe(200);
    expect(next.headers['ratelimit-remaining']).toBe('5');
    expect((await call(a, 'GET', '/gateway', sk(m))).headers['ratelimit-remaining']).toBe('4');
  });

  it('failed authentications per address are counted together (issue 20)', async () => {
    const a = await variantApp(ctx, { redisUrl: REDIS_URL, security: { redisPrefix: prefix }, hardening: { authFailuresPerMinute: 2 } });
    const b = await variantApp(ctx, { redisUrl: REDIS_URL, security: { redisPrefix: prefix }, hardening: { authFailuresPerMinute: 2 } });
    apps.push(a, b);
    ctx.clock.set('2026-11-01T12:07:00.000Z');
    const unknown = { apiKey: 'pk_test_unknownunknownunknownunknown' };
    expectProblem(await call(a, 'GET', '/gateway', unknown), 401, 'api_key_invalid');
    expectProblem(await call(b, 'GET', '/gateway', unknown), 401, 'api_key_invalid');
    // The second failure, on b, reached the shared limit: b refuses the address from now on.
    expectProblem(await call(b, 'GET', '/gateway', sk(m)), 429, 'rate_limited');
    // a learns it at the address's next failure.
    expectProblem(await call(a, 'GET', '/gateway', unknown), 401, 'api_key_invalid');
    expectProblem(await call(a, 'GET', '/gateway', sk(m)), 429, 'rate_limited');
  });

  it('per-address limits on login are shared too', async (t) => {
    if (!ctx.app.registeredRoutes.some((r) => r.method === 'POST' && r.url === '/auth/web')) t.skip();
    const [a, b] = [await instance({ ipPerMinute: 2 }), await instance({ ipPerMinute: 2 })] as [FastifyInstance, FastifyInstance];
    ctx.clock.set('2026-11-01T12:05:00.000Z');
    const login = (app: FastifyInstance) =>
      call(app, 'POST', '/auth/web', { apiKey: m.live.apiKey }, { phoneNumber: '+237650000009', password: 'wrong-password' });
    expect((await login(a)).statusCode).not.toBe(429);
    expect((await login(b)).statusCode).not.toBe(429);
    expectProblem(await login(a), 429, 'rate_limited');
    expectProblem(await login(b), 429, 'rate_limited');
  });
});

describe('when Redis does not answer', () => {
  it("fails open to this process's counters: the limits still hold per process, logged once a minute and counted (issue 20)", async () => {
    const app = await variantApp(ctx, {
      redisUrl: 'redis://127.0.0.1:1',
      security: { redisPrefix: prefix, rateLimit: { test: 2 } },
      hardening: { authFailuresPerMinute: 2 },
    });
    apps.push(app);
    ctx.clock.set('2026-11-01T12:10:00.000Z');
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) codes.push((await call(app, 'GET', '/gateway', sk(m))).statusCode);
    expect(codes).toEqual([200, 200, 429]);
    // Failed authentications too: the third request from the address is refused before a lookup.
    for (let i = 0; i < 2; i++)
      expectProblem(await call(app, 'GET', '/gateway', { apiKey: 'pk_test_unknownunknownunknownunknown', secretKey: 'sk_test_x' }), 401, 'api_key_invalid');
    expectProblem(await call(app, 'GET', '/gateway', sk(other)), 429, 'rate_limited');
    expect((await call(app, 'GET', '/healthz', pk(m))).statusCode).toBe(200);
    const logs = app.logs.join('\n');
    expect(logs).toContain('Redis is unreachable');
    expect(logs.match(/the counter store failed; counting in this process/g)?.length).toBe(1);
    const metrics = (await call(app, 'GET', '/metrics')).body;
    expect(Number(/caisse_rate_limit_store_errors_total (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(5);
    // The next minute opens new windows for the key and the address.
    ctx.clock.advance(60_000);
    expect((await call(app, 'GET', '/gateway', sk(m))).statusCode).toBe(200);
  });
});
