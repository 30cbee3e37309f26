import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/admin.ts';
import { COUNTRY_CODES } from '../src/platform/countries.ts';
import { CountrySchema } from '../src/platform/countries.schema.ts';
import { call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import { authorize, charge, newUser, problem } from './flow.support.ts';

/**
 * Merchant country and payment methods (docs/spec/mobile-money-payments.md, docs/spec/providers.md): `GET /payment-methods` for checkout,
 * the merchant's choice per mode, and the country that selects providers and currency. Test mode
 * has the MoMo sandbox configured (never called here); live mode has no provider.
 */
let ctx: TestContext;
let m: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext({ env: { CAISSE_SANDBOX_URL: 'http://127.0.0.1:9' } });
  m = await createMerchant(ctx, 'Methods');
}, 60_000);
afterAll(() => ctx.close());

async function intent(t: TestMerchant, body: Record<string, unknown> = {}, creds = sk(t)) {
  const res = await call(ctx.app, 'POST', '/gateway', creds, { amount: '5000', currency: 'XAF', description: 'Order', metadata: {}, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; sessionToken: string };
}

async function methodsOf(t: TestMerchant, sessionToken: string, creds = pk(t)) {
  const res = await call(ctx.app, 'GET', `/payment-methods?sessionToken=${encodeURIComponent(sessionToken)}`, creds);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Record<string, unknown>[] }).data;
}

/** The catalogue's methods after a country's default order's (decision 0084): those only aggregators reach. */
const REST = ['free_money', 't_money', 'celtiis_cash'];
const REST_OF_CATALOGUE = ['moov_money', ...REST];

const MTN = {
  type: 'mobile_money',
  provider: 'mtn_momo',
  name: 'MTN MoMo',
  approval: 'phone_prompt',
  available: true,
  minAmount: '100',
  maxAmount: '500000',
  prefixes: ['+237650', '+237651', '+237652', '+237653', '+237654', '+237680', '+237681', '+237682', '+237683', '+23767'],
  ussd: '*126#',
};

