/**
 * The operator console's merchant terms and method caps (decision 0047): fees, settlement delay
 * and rolling reserve set with a reason and audited before/after, applied to the next payment; the
 * payment methods a merchant may offer, capped per mode, enforced at checkout's list, at the
 * merchant's own settings and at the charge (wallet and mobile money).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize, charge, createIntent, newUser, problem } from './flow.support.ts';
import { call, createMerchant, pk, sk } from './harness.ts';
import { consoleWithSandbox, type OperatorBrowser } from './operators.support.ts';

let env: Awaited<ReturnType<typeof consoleWithSandbox>>;
let finance: OperatorBrowser;
let compliance: OperatorBrowser;
let support: OperatorBrowser;

beforeAll(async () => {
  env = await consoleWithSandbox('Terms shop');
  finance = await env.ops.operator('finance');
  compliance = await env.ops.operator('compliance');
  support = await env.ops.operator('support');
});
afterAll(() => env?.close());

const audit = async () =>
  (await env.ops.send('GET', '/operator/api/audit?limit=50', await env.ops.operator('admin'))).json() as {
    data: { action: string; targetId: string; before: unknown; after: unknown; reason: string | null }[];
  };

describe('merchant terms', () => {
  it('finance sets fees, delay and reserve with a reason; the audit keeps before and after; the next payment pays the new fee', async () => {
    const { ctx, shop } = env;
    const url = `/operator/api/merchants/${shop.merchantId}/terms`;
    const res = await env.ops.send('PUT', url, finance, {
      fees: { bps: 200, fixedMinor: { XAF: '100' } },
      settlementDelayDays: 0,
      reserve: { bps: 1000, days: 30 },
      reason: 'Negotiated rate, March contract',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ fees: { bps: 200, fixedMinor: { XAF: '100' } }, settlementDelayDays: 0, reserve: { bps: 1000, days: 30 } });

    const entry = (await audit()).data.find((e) => e.action === 'merchant.terms_set');
    expect(entry).toMatchObject({
      targetId: shop.merchantId,
      before: { fees: null, settlementDelayDays: null, reserve: null },
      after: { fees: { bps: 200, fixedMinor: { XAF: '100' } }, settlementDelayDays: 0, reserve: { bps: 1000, days: 30 } },
      reason: 'Negotiated rate, March contract',
    });

    // 2 % of 5 000 + 100 = 200: the key cache was dropped, the next charge uses the new terms.
    const user = await newUser(ctx, shop, { balance: '10000' });
    const intent = await createIntent(ctx, shop, { amount: '5000' });
    expect((await charge(ctx, user, intent.id, await authorize(ctx, shop, user, intent.id))).statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(shop))).json()).toMatchObject({ fee: '200', net: '4800' });

    // A field left out keeps its value; null goes back to the default (off for the reserve).
    const partial = await env.ops.send('PUT', url, finance, { reserve: null, reason: 'Reserve lifted after review' });
    expect(partial.json()).toMatchObject({ fees: { bps: 200 }, settlementDelayDays: 0, reserve: null });
  });

  it('refuses bad terms, a missing reason, an unknown merchant and a role without merchants:terms', async () => {
    const url = `/operator/api/merchants/${env.shop.merchantId}/terms`;
    problem(await env.ops.send('PUT', url, finance, { fees: { bps: 10_001, fixedMinor: {} }, reason: 'x' }), 400, 'validation_error');
    problem(await env.ops.send('PUT', url, finance, { reserve: { bps: 100, days: 0 }, reason: 'x' }), 400, 'validation_error');
    problem(await env.ops.send('PUT', url, finance, { fees: { bps: 100, fixedMinor: { XAF: '1.5' } }, reason: 'x' }), 400, 'validation_error');
    problem(await env.ops.send('PUT', url, finance, { settlementDelayDays: 2 }), 400, 'validation_error');
    problem(await env.ops.send('PUT', url, finance, { settlementDelayDays: 2, reason: '   ' }), 400, 'validation_error');
    problem(await env.ops.send('PUT', '/operator/api/merchants/mch_unknown/terms', finance, { settlementDelayDays: 2, reason: 'x' }), 404, 'not_found');
    const denied = problem(await env.ops.send('PUT', url, support, { settlementDelayDays: 2, reason: 'x' }), 403, 'permission_denied');
    expect(denied.permission).toBe('merchants:terms');
  });
});

describe('payment methods the merchant may offer', () => {
  it('without the wallet and Orange Money in test mode: checkout, settings and charges all hold to it; lifting it restores the choice', async () => {
    const { ctx, shop } = env;
    const url = `/operator/api/merchants/${shop.merchantId}/methods`;
    const set = await env.ops.send('PUT', url, compliance, { mode: 'test', wallet: false, providers: ['mtn_momo'], reason: 'Wallet use under review' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().methods).toEqual({ test: { wallet: false, providers: ['mtn_momo'] }, live: { wallet: true, providers: null } });

    // Checkout's list leaves them out.
    const intent = await createIntent(ctx, shop, { amount: '5000' });
    const offered = (await call(ctx.app, 'GET', `/payment-methods?sessionToken=${intent.sessionToken}`, pk(shop))).json() as {
      data: { type: string; provider?: string }[];
    };
    expect(offered.data.map((d) => d.provider ?? d.type)).toEqual(['mtn_momo']);

    // The merchant's settings say why, and asking for them is refused.
    const settings = (await call(ctx.app, 'GET', '/payment-methods/settings', sk(shop))).json() as {
      wallet: boolean;
      walletAllowed: boolean;
      providers: { provider: string; allowed: boolean; offered: boolean }[];
    };
    expect(settings).toMatchObject({ wallet: false, walletAllowed: false });
    expect(settings.providers.find((p) => p.provider === 'orange_money')).toMatchObject({ allowed: false, offered: false });
    expect(problem(await call(ctx.app, 'PUT', '/payment-methods/settings', sk(shop), { wallet: true }), 403, 'payment_method_not_allowed').param).toBe(
      'wallet',
    );
    expect(
      problem(await call(ctx.app, 'PUT', '/payment-methods/settings', sk(shop), { providers: ['mtn_momo', 'orange_money'] }), 403, 'payment_method_not_allowed')
        .param,
    ).toBe('providers[1]');

    // A wallet charge and an Orange Money charge are refused; nothing moves.
    const user = await newUser(ctx, shop, { balance: '10000' });
    problem(await charge(ctx, user, intent.id, await authorize(ctx, shop, user, intent.id)), 403, 'payment_method_not_allowed');
    const orange = await call(
      ctx.app,
      'POST',
      '/charge',
      { ...pk(shop), headers: { 'x-session-token': intent.sessionToken } },
      { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'orange_money', phoneNumber: '+237690000101' } },
    );
    expect(problem(orange, 403, 'payment_method_not_allowed').param).toBe('paymentMethod.provider');
    expect((await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(shop))).json()).toMatchObject({ status: 'PENDING' });

    const entry = (await audit()).data.find((e) => e.action === 'merchant.methods_set');
    expect(entry).toMatchObject({
      before: { mode: 'test', wallet: true, providers: null },
      after: { mode: 'test', wallet: false, providers: ['mtn_momo'] },
      reason: 'Wallet use under review',
    });

    // Lifted: the merchant's own choice (the default here) counts again, and the wallet pays.
    expect((await env.ops.send('PUT', url, compliance, { mode: 'test', wallet: true, providers: null, reason: 'Review closed' })).statusCode).toBe(200);
    expect((await charge(ctx, user, intent.id, await authorize(ctx, shop, user, intent.id))).statusCode).toBe(200);
  });

  it('a cap lists card like any method (decision 0096): listed, the merchant offers it; left out, checkout drops it and a card charge is 403', async () => {
    const { ctx, shop } = env;
    const url = `/operator/api/merchants/${shop.merchantId}/methods`;
    const cap = (providers: string[] | null) => env.ops.send('PUT', url, compliance, { mode: 'test', wallet: true, providers, reason: 'Card review' });
    const intent = await createIntent(ctx, shop, { amount: '5000' });
    const offered = async () =>
      (
        (await call(ctx.app, 'GET', `/payment-methods?sessionToken=${intent.sessionToken}`, pk(shop))).json() as { data: { type: string; provider?: string }[] }
      ).data.map((d) => d.provider ?? d.type);
    const cardSetting = async () =>
      (
        (await call(ctx.app, 'GET', '/payment-methods/settings', sk(shop))).json() as { providers: { provider: string; allowed: boolean; offered: boolean }[] }
      ).providers.find((p) => p.provider === 'card');

    const withCard = await cap(['mtn_momo', 'card']);
    expect(withCard.statusCode, withCard.body).toBe(200);
    expect(withCard.json().methods.test).toEqual({ wallet: true, providers: ['mtn_momo', 'card'] });
    expect(await offered()).toEqual(['wallet', 'mtn_momo', 'card']);
    expect(await cardSetting()).toMatchObject({ allowed: true, offered: true });

    expect((await cap(['mtn_momo'])).statusCode).toBe(200);
    expect(await offered()).toEqual(['wallet', 'mtn_momo']);
    expect(await cardSetting()).toMatchObject({ allowed: false, offered: false });
    expect(problem(await call(ctx.app, 'PUT', '/payment-methods/settings', sk(shop), { providers: ['card'] }), 403, 'payment_method_not_allowed').param).toBe(
      'providers[0]',
    );
    const holder = {
      name: 'Paul',
      surname: 'Biya',
      email: 'paul@example.cm',
      phoneNumber: '+237670000001',
      address: 'Rue 1',
      city: 'Douala',
      country: 'CM',
      zipCode: '00237',
    };
    const card = await call(
      ctx.app,
      'POST',
      '/charge',
      { ...pk(shop), headers: { 'x-session-token': intent.sessionToken } },
      { intentionId: intent.id, paymentMethod: { type: 'card', cardholder: holder } },
    );
    expect(problem(card, 403, 'payment_method_not_allowed').param).toBe('paymentMethod.type');
    expect((await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(shop))).json()).toMatchObject({ status: 'PENDING' });
    expect(await ctx.deps.db.selectFrom('payment_attempts').select('id').where('intent_id', '=', intent.id).execute()).toEqual([]);

    expect((await cap(null)).statusCode).toBe(200);
    expect(await offered()).toEqual(['wallet', 'mtn_momo', 'orange_money', 'card']);
  });

  it("the cap's choices are the country's methods and card, never an aggregator; a cap of any of them saves", async () => {
    type Choices = { object: string; country: string; test: { method: string; servesCountry: boolean }[]; live: { method: string; servesCountry: boolean }[] };
    const choices = async (merchantId: string) => {
      const res = await env.ops.send('GET', `/operator/api/merchants/${merchantId}/methods/choices`, compliance);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Choices;
    };
    const methodsOf = (list: { method: string }[]) => list.map((c) => c.method);

    const cm = await choices(env.shop.merchantId);
    expect(cm).toMatchObject({ object: 'merchant_method_choices', country: 'CM' });
    expect(cm.test).toEqual([
      { method: 'mtn_momo', name: 'MTN MoMo', servesCountry: true, configured: true },
      { method: 'orange_money', name: 'Orange Money', servesCountry: true, configured: true },
      { method: 'card', name: 'Visa / Mastercard', servesCountry: true, configured: true },
    ]);
    expect(methodsOf(cm.live)).toEqual(['mtn_momo', 'orange_money', 'card']);

    // In Côte d'Ivoire, Moov Money is reached only through an aggregator: it is listed, the aggregators are not.
    const shop = await createMerchant(env.ctx, 'Abidjan shop');
    await env.ctx.services.merchants.setCountry(shop.merchantId, 'CI');
    const ci = await choices(shop.merchantId);
    expect(ci.country).toBe('CI');
    for (const mode of ['test', 'live'] as const) {
      expect(methodsOf(ci[mode])).toEqual(expect.arrayContaining(['mtn_momo', 'orange_money', 'wave', 'moov_money']));
      expect(methodsOf(ci[mode])).not.toContain('pawapay');
      expect(methodsOf(ci[mode])).not.toContain('cinetpay');
      expect(ci[mode].every((c) => c.servesCountry)).toBe(true);
    }

    // What the form sends when one box is unticked, then when all but one are: saved, no validation_error.
    const url = `/operator/api/merchants/${shop.merchantId}/methods`;
    const listed = methodsOf(ci.test);
    const allButMoov = await env.ops.send('PUT', url, compliance, {
      mode: 'test',
      wallet: true,
      providers: listed.filter((m) => m !== 'moov_money'),
      reason: 'Moov Money under review',
    });
    expect(allButMoov.statusCode, allButMoov.body).toBe(200);
    expect(allButMoov.json().methods.test.providers).toEqual(listed.filter((m) => m !== 'moov_money'));
    const onlyMoov = await env.ops.send('PUT', url, compliance, { mode: 'test', wallet: false, providers: ['moov_money'], reason: 'Moov Money only' });
    expect(onlyMoov.statusCode, onlyMoov.body).toBe(200);
    expect(onlyMoov.json().methods.test).toEqual({ wallet: false, providers: ['moov_money'] });
    expect(methodsOf((await choices(shop.merchantId)).test)).toEqual(listed);

    // A method the cap names but the country does not serve stays listed, so that it can be unticked.
    expect((await env.ops.send('PUT', url, compliance, { mode: 'live', wallet: true, providers: ['free_money', 'wave'], reason: 'x' })).statusCode).toBe(200);
    const after = await choices(shop.merchantId);
    expect(after.live.find((c) => c.method === 'free_money')).toMatchObject({ servesCountry: false });
    expect(methodsOf(after.test)).not.toContain('free_money');

    // Senegal has no card route: card is listed only once a cap names it.
    const dakar = await createMerchant(env.ctx, 'Dakar shop');
    await env.ctx.services.merchants.setCountry(dakar.merchantId, 'SN');
    expect(methodsOf((await choices(dakar.merchantId)).test)).toEqual(['orange_money', 'wave', 'free_money']);
    const dakarUrl = `/operator/api/merchants/${dakar.merchantId}/methods`;
    expect((await env.ops.send('PUT', dakarUrl, compliance, { mode: 'test', wallet: true, providers: ['wave', 'card'], reason: 'x' })).statusCode).toBe(200);
    expect((await choices(dakar.merchantId)).test.at(-1)).toEqual({ method: 'card', name: 'Visa / Mastercard', servesCountry: false, configured: false });

    expect(problem(await env.ops.send('GET', `/operator/api/merchants/${shop.merchantId}/methods/choices`, support), 403, 'permission_denied').permission).toBe(
      'merchants:methods',
    );
    problem(await env.ops.send('GET', '/operator/api/merchants/mch_unknown/methods/choices', compliance), 404, 'not_found');
  });

  it('refuses a role without merchants:methods, an unknown provider and an unknown merchant', async () => {
    const url = `/operator/api/merchants/${env.shop.merchantId}/methods`;
    expect(
      problem(await env.ops.send('PUT', url, finance, { mode: 'live', wallet: true, providers: null, reason: 'x' }), 403, 'permission_denied').permission,
    ).toBe('merchants:methods');
    problem(await env.ops.send('PUT', url, compliance, { mode: 'live', wallet: true, providers: ['paypal'], reason: 'x' }), 400, 'validation_error');
    // An aggregator is a way to reach methods, never one a cap names.
    problem(
      await env.ops.send('PUT', url, compliance, { mode: 'live', wallet: true, providers: ['mtn_momo', 'pawapay'], reason: 'x' }),
      400,
      'validation_error',
    );
    problem(
      await env.ops.send('PUT', '/operator/api/merchants/mch_unknown/methods', compliance, { mode: 'live', wallet: true, providers: null, reason: 'x' }),
      404,
      'not_found',
    );
  });
});

describe('the last reconciliation', () => {
  it('each run is recorded; the console answers the newest per provider and mode, to money:read only', async () => {
    const { ctx } = env;
    const now = ctx.clock.now();
    const day = 24 * 60 * 60 * 1000;
    const reconcile = (from: Date, to: Date) => ctx.services.reconciliation.reconcile({ provider: 'mtn_momo', mode: 'test', from, to });
    await reconcile(new Date(now.getTime() - 2 * day), new Date(now.getTime() - day));
    ctx.clock.advance(60_000);
    const newest = await reconcile(new Date(now.getTime() - day), now);

    const res = await env.ops.send('GET', '/operator/api/reconciliation', finance);
    expect(res.statusCode, res.body).toBe(200);
    const runs = (res.json() as { data: { provider: string; mode: string; from: string; result: string; generatedAt: string }[] }).data;
    expect(runs.filter((r) => r.provider === 'mtn_momo' && r.mode === 'test')).toEqual([
      expect.objectContaining({ from: newest.from, result: newest.result, generatedAt: newest.generatedAt }),
    ]);
    expect(problem(await env.ops.send('GET', '/operator/api/reconciliation', support), 403, 'permission_denied').permission).toBe('money:read');
  });
});
