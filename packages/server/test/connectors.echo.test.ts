/**
 * Adding a connector touches its folder and the registry's list, nothing else (docs/architecture.md,
 * "Connectors"): a connector that exists only in test/fixtures/echo-connector, registered here
 * through the registry's public API, is listed by `GET /payment-methods`, mounted by the sandbox,
 * and takes a payment end to end (polled: it sends no callbacks).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerNames, registerConnector, type Sandbox, WAVE_CONNECTOR } from '../src/modules/connectors/index.ts';
import { SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes } from './connectors.support.ts';
import { ECHO_CONNECTOR } from './fixtures/echo-connector/index.ts';
import { createIntent, expectLedgerClean } from './flow.support.ts';
import { call, createMerchant, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

let unregister: () => void;
let ctx: TestContext;
let sandbox: Sandbox;
let m: TestMerchant;

beforeAll(async () => {
  // Before the app and the sandbox: both loop over the registry when they start.
  unregister = registerConnector(ECHO_CONNECTOR);
  ({ ctx, sandbox } = await appWithAllSandboxes());
  m = await createMerchant(ctx, 'Yaoundé shop');
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
  unregister?.();
});

describe('a connector registered by a test', () => {
  it('joins the registry once, beside the others; a taken name or sandbox path is refused', () => {
    expect(providerNames()).toContain('echo');
    expect(() => registerConnector(ECHO_CONNECTOR)).toThrow('already registered');
    expect(() =>
      registerConnector({ ...ECHO_CONNECTOR, description: { ...ECHO_CONNECTOR.description, name: 'echo2' }, sandbox: WAVE_CONNECTOR.sandbox }),
    ).toThrow('already mounted');
  });

  it('is listed by GET /payment-methods for the countries its description names', async () => {
    const intent = await createIntent(ctx, m);
    const res = await call(ctx.app, 'GET', `/payment-methods?sessionToken=${encodeURIComponent(intent.sessionToken)}`, pk(m));
    expect(res.statusCode, res.body).toBe(200);
    const methods = (res.json() as { data: { type: string; provider?: string }[] }).data;
    expect(methods).toContainEqual(
      expect.objectContaining({ type: 'mobile_money', provider: 'echo', name: 'Echo Pay', approval: 'phone_prompt', available: true, prefixes: [] }),
    );
  });

  it('has its mount served by the sandbox, under its own path', async () => {
    expect(sandbox.urls.echo).toBe(`${sandbox.url}/echo`);
    const res = await fetch(`${sandbox.urls.echo}/payments/none`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'not found' });
  });

  it('takes a payment: the charge reaches its sandbox, and the poll settles it once', async () => {
    const intent = await createIntent(ctx, m, { amount: '2500' });
    const charged = await call(
      ctx.app,
      'POST',
      '/charge',
      { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
      { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'echo', phoneNumber: '+237690000000' } },
    );
    expect(charged.statusCode, charged.body).toBe(202);
    // The request leaves once its reference is committed, after the answer.
    await expect
      .poll(() => sandbox.of(ECHO_CONNECTOR).payments(), { interval: 20, timeout: 5000 })
      .toEqual([expect.objectContaining({ amount: '2500', phone: '+237690000000', status: 'PENDING' })]);

    ctx.clock.advance(3 * SECOND);
    expect(await ctx.services.attempts.pollDue()).toBeGreaterThanOrEqual(1);
    const read = await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m));
    expect(read.json()).toMatchObject({ status: 'SUCCEEDED' });
    await expectLedgerClean(ctx);
  });
});
