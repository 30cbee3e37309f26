/**
 * The development merchant made on an empty database: several processes starting together on one
 * PostgreSQL (hosts behind PgBouncer) all see it empty; exactly one merchant is made and no start
 * fails on the others' unique e-mail.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServices } from '../src/services.ts';
import { developmentMerchant } from '../src/runtime.ts';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

it('starts racing on an empty database make one development merchant, and none of them fails', async () => {
  // Each "process" with its own services over the same database.
  const starts = [createServices(ctx.deps), createServices(ctx.deps), createServices(ctx.deps)].map((s) => developmentMerchant(s.merchants));
  const made = (await Promise.all(starts)).filter((m) => m !== undefined);
  expect(made).toHaveLength(1);
  expect(await ctx.services.merchants.countMerchants()).toBe(1);
  // A later start finds it and makes nothing.
  expect(await developmentMerchant(ctx.services.merchants)).toBeUndefined();
});
