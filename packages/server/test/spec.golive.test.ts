/**
 * Provider accounts, going live, routes and methods as operators and merchants drive them: the
 * letter of docs/spec/provider-accounts.md and docs/spec/routes.md where nothing else checks it.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/admin.ts';
import { type Sandbox, startSandbox } from '../src/modules/connectors/index.ts';
import { SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes } from './connectors.support.ts';
import { createIntent } from './flow.support.ts';
import { call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

type AddInput = Parameters<typeof runAdminCommand<'providerAccounts.add'>>[2];
const add = (body: AddInput) => runAdminCommand(ctx.services, 'providerAccounts.add', body);

/** A test account's CinetPay: a sandbox on this machine (test mode never calls CinetPay's own API). */
const CINETPAY_SANDBOX = { baseUrl: 'http://127.0.0.1:9/cinetpay', transferBaseUrl: 'http://127.0.0.1:9/cinetpay' };

describe('provider accounts', () => {
  it("a test-mode account never points at a provider's production API, given or by default: 400 naming the setting", async () => {
    const refused = async (input: AddInput, setting: string) => {
      const err = (await add(input).catch((e: unknown) => e)) as { code?: string; message?: string };
      expect(err, JSON.stringify(err)).toMatchObject({ code: 'provider_settings_invalid', message: expect.stringContaining(`Setting ${setting} is `) });
      expect(err.message).toContain('production API');
    };
    const wave = { apiKey: 'wave_sn_prod_probe-key-Rt83', webhookSecret: 'wave-probe-webhook-secret-Lp20' };
    // Wave has no sandbox of its own: its default base URL is its production API.
    await refused({ connector: 'wave', mode: 'test', countries: ['SN'], settings: {}, credentials: wave }, 'baseUrl');
    await refused({ connector: 'wave', mode: 'test', countries: ['SN'], settings: { baseUrl: 'https://API.wave.com/' }, credentials: wave }, 'baseUrl');
    await refused(
      { connector: 'pawapay', mode: 'test', countries: ['CM'], settings: {}, credentials: { apiToken: 'eyJhbGciOiJFUzI1NiJ9.probe.Token-Wq61' } },
      'baseUrl',
    );
    await refused(
      {
        connector: 'cinetpay',
        mode: 'test',
        countries: ['CI'],
        settings: { siteId: '5870012', callbackUrl: 'https://pay.example.com/callbacks/cinetpay' },
        credentials: { apiKey: 'cinetpay-probe-apikey-Nc52', secretKey: 'cinetpay-probe-secret-Ud17' },
      },
      'baseUrl',
    );
    const mtn = {
      collectionUserId: '3f1d2c4b-5a69-4788-9aab-0c1d2e3f4a5b',
      collectionApiKey: 'mtn-probe-api-key-Zs40',
      collectionSubscriptionKey: 'mtn-probe-collection-key-Gh93',
    };
    await refused(
      {
        connector: 'mtn_momo',
        mode: 'test',
        countries: ['CM'],
        settings: { baseUrl: 'https://proxy.momoapi.mtn.com', targetEnvironment: 'mtncameroon' },
        credentials: mtn,
      },
      'baseUrl',
    );
    const orange = { clientId: 'orange-probe-client-Mb36', clientSecret: 'orange-probe-secret-Xe58', merchantKey: 'orange-probe-merchant-Jr72' };
    const orangeAt = (environment: string) => ({
      connector: 'orange_money',
      mode: 'test' as const,
      countries: ['CM'],
      settings: { baseUrl: 'https://api.orange.com', environment, callbackUrl: 'https://pay.example.com/callbacks/orange_money' },
      credentials: orange,
    });
    await refused(orangeAt('cm'), 'baseUrl');
    // Orange's own sandbox, its `dev` environment, is on the same host: a test account may use it.
    expect(await add(orangeAt('dev'))).toMatchObject({ mode: 'test', settings: { environment: 'dev' } });
    // Their sandboxes (the provider's, or Caisse's on this machine) are test mode's.
    expect(
      await add({
        connector: 'pawapay',
        mode: 'test',
        countries: ['CM'],
        settings: { baseUrl: 'https://api.sandbox.pawapay.io' },
        credentials: { apiToken: 'eyJhbGciOiJFUzI1NiJ9.probe.Token-Wq61' },
      }),
    ).toMatchObject({ mode: 'test' });
    expect(
      await add({ connector: 'wave', mode: 'test', countries: ['SN'], settings: { baseUrl: 'http://127.0.0.1:9/wave' }, credentials: wave }),
    ).toMatchObject({ mode: 'test' });
    // Live mode is where those hosts belong.
    expect(await add({ connector: 'wave', mode: 'live', countries: ['SN'], settings: {}, credentials: wave })).toMatchObject({ mode: 'live' });
  });

  it("CinetPay's site_id may come with its credentials, as its back office hands them out: kept as a setting, never sealed", async () => {
    const credentials = { apiKey: 'cinetpay-probe-apikey-Hq47Zt', siteId: '5870012', secretKey: 'cinetpay-probe-secret-Lw28Vn' };
    const account = (await add({
      connector: 'cinetpay',
      mode: 'test',
      countries: ['CI'],
      settings: { ...CINETPAY_SANDBOX, callbackUrl: 'https://pay.example.com/callbacks/cinetpay' },
      credentials,
    })) as { settings: Record<string, unknown>; credentials: Record<string, string>; capabilities: string[] };
    expect(account.settings).toMatchObject({ siteId: '5870012' });
    expect(account.credentials).toEqual({ apiKey: '…47Zt', secretKey: '…28Vn' });
    // A number, as JSON may carry it, is the same site_id.
    const numeric = (await add({
      connector: 'cinetpay',
      mode: 'test',
      countries: ['SN'],
      settings: { ...CINETPAY_SANDBOX, callbackUrl: 'https://pay.example.com/callbacks/cinetpay' },
      credentials: { ...credentials, siteId: 5870012 },
    })) as { settings: Record<string, unknown> };
    expect(numeric.settings).toMatchObject({ siteId: '5870012' });
    // Two different site_ids: refused, naming the setting.
    await expect(
      add({
        connector: 'cinetpay',
        mode: 'test',
        countries: ['CI'],
        settings: { ...CINETPAY_SANDBOX, siteId: '111', callbackUrl: 'https://pay.example.com/callbacks/cinetpay' },
        credentials,
      }),
    ).rejects.toMatchObject({ code: 'provider_settings_invalid', message: expect.stringContaining('siteId is given twice') });
  });
});

