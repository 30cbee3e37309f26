/**
 * The providers' callback route: each valid call costs a status read at the provider, so calls
 * are limited per reference and per client address (issue 30, review note).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../src/platform/clock.ts';
import { CALLBACKS_PER_ADDRESS_PER_MINUTE, CALLBACKS_PER_REFERENCE_PER_MINUTE } from '../src/modules/lifecycle/index.ts';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const call = (reference: string, remoteAddress: string) =>
  ctx.app.inject({ method: 'PUT', url: `/callbacks/mtn_momo/collection/${reference}/not-our-token`, payload: { status: 'SUCCESSFUL' }, remoteAddress });

describe('provider callbacks are rate-limited', () => {
  it('per reference: over the limit is 429 with Retry-After, and the next minute opens again', async () => {
    const reference = '0b6f3a52-5d4e-4c7e-9a1b-2f4c8d9e0a11';
    for (let i = 0; i < CALLBACKS_PER_REFERENCE_PER_MINUTE; i++) {
      const res = await call(reference, `198.51.100.${i + 1}`);
      expect(res.statusCode).not.toBe(429);
    }
    const over = await call(reference, '198.51.100.200');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    ctx.clock.advance(MINUTE);
    expect((await call(reference, '198.51.100.201')).statusCode).not.toBe(429);
  });

  it('per address: one address sending many references is refused past the limit', async () => {
    const address = '203.0.113.7';
    for (let i = 0; i < CALLBACKS_PER_ADDRESS_PER_MINUTE; i++) {
      const res = await call(`ref-${i}`, address);
      expect(res.statusCode).not.toBe(429);
    }
    const over = await call('ref-over', address);
    expect(over.statusCode).toBe(429);
    expect((await call('ref-over', '203.0.113.8')).statusCode).not.toBe(429);
  });

  it('per address: CAISSE_RATE_LIMIT_CALLBACKS sets the limit', async () => {
    const own = await createTestContext({ env: { CAISSE_RATE_LIMIT_CALLBACKS: '3' } });
    try {
      const send = (reference: string) =>
        own.app.inject({ method: 'PUT', url: `/callbacks/mtn_momo/collection/${reference}/not-our-token`, payload: {}, remoteAddress: '203.0.113.9' });
      for (let i = 0; i < 3; i++) expect((await send(`own-${i}`)).statusCode).not.toBe(429);
      expect((await send('own-over')).statusCode).toBe(429);
    } finally {
      await own.close();
    }
  });
});
