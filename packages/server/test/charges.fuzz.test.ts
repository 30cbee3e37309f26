import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, createMerchant, createTestContext, sk, type TestContext, type TestMerchant } from './harness.ts';
import { createIntent, expectLedgerClean, merchantMinor, newUser, type TestUser, walletMinor } from './flow.support.ts';

/**
 * The payment routes with valid credentials and random bodies and tokens: whatever is sent, never
 * a 5xx, every failure a problem with a code, and no money moves without a valid token.
 */
let ctx: TestContext;
let m: TestMerchant;
let user: TestUser;
let intentId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Fuzz Pay');
  user = await newUser(ctx, m, { balance: '100000', email: 'fuzz@example.com' });
  intentId = (await createIntent(ctx, m)).id;
});
afterEach(() => expectLedgerClean(ctx));
afterAll(() => ctx.close());

const text = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.constantFrom('', ' ', 'otp_', `otp_${'a'.repeat(43)}`, '123456', '-1', '0', '1e3', '5000.5', 'pi_', '%00'),
);
const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));

describe('fuzzing initOtp, verifyOtp, charge and refunds with valid credentials', () => {
  it('no 5xx, problems with codes, and no money moves', async () => {
    const wallet = await walletMinor(ctx, user.id);
    const balance = await merchantMinor(ctx, m.merchantId);
    const request = fc.record({
      route: fc.constantFrom('/otp/init', '/otp/verify', '/charge', 'refund'),
      body: fc.oneof(
        fc.record(
          {
            userId: fc.oneof(fc.constant(user.id), text),
            channel: fc.oneof(fc.constantFrom('sms', 'email'), text),
            intentionId: fc.oneof(fc.constant(intentId), text),
            otp: text,
            amount: value,
            reason: value,
          },
          { requiredKeys: [] },
        ),
        value,
      ),
      token: fc.option(text, { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (r.token !== undefined) headers['x-otp-token'] = r.token;
        const url = r.route === 'refund' ? `/gateway/${intentId}/refunds` : r.route;
        const creds = r.route === 'refund' ? { ...sk(m), headers } : { ...user.creds, headers };
        const res = await call(ctx.app, 'POST', url, creds, JSON.stringify(r.body));
        const where = `${url} ${JSON.stringify(r.body)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(String(res.headers['content-type']), where).toMatch(/^application\/problem\+json/);
          expect(typeof (res.json() as { code?: unknown }).code, where).toBe('string');
        }
      }),
      { numRuns: 300 },
    );
    expect(await walletMinor(ctx, user.id)).toBe(wallet);
    expect(await merchantMinor(ctx, m.merchantId)).toBe(balance);
  }, 120_000);
});