describe('CinetPay amounts', () => {
  let all: TestContext;
  let sandbox: Sandbox;
  let ml: TestMerchant;
  beforeAll(async () => {
    ({ ctx: all, sandbox } = await appWithAllSandboxes());
    ml = await createMerchant(all, 'Bamako shop');
    await all.services.merchants.setCountry(ml.merchantId, 'ML');
  });
  afterAll(async () => {
    await sandbox?.close();
    await all?.close();
  });

  it('a Togolese merchant: XOF only, and each method CinetPay reaches there listed once, on its page', async () => {
    const tg = await createMerchant(all, 'Lome shop');
    await all.services.merchants.setCountry(tg.merchantId, 'TG');
    const xaf = await call(all.app, 'POST', '/gateway', sk(tg), { amount: '5000', currency: 'XAF', description: 'Order', metadata: {} });
    expect(xaf.json()).toMatchObject({ status: 400, code: 'currency_unsupported', param: 'currency' });
    const intent = await createIntent(all, tg, { currency: 'XOF', amount: '5000' });
    const listed = await call(all.app, 'GET', `/payment-methods?sessionToken=${encodeURIComponent(intent.sessionToken)}`, pk(tg));
    expect(listed.statusCode, listed.body).toBe(200);
    const methods = (listed.json() as { data: { type: string; provider?: string; approval: string; available: boolean }[] }).data;
    const mobile = methods.filter((m) => m.type === 'mobile_money');
    expect(mobile.map((m) => m.provider).sort()).toEqual(['moov_money', 't_money']);
    for (const m of mobile) expect(m).toMatchObject({ approval: 'redirect', available: true });
    // Never an aggregator by its own name.
    expect(methods.some((m) => m.provider === 'cinetpay' || m.provider === 'pawapay')).toBe(false);
  });

  it('an amount CinetPay cannot take, where only CinetPay reaches the method, is 400 amount_out_of_bounds; nothing reaches it', async () => {
    const route = (await runAdminCommand(all.services, 'routes.list', { mode: 'test' })).find(
      (r) => r.country === 'ML' && r.method === 'moov_money' && r.kind === 'payment',
    );
    expect(route?.connectors).toEqual(['cinetpay']);
    const intent = await createIntent(all, ml, { currency: 'XOF', amount: '1003' });
    const charged = await call(
      all.app,
      'POST',
      '/charge',
      { ...pk(ml), headers: { 'x-session-token': intent.sessionToken } },
      { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'moov_money', phoneNumber: '+22365000000' } },
    );
    expect(charged.json()).toMatchObject({ status: 400, code: 'amount_out_of_bounds', param: 'amount' });
    // No attempt was made: the intent is as it was.
    expect((await call(all.app, 'GET', `/gateway/${intent.id}`, sk(ml))).json()).toMatchObject({ status: intent.status, attempts: 0 });
  });
});

