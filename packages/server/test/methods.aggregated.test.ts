/**
 * Payment methods only an aggregator reaches (decision 0084): listed once by `GET
 * /payment-methods` with the approval and bounds of the connector their route takes, taken by
 * `POST /charge` through that aggregator and refunded through it; a number whose operator no route
 * reaches is refused naming the operator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/admin.ts';
import type { Sandbox } from '../src/modules/connectors/index.ts';
import { SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes } from './connectors.support.ts';
import { createIntent, expectLedgerClean } from './flow.support.ts';
import { call, createMerchant, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let sandbox: Sandbox;
let ci: TestMerchant;
let bj: TestMerchant;

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithAllSandboxes());
  ci = await createMerchant(ctx, 'Abidjan shop');
  await ctx.services.merchants.setCountry(ci.merchantId, 'CI');
  bj = await createMerchant(ctx, 'Cotonou shop');
  await ctx.services.merchants.setCountry(bj.merchantId, 'BJ');
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

type Method = { type: string; provider?: string; name?: string; approval?: string; minAmount?: string; maxAmount?: string; prefixes?: string[] };
type Attempt = { provider: string; connector: string; status: string };
type Intent = { id: string; status: string; amountRefunded: string; attempts: Attempt[] };

const methodsOf = async (m: TestMerchant, sessionToken: string) => {
  const res = await call(ctx.app, 'GET', `/payment-methods?sessionToken=${encodeURIComponent(sessionToken)}`, pk(m));
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Method[] }).data;
};
const pay = (m: TestMerchant, intent: { id: string; sessionToken: string }, provider: string, phoneNumber: string) =>
  call(
    ctx.app,
    'POST',
    '/charge',
    { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
    { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider, phoneNumber } },
  );
const read = async (m: TestMerchant, id: string) => (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as Intent;
const route = (country: string, method: string, connectors: string[] | null) =>
  runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country, kind: 'payment', method, connectors });

/** Lets the background calls finish, moves time, delivers the sandbox's callbacks and polls what is due. */
async function later(ms = 2 * SECOND) {
  await ctx.services.callbacks.drain();
  ctx.clock.advance(ms);
  await sandbox.tick();
  await ctx.services.callbacks.pollDue();
  await ctx.services.callbacks.drain();
}

describe('GET /payment-methods', () => {
  it('lists a method only aggregators reach once, with its brand, prefixes and its route’s approval and bounds', async () => {
    const intent = await createIntent(ctx, ci, { currency: 'XOF' });
    const methods = await methodsOf(ci, intent.sessionToken);
    // Côte d'Ivoire's default order; every method once, never an aggregator by its own name; cards after mobile money.
    expect(methods.map((d) => d.provider ?? d.type)).toEqual(['wallet', 'mtn_momo', 'orange_money', 'wave', 'moov_money', 'card']);
    // Only CinetPay reaches Moov in Côte d'Ivoire: its page, its bounds.
    expect(methods.find((d) => d.provider === 'moov_money')).toEqual({
      type: 'mobile_money',
      provider: 'moov_money',
      name: 'Moov Money',
      approval: 'redirect',
      available: true,
      minAmount: '100',
      maxAmount: '1500000',
      prefixes: ['+22501'],
      ussd: null,
    });
  });

  it('takes the approval of the connector the route would take: pawaPay’s prompt once Moov is routed to it', async () => {
    const intent = await createIntent(ctx, bj, { currency: 'XOF' });
    await route('BJ', 'moov_money', ['pawapay']);
    try {
      const moov = (await methodsOf(bj, intent.sessionToken)).find((d) => d.provider === 'moov_money');
      expect(moov).toMatchObject({ name: 'Moov Money', approval: 'phone_prompt', minAmount: '100', maxAmount: '2000000' });
      expect(moov?.prefixes).toContain('+2290145');
      // Celtiis Cash is in the catalogue, but no connector reaches it: never listed.
      expect((await methodsOf(bj, intent.sessionToken)).map((d) => d.provider)).not.toContain('celtiis_cash');
    } finally {
      await route('BJ', 'moov_money', null);
    }
  });

  it('the method settings accept and list the methods aggregators reach', async () => {
    const set = await call(ctx.app, 'PUT', '/payment-methods/settings', sk(bj), { order: ['moov_money', 'mtn_momo'] });
    expect(set.statusCode, set.body).toBe(200);
    expect((set.json() as { order: string[] }).order.slice(0, 2)).toEqual(['moov_money', 'mtn_momo']);
    const moov = (set.json() as { providers: { provider: string }[] }).providers.find((p) => p.provider === 'moov_money');
    expect(moov).toMatchObject({ name: 'Moov Money', servesCountry: true, configured: true, offered: true });
    const intent = await createIntent(ctx, bj, { currency: 'XOF' });
    expect((await methodsOf(bj, intent.sessionToken)).map((d) => d.provider ?? d.type)).toEqual(['wallet', 'moov_money', 'mtn_momo']);
    expect((await call(ctx.app, 'PUT', '/payment-methods/settings', sk(bj), { order: null })).statusCode).toBe(200);
  });
});

