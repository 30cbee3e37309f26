import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCollectionOnlyMomo } from './connectors.support.ts';
import { problem } from './flow.support.ts';
import { consoleWithSandbox } from './operators.support.ts';

/**
 * The operator console's providers panel (issue 34): each provider in each mode, whether this
 * server has it set up (never a setting's value) and its health, for every operator role.
 */
let app: Awaited<ReturnType<typeof consoleWithSandbox>>;
beforeAll(async () => {
  app = await consoleWithSandbox('Providers Shop');
});
afterAll(() => app.close());

describe('GET /operator/api/providers', () => {
  it('lists each provider per mode with its set-up and health, for every role', async () => {
    const { ctx, ops } = app;
    ctx.services.connectors.forMode('test').health?.record('pac_sandbox_mtn_momo', 'mtn_momo', 'timeout');
    // Another account's outcome is not this one's.
    ctx.services.connectors.forMode('test').health?.record('pac_other_mtn_momo', 'mtn_momo', 'server_error');
    for (const role of ['admin', 'finance', 'support', 'compliance'] as const) {
      const who = await ops.operator(role);
      const res = await ops.send('GET', '/operator/api/providers', who);
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json() as { data: Record<string, unknown>[] };
      const momoTest = data.find((p) => p.provider === 'mtn_momo' && p.mode === 'test');
      expect(momoTest).toMatchObject({
        object: 'operator_provider',
        name: expect.any(String),
        countries: expect.arrayContaining(['CM']),
        currencies: expect.arrayContaining(['XAF']),
        configured: true,
        providerAccount: 'pac_sandbox_mtn_momo',
        health: { available: true, outcomes: { success: 0, timeout: 1, server_error: 0 } },
      });
      expect((momoTest?.capabilities as string[]).length).toBeGreaterThan(0);
      // Live mode has no provider set up in this server: listed, not configured.
      expect(data.find((p) => p.provider === 'mtn_momo' && p.mode === 'live')).toMatchObject({
        configured: false,
        providerAccount: null,
        health: { available: true },
      });
      // Never a setting's value: no key of a setting in the answer.
      expect(res.body).not.toMatch(/CAISSE_|secret|apiKey/i);
    }
  });

  it('an MTN account with a collection key only is shown collecting only', async () => {
    const { ctx, ops, sandbox } = app;
    const who = await ops.operator('support');
    const momoTest = async () =>
      ((await ops.send('GET', '/operator/api/providers', who)).json() as { data: { provider: string; mode: string; capabilities: string[] }[] }).data.find(
        (p) => p.provider === 'mtn_momo' && p.mode === 'test',
      )?.capabilities;
    expect(await momoTest()).toEqual(['collect', 'disburse', 'refund']);
    await withCollectionOnlyMomo(ctx, sandbox.url, async () => expect(await momoTest()).toEqual(['collect']));
  });

  it('needs a signed-in operator', async () => {
    problem(await app.ops.send('GET', '/operator/api/providers'), 401, 'session_required');
  });
});