describe('a live rehearsal on one machine', () => {
  let all: TestContext;
  let sandbox: Sandbox;
  let prod: Sandbox;
  let cm: TestMerchant;
  beforeAll(async () => {
    ({ ctx: all, sandbox } = await appWithAllSandboxes());
    // `caisse sandbox --production`, calling this server back.
    prod = await startSandbox({ clock: all.clock, tickMs: 0, production: true, callbacksUrl: all.deps.config.sandbox.callbacksUrl });
    cm = await createMerchant(all, 'Yaounde shop');
    await all.services.merchants.setSettlementDelay(cm.merchantId, 0);
  });
  afterAll(async () => {
    await prod?.close();
    await sandbox?.close();
    await all?.close();
  });

  async function later(ms = 2 * SECOND) {
    await all.services.callbacks.drain();
    await all.services.payouts.drain();
    all.clock.advance(ms);
    await prod.tick();
    await all.services.callbacks.pollDue();
    await all.services.callbacks.drain();
  }

  it('a live MTN account on the production sandbox: added, checked, a live payment and its refund go through it, a payout through its replacement', async () => {
    const addMtn = () =>
      runAdminCommand(all.services, 'providerAccounts.add', {
        connector: 'mtn_momo',
        mode: 'live',
        countries: ['CM'],
        settings: { baseUrl: prod.urls.mtn_momo as string, targetEnvironment: 'mtncameroon', callbackUrl: `${all.deps.config.sandbox.callbacksUrl}/mtn_momo` },
        credentials: {
          collectionUserId: '3f1d2c4b-5a69-4788-9aab-0c1d2e3f4a5b',
          collectionApiKey: 'live-api-key-rehearsal-Qm41',
          collectionSubscriptionKey: 'live-collection-key-rehearsal-Ht27',
          disbursementUserId: '3f1d2c4b-5a69-4788-9aab-0c1d2e3f4a5c',
          disbursementApiKey: 'live-api-key-rehearsal-Vb85',
          disbursementSubscriptionKey: 'live-disbursement-key-rehearsal-Kc19',
        },
      });
    const account = await addMtn();
    expect(account.capabilities).toEqual(['collect', 'disburse', 'refund']);
    const [checked] = await runAdminCommand(all.services, 'providerAccounts.check', { id: account.id });
    expect(checked, checked?.detail).toMatchObject({ ok: true });

    const live = { apiKey: cm.live.apiKey, secretKey: cm.live.secretKey };
    const intent = await createIntent(all, cm, { currency: 'XAF', amount: '5000' }, live);
    const charged = await call(
      all.app,
      'POST',
      '/charge',
      { apiKey: cm.live.apiKey, headers: { 'x-session-token': intent.sessionToken } },
      { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: '+237677123000' } },
    );
    expect(charged.statusCode, charged.body).toBe(202);
    await later();
    const paid = (await call(all.app, 'GET', `/gateway/${intent.id}`, live)).json() as {
      status: string;
      livemode: boolean;
      attempts: { connector: string; providerAccount: string; status: string }[];
    };
    expect(paid).toMatchObject({ status: 'SUCCEEDED', livemode: true });
    expect(paid.attempts).toEqual([expect.objectContaining({ connector: 'mtn_momo', providerAccount: account.id, status: 'SUCCEEDED' })]);

    // A newer account for the same country takes new requests; the payment's refund stays with its own.
    all.clock.advance(SECOND);
    const replacement = await addMtn();
    const refund = await call(all.app, 'POST', `/gateway/${intent.id}/refunds`, live, { amount: '1000' });
    expect(refund.statusCode, refund.body).toBe(202);
    expect(refund.json()).toMatchObject({ status: 'PENDING', connector: 'mtn_momo', providerAccount: account.id });
    await later();
    expect((await call(all.app, 'GET', `/gateway/${intent.id}`, live)).json()).toMatchObject({ status: 'PARTIALLY_REFUNDED', amountRefunded: '1000' });

    await all.services.balances.settleDue();
    const payout = await call(all.app, 'POST', '/payouts', live, {
      amount: '2000',
      currency: 'XAF',
      destination: { provider: 'mtn_momo', phoneNumber: '+237677999000' },
    });
    expect(payout.statusCode, payout.body).toBe(202);
    expect(payout.json()).toMatchObject({ connector: 'mtn_momo', providerAccount: replacement.id });
    await later();
    const sent = (await call(all.app, 'GET', `/payouts/${(payout.json() as { id: string }).id}`, live)).json();
    expect(sent).toMatchObject({ status: 'PAID' });

    // The statement's export says how Caisse reached the provider for the payment, its refund and the payout.
    const csv = await call(all.app, 'GET', '/balance/transactions.csv', live);
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[];
    const how = (type: string) => rows.filter((r) => r.type === type).map((r) => [r.source, r.connector, r.provider_account]);
    expect(how('charge')).toEqual([[intent.id, 'mtn_momo', account.id]]);
    expect(how('refund')).toEqual([[(refund.json() as { id: string }).id, 'mtn_momo', account.id]]);
    expect(how('payout')).toEqual([[(payout.json() as { id: string }).id, 'mtn_momo', replacement.id]]);
  });
});