describe('merchant country', () => {
  it('is CM by default; merchants country sets it (CLI command); create takes --country', async () => {
    const t = await createMerchant(ctx, 'Country');
    expect((await ctx.services.merchants.findMerchant(t.merchantId))?.country).toBe('CM');
    expect(await runAdminCommand(ctx.services, 'merchants.country', { merchantId: t.merchantId, country: 'SN' })).toEqual({
      merchantId: t.merchantId,
      country: 'SN',
      currency: 'XOF',
    });
    expect((await ctx.services.merchants.findMerchant(t.merchantId))?.country).toBe('SN');
    const created = await runAdminCommand(ctx.services, 'merchants.create', { name: 'Abidjan', country: 'CI' });
    expect((await ctx.services.merchants.findMerchant(created.merchantId))?.country).toBe('CI');
    // Benin, Burkina Faso, Mali and Togo (section 15), all in XOF, stored as the database allows.
    for (const country of ['BJ', 'BF', 'ML', 'TG'] as const) {
      const made = await runAdminCommand(ctx.services, 'merchants.create', { name: `Shop ${country}`, country });
      expect((await ctx.services.merchants.findMerchant(made.merchantId))?.country).toBe(country);
      expect(await runAdminCommand(ctx.services, 'merchants.country', { merchantId: made.merchantId, country })).toMatchObject({ currency: 'XOF' });
    }
    await expect(runAdminCommand(ctx.services, 'merchants.country', { merchantId: 'mch_nope', country: 'CM' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('the database refuses a country it does not know', async () => {
    await expect(
      ctx.deps.db
        .updateTable('merchants')
        .set({ country: 'FR' as 'CM' })
        .where('id', '=', m.merchantId)
        .execute(),
    ).rejects.toThrow();
    expect(CountrySchema.anyOf.map((s: { const: string }) => s.const)).toEqual(COUNTRY_CODES);
  });
});

/** The card method as Cameroon's card route (CinetPay's sandbox account in test mode) offers it in XAF. */
const CARD = { type: 'card', name: 'Visa / Mastercard', approval: 'redirect', available: true, minAmount: '100', maxAmount: '1500000' };

describe('GET /payment-methods', () => {
  it("by default: the wallet, then every configured provider of the merchant's country and currency", async () => {
    const { sessionToken } = await intent(m);
    // Test mode's sandbox serves every provider: MTN and Orange in Cameroon.
    const methods = await methodsOf(m, sessionToken);
    expect(methods.slice(0, 2)).toEqual([{ type: 'wallet' }, MTN]);
    expect(methods.slice(2)).toEqual([
      {
        type: 'mobile_money',
        provider: 'orange_money',
        name: 'Orange Money',
        approval: 'redirect',
        available: true,
        minAmount: '100',
        maxAmount: '500000',
        prefixes: expect.arrayContaining(['+23769']),
        ussd: null,
      },
      // Cards last, through the card route (docs/spec/card-payments.md): CinetPay's sandbox account in Cameroon.
      CARD,
    ]);
  });

  it("a provider's prefixes are those of the merchant's country: Orange serves Senegal and Côte d'Ivoire too", async () => {
    const list = await methodsOf(m, (await intent(m)).sessionToken);
    const orange = list.find((p) => 'provider' in p && p.provider === 'orange_money') as { prefixes: string[] };
    expect(orange.prefixes.length).toBeGreaterThan(0);
    expect(orange.prefixes.every((p) => p.startsWith('+237'))).toBe(true);
  });

  it('a currency no provider serves offers the wallet only; live mode has no provider configured here', async () => {
    // An intent in euros made before intents were held to their country's routes (decision 0082).
    const euros = await intent(m);
    await ctx.deps.db.updateTable('intents').set({ currency: 'EUR', amount_minor: 1000n }).where('id', '=', euros.id).execute();
    expect(await methodsOf(m, euros.sessionToken)).toEqual([{ type: 'wallet' }]);
    const live = { apiKey: m.live.apiKey, secretKey: m.live.secretKey };
    const { sessionToken } = await intent(m, {}, live);
    expect(await methodsOf(m, sessionToken, { apiKey: m.live.apiKey })).toEqual([{ type: 'wallet' }]);
    // Live wallets are filled by top-ups in the country's currency: a live intent in dollars
    // lists no wallet (test funding credits any currency, so test mode still does; decision 0098).
    const dollars = await intent(m, {}, live);
    await ctx.deps.db.updateTable('intents').set({ currency: 'USD', amount_minor: 2500n }).where('id', '=', dollars.id).execute();
    expect(await methodsOf(m, dollars.sessionToken, { apiKey: m.live.apiKey })).toEqual([]);
  });

  it('a merchant in Senegal is not offered MTN MoMo Cameroon', async () => {
    const t = await createMerchant(ctx, 'Dakar');
    await ctx.services.merchants.setCountry(t.merchantId, 'SN');
    const methods = await methodsOf(t, (await intent(t, { currency: 'XOF' })).sessionToken);
    // Wave first: the wallet most of Dakar uses, so checkout preselects it (issue 58).
    // Free Money too, reached through an aggregator (decision 0084).
    expect(methods.map((d) => d.provider ?? d.type)).toEqual(['wallet', 'wave', 'orange_money', 'free_money']);
    expect(await ctx.services.methods.allowedMethod({ merchantId: t.merchantId, mode: 'test' }, 'mtn_momo', 'XOF')).toBe(false);
  });

  it("lists the providers in the country's default order, or in the merchant's (issue 58)", async () => {
    const t = await createMerchant(ctx, 'Abidjan order');
    await ctx.services.merchants.setCountry(t.merchantId, 'CI');
    const providers = async () => (await methodsOf(t, (await intent(t, { currency: 'XOF' })).sessionToken)).flatMap((d) => (d.provider ? [d.provider] : []));
    // MTN MoMo and Moov Money reached through the aggregators' sandboxes (decision 0084).
    expect(await providers()).toEqual(['mtn_momo', 'orange_money', 'wave', 'moov_money']);
    const set = await call(ctx.app, 'PUT', '/payment-methods/settings', sk(t), { order: ['wave'] });
    expect(set.statusCode, set.body).toBe(200);
    // The order does not change which providers are offered: those named first, then the default.
    expect(set.json()).toMatchObject({ orderDefault: false, order: ['wave', 'mtn_momo', 'orange_money', 'moov_money', ...REST], providersDefault: true });
    expect(await providers()).toEqual(['wave', 'mtn_momo', 'orange_money', 'moov_money']);
    // Live mode keeps its own order; null is the default again.
    const live = await call(ctx.app, 'GET', '/payment-methods/settings', { apiKey: t.live.apiKey, secretKey: t.live.secretKey });
    expect(live.json()).toMatchObject({ orderDefault: true, order: ['mtn_momo', 'orange_money', 'wave', 'moov_money', ...REST] });
    expect((await call(ctx.app, 'PUT', '/payment-methods/settings', sk(t), { order: null })).json()).toMatchObject({ orderDefault: true });
    expect(await providers()).toEqual(['mtn_momo', 'orange_money', 'wave', 'moov_money']);
    problem(await call(ctx.app, 'PUT', '/payment-methods/settings', sk(t), { order: ['paypal'] }), 400, 'validation_error');
    problem(await call(ctx.app, 'PUT', '/payment-methods/settings', sk(t), { order: ['wave', 'wave'] }), 400, 'validation_error');
  });

  it('needs a token of this merchant and mode; refuses a missing one', async () => {
    const other = await createMerchant(ctx, 'Other');
    const { sessionToken } = await intent(m);
    problem(await call(ctx.app, 'GET', `/payment-methods?sessionToken=${sessionToken}`, pk(other)), 404, 'not_found');
    problem(await call(ctx.app, 'GET', `/payment-methods?sessionToken=${sessionToken}`, { apiKey: m.live.apiKey }), 404, 'not_found');
    problem(await call(ctx.app, 'GET', '/payment-methods?sessionToken=ps_nope', pk(m)), 404, 'not_found');
    problem(await call(ctx.app, 'GET', '/payment-methods', pk(m)), 400, 'validation_error');
    problem(await call(ctx.app, 'GET', `/payment-methods?sessionToken=${sessionToken}`, {}), 401, 'api_key_missing');
  });
});

describe('payment method settings', () => {
  it('default: wallet on, providers by default; each mode has its own choice', async () => {
    const t = await createMerchant(ctx, 'Settings');
    const res = await call(ctx.app, 'GET', '/payment-methods/settings', sk(t));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      object: 'payment_method_settings',
      livemode: false,
      country: 'CM',
      currency: 'XAF',
      wallet: true,
      walletAllowed: true,
      providersDefault: true,
      orderDefault: true,
      order: ['mtn_momo', 'orange_money', 'wave', 'moov_money', ...REST],
      providers: [
        {
          provider: 'mtn_momo',
          name: 'MTN MoMo',
          capabilities: { collect: true, disburse: true, refund: true },
          approval: 'phone_prompt',
          enabled: true,
          configured: true,
          allowed: true,
          servesCountry: true,
          offered: true,
          available: true,
        },
        // Test mode's sandbox serves every provider; Wave does not serve Cameroon.
        {
          provider: 'orange_money',
          name: 'Orange Money',
          capabilities: { collect: true, disburse: false, refund: false },
          approval: 'redirect',
          enabled: true,
          configured: true,
          allowed: true,
          servesCountry: true,
          offered: true,
          available: true,
        },
        {
          provider: 'wave',
          name: 'Wave',
          capabilities: { collect: true, disburse: true, refund: true },
          approval: 'redirect',
          enabled: true,
          configured: true,
          allowed: true,
          servesCountry: false,
          offered: false,
          available: true,
        },
        // The methods only aggregators reach, none of them in Cameroon (decision 0084).
        ...[
          ['moov_money', 'Moov Money'],
          ['free_money', 'Free Money'],
          ['t_money', 'T-Money'],
          ['celtiis_cash', 'Celtiis Cash'],
        ].map(([provider, name]) => ({
          provider,
          name,
          capabilities: { collect: false, disburse: false, refund: false },
          approval: 'phone_prompt',
          enabled: true,
          configured: false,
          allowed: true,
          servesCountry: false,
          offered: false,
          available: true,
        })),
        // Card after them, where a card route serves the country (CinetPay's sandbox in test mode):
        // on by default; its payments cannot be refunded through that route (decision 0096).
        {
          provider: 'card',
          name: 'Visa / Mastercard',
          capabilities: { collect: true, disburse: false, refund: false },
          approval: 'redirect',
          enabled: true,
          configured: true,
          allowed: true,
          servesCountry: true,
          offered: true,
          available: true,
        },
      ],
    });
    // Live mode has no CinetPay account here: card is listed (it serves Cameroon), not configured.
    const live = await call(ctx.app, 'GET', '/payment-methods/settings', { apiKey: t.live.apiKey, secretKey: t.live.secretKey });
    expect(live.json()).toMatchObject({
      livemode: true,
      providers: [
        { provider: 'mtn_momo', enabled: true, configured: false, offered: false },
        ...Array.from({ length: 6 }, () => ({ configured: false })),
        { provider: 'card', enabled: true, configured: false, servesCountry: true, offered: false },
      ],
    });
  });

  it('PUT chooses exactly what checkout offers, and what the charge path allows', async () => {
    const t = await createMerchant(ctx, 'Chooser');
    const scope = { merchantId: t.merchantId, mode: 'test' as const };
    const { sessionToken } = await intent(t);
    expect(await ctx.services.methods.allowedMethod(scope, 'mtn_momo', 'XAF')).toBe(true);

    const off = await call(ctx.app, 'PUT', '/payment-methods/settings', sk(t), { providers: [] });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({
      wallet: true,
      providersDefault: false,
      providers: [
        { provider: 'mtn_momo', enabled: false, offered: false },
        { provider: 'orange_money', enabled: false },
        { provider: 'wave', enabled: false },
        ...REST_OF_CATALOGUE.map((provider) => ({ provider, enabled: false })),
        { provider: 'card', enabled: false, offered: false },
      ],
    });
    // Card is a method of the list like the others (decision 0096): left out, it is not offered.
    expect(await methodsOf(t, sessionToken)).toEqual([{ type: 'wallet' }]);
    expect(await ctx.services.methods.allowedMethod(scope, 'mtn_momo', 'XAF')).toBe(false);

    const mm = await call(ctx.app, 'PUT', '/payment-methods/settings', sk(t), { wallet: false, providers: ['mtn_momo'] });
    expect(mm.json()).toMatchObject({
      wallet: false,
      providersDefault: false,
      providers: [{ enabled: true, offered: true }, ...Array.from({ length: 7 }, () => ({ enabled: false }))],
    });
    expect(await methodsOf(t, sessionToken)).toEqual([MTN]);
    const withCard = await call(ctx.app, 'PUT', '/payment-methods/settings', sk(t), { providers: ['card', 'mtn_momo'] });
    expect(withCard.json()).toMatchObject({
      wallet: false,
      providers: [
        { provider: 'mtn_momo', enabled: true },
        ...Array.from({ length: 6 }, () => ({ enabled: false })),
        { provider: 'card', enabled: true, offered: true },
      ],
    });
    expect(await methodsOf(t, sessionToken)).toEqual([MTN, CARD]);
    expect(await ctx.services.methods.allowedMethod(scope, 'mtn_momo', 'XAF')).toBe(true);
    expect(await ctx.services.methods.allowedMethod(scope, 'mtn_momo', 'EUR')).toBe(false);
    expect(await ctx.services.methods.allowedMethod(scope, 'paypal', 'XAF')).toBe(false);

    // The wallet left out is refused at the charge too, not only left out of the list.
    const payer = await newUser(ctx, t, { balance: '10000' });
    const walletIntent = await intent(t);
    const refused = await charge(ctx, payer, walletIntent.id, await authorize(ctx, t, payer, walletIntent.id));
    expect(problem(refused, 400, 'payment_method_unsupported').param).toBe('paymentMethod');
    expect((await call(ctx.app, 'GET', `/gateway/${walletIntent.id}`, sk(t))).json()).toMatchObject({ status: 'PENDING', amountRefunded: '0' });

    // A field left out keeps its value; null is the default again.
    const back = await call(ctx.app, 'PUT', '/payment-methods/settings', sk(t), { providers: null });
    expect(back.json()).toMatchObject({ wallet: false, providersDefault: true });
    // Live mode kept its own default.
    expect(await ctx.services.methods.walletAllowed({ merchantId: t.merchantId, mode: 'live' })).toBe(true);
  });

  it('refuses bad input with a code, and needs the secret key', async () => {
    problem(await call(ctx.app, 'PUT', '/payment-methods/settings', sk(m), { providers: ['paypal'] }), 400, 'validation_error');
    problem(await call(ctx.app, 'PUT', '/payment-methods/settings', sk(m), { providers: ['card', 'cards'] }), 400, 'validation_error');
    // Card is a choice of its own in checkout, after mobile money: it has no place in the order.
    problem(await call(ctx.app, 'PUT', '/payment-methods/settings', sk(m), { order: ['card'] }), 400, 'validation_error');
    await expect(ctx.services.methods.updateSettings({ merchantId: m.merchantId, mode: 'test' }, { order: ['card' as 'mtn_momo'] })).rejects.toMatchObject({
      code: 'provider_unsupported',
      options: { param: 'order[0]' },
    });
    problem(await call(ctx.app, 'PUT', '/payment-methods/settings', sk(m), { wallet: 'yes' }), 400, 'validation_error');
    problem(await call(ctx.app, 'PUT', '/payment-methods/settings', sk(m), { cards: true }), 400, 'parameter_unknown');
    await expect(
      ctx.services.methods.updateSettings({ merchantId: m.merchantId, mode: 'test' }, { providers: ['paypal' as 'mtn_momo'] }),
    ).rejects.toMatchObject({ code: 'provider_unsupported' });
    problem(await call(ctx.app, 'GET', '/payment-methods/settings', pk(m)), 401, 'secret_key_required');
    problem(await call(ctx.app, 'PUT', '/payment-methods/settings', pk(m), { wallet: true }), 401, 'secret_key_required');
  });
});

describe('returnUrl on intents', () => {
  it('is stored and returned on the intent, by the session-token read, and in events', async () => {
    const res = await call(ctx.app, 'POST', '/gateway', sk(m), {
      amount: '5000',
      currency: 'XAF',
      description: 'Order',
      metadata: {},
      returnUrl: 'https://shop.example.cm/orders/42?paid=1',
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as { id: string; sessionToken: string; returnUrl: string };
    expect(created.returnUrl).toBe('https://shop.example.cm/orders/42?paid=1');
    expect((await call(ctx.app, 'GET', `/gateway/${created.id}`, sk(m))).json()).toMatchObject({ returnUrl: 'https://shop.example.cm/orders/42?paid=1' });
    expect((await call(ctx.app, 'GET', `/gateway/sessions/${created.sessionToken}`, pk(m))).json()).toMatchObject({
      returnUrl: 'https://shop.example.cm/orders/42?paid=1',
    });
    await call(ctx.app, 'POST', `/gateway/${created.id}/cancel`, sk(m), {});
    const events = (await call(ctx.app, 'GET', '/events?limit=5', sk(m))).json() as {
      data: { type: string; data: { paymentIntent: { id: string; returnUrl?: string } } }[];
    };
    expect(events.data.find((e) => e.data.paymentIntent.id === created.id)?.data.paymentIntent.returnUrl).toBe('https://shop.example.cm/orders/42?paid=1');
    // Without one: null.
    expect((await intent(m)) as unknown).toMatchObject({ returnUrl: null });
  });

  it('http only to loopback and only in test mode; anything else is 400 return_url_invalid', async () => {
    const create = (returnUrl: string, creds = sk(m)) =>
      call(ctx.app, 'POST', '/gateway', creds, { amount: '5000', currency: 'XAF', description: 'Order', metadata: {}, returnUrl });
    for (const ok of ['http://localhost:3000/done', 'http://127.0.0.1:5173/thanks', 'http://[::1]:8080/']) {
      const res = await create(ok);
      expect(res.statusCode, `${ok}: ${res.body}`).toBe(201);
    }
    const live = { apiKey: m.live.apiKey, secretKey: m.live.secretKey };
    expect((await create('https://shop.example.cm/done', live)).statusCode).toBe(201);
    for (const [bad, creds] of [
      ['http://localhost:3000/done', live],
      ['http://shop.example.cm/done', sk(m)],
      ['ftp://shop.example.cm/', sk(m)],
      ['javascript:alert(1)', sk(m)],
      ['/orders/42', sk(m)],
      ['https://user:pass@shop.example.cm/', sk(m)],
      [`https://shop.example.cm/${'a'.repeat(2000)}`, sk(m)],
    ] as const) {
      const body = problem(await create(bad, creds), 400, 'return_url_invalid');
      expect(body.param).toBe('returnUrl');
    }
  });
});

describe('dashboard: Settings → Payment methods', () => {
  async function signIn(t: TestMerchant) {
    const res = await ctx.app.inject({ method: 'POST', url: '/dashboard/api/login', payload: { email: t.dashboard.email, password: t.dashboard.password } });
    expect(res.statusCode, res.body).toBe(200);
    const cookie = String(res.headers['set-cookie']).split(';')[0] as string;
    const csrf = (res.json() as { csrfToken: string }).csrfToken;
    return (method: 'GET' | 'PUT', url: string, payload?: unknown) =>
      ctx.app.inject({
        method,
        url: `/dashboard/api${url}`,
        headers: { cookie, 'x-csrf-token': csrf },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });
  }

  it('dollars follow the CinetPay account of each mode: a Cameroonian merchant sees USD once its account takes it', async () => {
    const t = await createMerchant(ctx, 'Dollars');
    const send = await signIn(t);
    const cinetpay = (mode: 'test' | 'live', cardCurrencies: string, baseUrl: string) =>
      ctx.services.providerAccounts.add({
        connector: 'cinetpay',
        mode,
        countries: ['CM'],
        // Test mode: the sandbox for both APIs (never called here); live: CinetPay's own hosts.
        settings: {
          baseUrl,
          transferBaseUrl: mode === 'test' ? baseUrl : 'https://client.cinetpay.com',
          siteId: '5870012',
          callbackUrl: 'https://pay.example.com/callbacks/cinetpay',
          cardCurrencies,
        },
        credentials: { apiKey: `${mode}-apikey-Jk29Lm`, secretKey: `${mode}-secret-key-Pq47Rs` },
      });
    // Naming the francs only changes nothing.
    const francs = await cinetpay('test', 'XAF', 'http://127.0.0.1:9/cinetpay');
    expect((await send('GET', '/settings/country')).json()).toMatchObject({ currencies: { test: ['XAF'], live: ['XAF'] } });
    // The newest account of a connector, mode and country wins: the second is made a moment later.
    ctx.clock.advance(1000);
    const test = await cinetpay('test', 'xaf, usd', 'http://127.0.0.1:9/cinetpay');
    expect(test.settings).toMatchObject({ cardCurrencies: 'XAF,USD' });
    const live = await cinetpay('live', 'XAF,USD', 'https://api-checkout.cinetpay.com');
    try {
      expect((await send('GET', '/settings/country')).json()).toEqual({
        country: 'CM',
        currency: 'XAF',
        currencies: { test: ['XAF', 'USD'], live: ['XAF', 'USD'] },
      });
      const created = await call(ctx.app, 'POST', '/gateway', sk(t), { amount: '25.00', currency: 'USD', description: 'Order', metadata: {} });
      expect(created.statusCode, created.body).toBe(201);
      // The account serves Cameroon only: an Ivorian merchant stays in francs.
      await send('PUT', '/settings/country', { country: 'CI' });
      expect((await send('GET', '/settings/country')).json()).toMatchObject({ currencies: { test: ['XOF'], live: ['XOF'] } });
    } finally {
      for (const account of [francs, test, live]) await ctx.services.providerAccounts.disable(account.id);
    }
  });

  it('the owner reads and sets the country and the methods of each mode', async () => {
    const t = await createMerchant(ctx, 'Dash');
    const send = await signIn(t);
    // CinetPay's cards take USD only through an account whose service has it (decision 0098):
    // its sandbox account has not, so a Cameroonian merchant is offered francs only.
    expect((await send('GET', '/settings/country')).json()).toEqual({ country: 'CM', currency: 'XAF', currencies: { test: ['XAF'], live: ['XAF'] } });
    const set = await send('PUT', '/settings/country', { country: 'CI' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ country: 'CI', currency: 'XOF', currencies: { test: ['XOF'], live: ['XOF'] } });
    expect((await send('PUT', '/settings/country', { country: 'TG' })).json()).toMatchObject({ country: 'TG', currency: 'XOF' });
    problem(await send('PUT', '/settings/country', { country: 'NG' }), 400, 'validation_error');
    await send('PUT', '/settings/country', { country: 'CI' });
    expect((await ctx.services.merchants.findMerchant(t.merchantId))?.country).toBe('CI');
    problem(await send('PUT', '/settings/country', { country: 'FR' }), 400, 'validation_error');

    const read = await send('GET', '/test/payment-methods/settings');
    expect(read.json()).toMatchObject({ country: 'CI', currency: 'XOF', wallet: true });
    const providers = (read.json() as { providers: { provider: string }[] }).providers;
    // MTN MoMo reached through an aggregator in Côte d'Ivoire; T-Money is Togo's only.
    expect(providers.find((p) => p.provider === 'mtn_momo')).toMatchObject({ servesCountry: true, offered: true });
    expect(providers.find((p) => p.provider === 't_money')).toMatchObject({ servesCountry: false, offered: false });
    const put = await send('PUT', '/test/payment-methods/settings', { wallet: false });
    expect(put.statusCode, put.body).toBe(200);
    expect(await ctx.services.methods.walletAllowed({ merchantId: t.merchantId, mode: 'test' })).toBe(false);
    expect(await ctx.services.methods.walletAllowed({ merchantId: t.merchantId, mode: 'live' })).toBe(true);
  });

  it('every member reads the providers: brand, capabilities, country (the payout form picks from them)', async () => {
    const t = await createMerchant(ctx, 'Dash providers');
    const send = await signIn(t);
    const res = await send('GET', '/test/providers');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      country: 'CM',
      currency: 'XAF',
      data: [
        { provider: 'mtn_momo', name: 'MTN MoMo', capabilities: { disburse: true }, servesCountry: true, configured: true },
        { provider: 'orange_money', name: 'Orange Money', capabilities: { disburse: false }, servesCountry: true },
        { provider: 'wave', name: 'Wave', servesCountry: false },
        { provider: 'moov_money', name: 'Moov Money', servesCountry: false },
        { provider: 'free_money', name: 'Free Money', servesCountry: false },
        { provider: 't_money', name: 'T-Money', servesCountry: false },
        { provider: 'celtiis_cash', name: 'Celtiis Cash', servesCountry: false },
      ],
    });
  });
});