describe('POST /charge', () => {
  it('pays Moov Money through pawaPay and refunds it through pawaPay', async () => {
    await route('BJ', 'moov_money', ['pawapay']);
    try {
      const intent = await createIntent(ctx, bj, { currency: 'XOF', amount: '4000' });
      const charged = await pay(bj, intent, 'moov_money', '0145112233');
      expect(charged.statusCode, charged.body).toBe(202);
      expect((charged.json() as Intent).attempts).toEqual([expect.objectContaining({ provider: 'moov_money', connector: 'pawapay' })]);
      // The method's brand in the prompt's words; no USSD code to dial (Moov's differs by country).
      const next = (charged.json() as { nextAction: { type: string; ussd: string | null; message: string } }).nextAction;
      expect(next).toMatchObject({ type: 'approve_on_phone', ussd: null });
      expect(next.message).toContain('Moov Money');
      expect(next.message).not.toMatch(/composez|dial/i);
      await later();
      expect((await read(bj, intent.id)).status).toBe('SUCCEEDED');
      const refund = await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(bj), {});
      expect(refund.statusCode, refund.body).toBe(202);
      await later();
      await later();
      expect(await read(bj, intent.id)).toMatchObject({ status: 'REFUNDED', amountRefunded: '4000' });
    } finally {
      await route('BJ', 'moov_money', null);
    }
    await expectLedgerClean(ctx);
  });

  it('pays MTN MoMo in Benin through pawaPay (MTN’s own connector serves Cameroon only)', async () => {
    await route('BJ', 'mtn_momo', ['pawapay']);
    try {
      const intent = await createIntent(ctx, bj, { currency: 'XOF', amount: '2500' });
      const charged = await pay(bj, intent, 'mtn_momo', '+229 01 97 12 34 56');
      expect(charged.statusCode, charged.body).toBe(202);
      expect((charged.json() as Intent).attempts).toEqual([expect.objectContaining({ provider: 'mtn_momo', connector: 'pawapay' })]);
      await later();
      expect((await read(bj, intent.id)).status).toBe('SUCCEEDED');
    } finally {
      await route('BJ', 'mtn_momo', null);
    }
  });

  it('refuses a number whose operator no route reaches, naming the operator; another method’s number names the method that serves it', async () => {
    const intent = await createIntent(ctx, bj, { currency: 'XOF' });
    // Celtiis: in the catalogue, reached by no connector in Benin.
    for (const provider of ['celtiis_cash', 'mtn_momo']) {
      const refused = await pay(bj, intent, provider, '0140112233');
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'operator_unsupported', param: 'paymentMethod.phoneNumber', operator: 'celtiis' });
      expect((refused.json() as { detail: string }).detail).toMatch(
        / is a Celtiis number, and no payment method of this merchant reaches Celtiis in BJ in test mode/,
      );
    }
    // A Moov number for MTN MoMo: Moov Money reaches it here.
    const other = await pay(bj, intent, 'mtn_momo', '0145112244');
    expect(other.statusCode, other.body).toBe(400);
    expect(other.json()).toMatchObject({ code: 'phone_invalid', operator: 'moov' });
    expect((other.json() as { detail: string }).detail).toContain('choose Moov Money');
    // An aggregator is never a method; Free Money does not serve Benin.
    expect((await pay(bj, intent, 'pawapay', '0145112255')).json()).toMatchObject({ code: 'provider_unsupported' });
    expect((await pay(bj, intent, 'free_money', '0145112255')).json()).toMatchObject({ code: 'provider_unsupported' });
    expect((await read(bj, intent.id)).status).toBe('PENDING');
  });
});
