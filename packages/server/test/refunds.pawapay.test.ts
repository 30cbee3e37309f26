/**
 * pawaPay's refunds through the gateway: a partial refund goes through pawaPay's own refund
 * operation (not a payout), stays PENDING until pawaPay says COMPLETED, read back by its id, and
 * the rest of the payment can follow. Until routes send an operator's payments through an
 * aggregator (issue 56), a test-only definition makes pawaPay reachable as a method of its own:
 * it adds what routes will add to each request, the method and the country.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConnectorDefinition, PAWAPAY_CONNECTOR, registerConnector, type Sandbox } from '../src/modules/connectors/index.ts';
import { createPawapayConnector, type PawapaySettings } from '../src/modules/connectors/pawapay/pawapay.connector.ts';
import type { PawapaySandbox } from '../src/modules/connectors/pawapay/pawapay.sandbox.ts';
import { SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes } from './connectors.support.ts';
import { createIntent, expectLedgerClean } from './flow.support.ts';
import { call, createMerchant, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

const NAME = 'pawapay_mtn_cm';

const PAWAPAY_AS_METHOD: ConnectorDefinition<PawapaySettings, PawapaySandbox> = {
  description: {
    ...PAWAPAY_CONNECTOR.description,
    name: NAME,
    displayName: 'MTN through pawaPay',
    countries: ['CM'],
    currencies: ['XAF'],
    network: 'mtn',
    serves: undefined,
    settings: [],
  },
  create(settings, deps) {
    const c = createPawapayConnector(settings, deps);
    return { ...c, provider: NAME, collect: (req) => c.collect({ ...req, method: 'mtn_momo', country: 'CM' }) };
  },
  sandbox: {
    ...PAWAPAY_CONNECTOR.sandbox,
    path: '/pawapay-mtn-cm',
    start: (ctx) => {
      const url = ctx.callbacksUrl === undefined ? undefined : `${ctx.callbacksUrl}/${NAME}`;
      return PAWAPAY_CONNECTOR.sandbox.start({ ...ctx, options: url === undefined ? {} : { callbackUrls: { deposit: url, payout: url, refund: url } } });
    },
  },
};

let unregister: () => void;
let ctx: TestContext;
let sandbox: Sandbox;
let m: TestMerchant;

beforeAll(async () => {
  unregister = registerConnector(PAWAPAY_AS_METHOD);
  ({ ctx, sandbox } = await appWithAllSandboxes());
  m = await createMerchant(ctx, 'Douala pawaPay shop');
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
  unregister?.();
});

type Intent = { status: string; amountRefunded: string };
const read = async (id: string) => (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as Intent;

/** Lets the background calls finish, moves time, delivers the sandbox's callbacks and polls what is due. */
async function later(ms = 2 * SECOND) {
  await ctx.services.callbacks.drain();
  ctx.clock.advance(ms);
  await sandbox.tick();
  await ctx.services.callbacks.pollDue();
  await ctx.services.callbacks.drain();
}

describe('pawaPay in checkout', () => {
  it('GET /payment-methods and the method settings never list pawapay itself', async () => {
    const intent = await createIntent(ctx, m);
    const res = await call(ctx.app, 'GET', `/payment-methods?sessionToken=${encodeURIComponent(intent.sessionToken)}`, pk(m));
    expect(res.statusCode, res.body).toBe(200);
    const providers = (res.json() as { data: { provider?: string }[] }).data.map((d) => d.provider);
    expect(providers).toContain('mtn_momo');
    expect(providers).not.toContain('pawapay');
    const settings = (await call(ctx.app, 'GET', '/payment-methods/settings', sk(m))).json() as { order: string[]; providers: { provider: string }[] };
    expect(settings.order).not.toContain('pawapay');
    expect(settings.providers.map((p) => p.provider)).not.toContain('pawapay');
  });
});

describe('refunds through pawaPay', () => {
  it('partial, then the rest: each through pawaPay’s refund operation, PENDING until read back COMPLETED', async () => {
    const intent = await createIntent(ctx, m, { amount: '10000' });
    const charged = await call(
      ctx.app,
      'POST',
      '/charge',
      { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
      { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: NAME, phoneNumber: '+237670000001' } },
    );
    expect(charged.statusCode, charged.body).toBe(202);
    await later();
    expect((await read(intent.id)).status).toBe('SUCCEEDED');
    const pp = sandbox.of(PAWAPAY_AS_METHOD);
    // The signed deposit callback reached the gateway and was taken.
    expect(pp.payments('deposit')[0]?.notifications).toEqual([expect.objectContaining({ httpStatus: 204 })]);

    const partial = await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), { amount: '3000' });
    expect(partial.statusCode, partial.body).toBe(202);
    expect(partial.json()).toMatchObject({ status: 'PENDING', amount: '3000' });
    await ctx.services.callbacks.drain();
    // pawaPay's refund, never a payout; accepted is not done.
    expect(pp.stats()).toMatchObject({ refunds: 1, payouts: 0 });
    expect(pp.payments('refund')[0]).toMatchObject({ amount: '3000', depositId: pp.payments('deposit')[0]?.id });
    expect((await read(intent.id)).amountRefunded).toBe('0');

    await later();
    expect(await read(intent.id)).toMatchObject({ status: 'PARTIALLY_REFUNDED', amountRefunded: '3000' });

    const rest = await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), {});
    expect(rest.statusCode, rest.body).toBe(202);
    await later();
    expect(await read(intent.id)).toMatchObject({ status: 'REFUNDED', amountRefunded: '10000' });
    expect(pp.payments('refund').map((r) => [r.amount, r.status])).toEqual([
      ['3000', 'COMPLETED'],
      ['7000', 'COMPLETED'],
    ]);
    await expectLedgerClean(ctx);
  });
});
