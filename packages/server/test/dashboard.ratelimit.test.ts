import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { createMerchant, createTestContext, type TestContext, type TestMerchant } from './harness.ts';

/**
 * POST /dashboard/api/login (and the sign-up) is limited per client address (CAISSE_RATE_LIMIT_IP a minute, here 3),
 * whatever the e-mail tried, beside the dashboard's own lockout per e-mail: 429 `rate_limited`
 * with Retry-After, the answer of the API's other per-address limits. Counted on the ManualClock.
 */
let ctx: TestContext;
let m: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext({ env: { CAISSE_RATE_LIMIT_IP: '3' } });
  m = await createMerchant(ctx, 'Guarded');
});
afterAll(() => ctx.close());

function login(from: string, email: string, password: string) {
  return ctx.app.inject({ method: 'POST', url: '/dashboard/api/login', remoteAddress: from, payload: { email, password } });
}

function expectRateLimited(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json()).toMatchObject({ status: 429, code: 'rate_limited', type: '/errors/rate_limited' });
  expect(res.json().detail).toMatch(/this address/);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  return retryAfter;
}

describe('per-address limit on the dashboard sign-in', () => {
  it('the 4th sign-in in a minute from one address is 429 rate_limited with Retry-After; another address is not held back', async () => {
    ctx.clock.set('2026-11-01T12:00:00.000Z');
    const attacker = '198.51.100.7';
    // Three wrong passwords, each for another e-mail: the per-e-mail lockout (5) never trips.
    for (let i = 0; i < 3; i++) {
      const res = await login(attacker, `target-${i}@example.com`, 'guess');
      expect(res.statusCode, res.body).toBe(401);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    ctx.clock.advance(15 * SECOND);
    // The 4th is refused before the password is even checked: the right one does not help.
    expect(expectRateLimited(await login(attacker, m.dashboard.email, m.dashboard.password))).toBe(45);

    // Another address signs in as usual.
    const other = await login('203.0.113.9', m.dashboard.email, m.dashboard.password);
    expect(other.statusCode, other.body).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe('2');

    // The next window lets the first address in again.
    ctx.clock.advance(MINUTE);
    expect((await login(attacker, m.dashboard.email, m.dashboard.password)).statusCode).toBe(200);
  });
});

describe('per-address limit on the sign-up', () => {
  it('the 4th sign-up in a minute from one address is 429 rate_limited, and asks for nothing', async () => {
    ctx.clock.set('2026-11-02T12:00:00.000Z');
    const signUp = (i: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/dashboard/api/sign-up',
        remoteAddress: '198.51.100.8',
        payload: { businessName: `Spam ${i}`, country: 'CM', email: `spam-${i}@example.com`, password: 'correct horse battery' },
      });
    for (let i = 0; i < 3; i++) expect((await signUp(i)).statusCode).toBe(202);
    expectRateLimited(await signUp(3));
    // Refused before anything: no sign-up waits for a link, no e-mail went.
    const waiting = await ctx.deps.db.selectFrom('merchant_signup_requests').select('email').where('email', '=', 'spam-3@example.com').execute();
    expect(waiting).toEqual([]);
    expect(await ctx.deps.db.selectFrom('messages').select('id').where('recipient', '=', 'spam-3@example.com').execute()).toEqual([]);
  });
});