describe('routes', () => {
  it('every country CM SN CI BJ BF ML TG has its routes; card is a method with its own route, set like any other', async () => {
    const routes = await runAdminCommand(ctx.services, 'routes.list', { mode: 'test' });
    const countries = new Set(routes.map((r) => r.country));
    for (const country of ['CM', 'SN', 'CI', 'BJ', 'BF', 'ML', 'TG']) expect(countries, country).toContain(country);
    // The operator's own API first, then the aggregators; an aggregator is never a method.
    const mtn = routes.find((r) => r.country === 'CM' && r.kind === 'payment' && r.method === 'mtn_momo')?.connectors ?? [];
    expect(mtn[0]).toBe('mtn_momo');
    expect([...mtn.slice(1)].sort()).toEqual(['cinetpay', 'pawapay']);
    expect(routes.some((r) => r.method === 'pawapay' || r.method === 'cinetpay')).toBe(false);
    expect(routes.find((r) => r.country === 'CI' && r.kind === 'payment' && r.method === 'card')?.connectors).toEqual(['cinetpay']);
    const set = await runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country: 'CI', kind: 'payment', method: 'card', connectors: ['cinetpay'] });
    expect(set).toMatchObject({ method: 'card', connectors: ['cinetpay'], overridden: true });
    await expect(
      runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country: 'CI', kind: 'payment', method: 'card', connectors: ['pawapay'] }),
    ).rejects.toMatchObject({ code: 'route_invalid' });
    await runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country: 'CI', kind: 'payment', method: 'card', connectors: null });
  });
});
