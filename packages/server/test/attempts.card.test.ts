/**
 * Card payments (docs/spec/card-payments.md, decision 0085): an Ivorian merchant's intent lists
 * `card` where its card route (CinetPay in test mode) has an account, the charge takes the card
 * holder's details (each field refused on its own), answers the card provider's page, and settles
 * from its notification; the payment cannot be refunded through Caisse (409), only recorded. Left
 * out of the merchant's method settings, card is neither listed nor charged (decision 0096).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CINETPAY_CONNECTOR, type Sandbox } from '../src/modules/connectors/index.ts';
import { SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes, withCinetPayAccount } from './connectors.support.ts';
import { createIntent, expectLedgerClean } from './flow.support.ts';
import { call, createMerchant, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import { HOLDER } from './fixtures/cardholder.ts';

let ctx: TestContext;
let sandbox: Sandbox;
let ci: TestMerchant;
let sn: TestMerchant;

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithAllSandboxes());
  ci = await createMerchant(ctx, 'Abidjan shop');
  await ctx.services.merchants.setCountry(ci.merchantId, 'CI');
  sn = await createMerchant(ctx, 'Dakar shop');
  await ctx.services.merchants.setCountry(sn.merchantId, 'SN');
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

type Answer = {
  status: string;
  paymentMethod: { type: string; provider: string } | null;
  attempts: { provider: string; connector: string; status: string }[];
  nextAction: { type: string; url?: string } | null;
};

async function charge(m: TestMerchant, intent: { id: string; sessionToken: string }, paymentMethod: unknown) {
  return call(ctx.app, 'POST', '/charge', { ...pk(m), headers: { 'x-session-token': intent.sessionToken } }, { intentionId: intent.id, paymentMethod });
}

async function methods(m: TestMerchant, intent: { sessionToken: string }) {
  const res = await call(ctx.app, 'GET', `/payment-methods?sessionToken=${intent.sessionToken}`, pk(m));
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: { type: string }[] }).data;
}

/** The card typed on the sandbox page (its last digits decide, as a number's do). */
async function payOnPage(url: string, cardNumber: string) {
  const form = new URLSearchParams({ channel: 'card', cardNumber, cardHolder: 'Awa Kone', lang: 'fr' });
  return fetch(url, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
}

const read = async (m: TestMerchant, id: string) => (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as Answer & { amountRefunded: string };

describe('GET /payment-methods: card', () => {
  it('lists card for an Ivorian merchant, after mobile money, as a redirect within the card route’s bounds', async () => {
    const intent = await createIntent(ctx, ci, { currency: 'XOF' });
    const data = await methods(ci, intent);
    const card = data.find((m) => m.type === 'card');
    expect(card).toEqual({ type: 'card', name: 'Visa / Mastercard', approval: 'redirect', available: true, minAmount: '100', maxAmount: '1500000' });
    expect(data.at(-1)).toBe(card);
    expect(data.some((m) => m.type === 'mobile_money')).toBe(true);
  });

  it('lists no card where no card route serves the country (Senegal), and the charge is refused as such', async () => {
    const intent = await createIntent(ctx, sn, { currency: 'XOF' });
    expect((await methods(sn, intent)).some((m) => m.type === 'card')).toBe(false);
    const res = await charge(sn, intent, { type: 'card', cardholder: { ...HOLDER, country: 'SN', phoneNumber: '+221770000000' } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'payment_method_unsupported', param: 'paymentMethod.type' });
  });

  it('lists no card for a currency the card route does not take (EUR)', async () => {
    const intent = await call(ctx.app, 'POST', '/gateway', sk(ci), { amount: '50', currency: 'EUR', description: 'Order' });
    // EUR passes creation only where some route takes it; where none does, nothing to list.
    if (intent.statusCode !== 201) {
      expect(intent.json()).toMatchObject({ code: 'currency_unsupported' });
      return;
    }
    const created = intent.json() as { id: string; sessionToken: string };
    expect((await methods(ci, created)).some((m) => m.type === 'card')).toBe(false);
    const res = await charge(ci, created, { type: 'card', cardholder: HOLDER });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'payment_method_unsupported' });
  });
});

describe('POST /charge with a card: the card holder’s details', () => {
  it.each([
    ['a missing field', 'cardholder_invalid', 'paymentMethod.cardholder.city', { ...HOLDER, city: undefined }],
    ['a blank field', 'cardholder_invalid', 'paymentMethod.cardholder.surname', { ...HOLDER, surname: '   ' }],
    ['an e-mail without a domain', 'cardholder_invalid', 'paymentMethod.cardholder.email', { ...HOLDER, email: 'awa@' }],
    ['a country that is not a code', 'cardholder_invalid', 'paymentMethod.cardholder.country', { ...HOLDER, country: 'Ivory Coast' }],
    ['a phone that is no number', 'phone_invalid', 'paymentMethod.cardholder.phoneNumber', { ...HOLDER, phoneNumber: 'call me' }],
    ['a card number, which Caisse never takes', 'parameter_unknown', 'paymentMethod.cardholder.cardNumber', { ...HOLDER, cardNumber: '4000000000000000' }],
  ])('%s: 400 %s on %s, nothing stored', async (_what, code, param, cardholder) => {
    const intent = await createIntent(ctx, ci, { currency: 'XOF' });
    const res = await charge(ci, intent, { type: 'card', cardholder });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code, param });
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect((await read(ci, intent.id)).status).toBe('PENDING');
  });

  it('without the card holder, or with an unknown method type: refused, naming the field', async () => {
    const intent = await createIntent(ctx, ci, { currency: 'XOF' });
    expect((await charge(ci, intent, { type: 'card' })).json()).toMatchObject({ code: 'cardholder_invalid', param: 'paymentMethod.cardholder' });
    expect((await charge(ci, intent, { type: 'cheque' })).json()).toMatchObject({ code: 'validation_error', param: 'paymentMethod.type' });
    // A mobile-money body is still told its own errors, never the card's fields.
    expect((await charge(ci, intent, { type: 'mobile_money', provider: 'orange_money' })).json()).toMatchObject({
      code: 'validation_error',
      param: 'paymentMethod.phoneNumber',
    });
    expect((await charge(ci, intent, { type: 'mobile_money', provider: 'orange_money', phoneNumber: 'x'.repeat(40) })).json()).toMatchObject({
      code: 'phone_invalid',
      param: 'paymentMethod.phoneNumber',
    });
  });
});

describe('paying by card through the card route', () => {
  it('202 with the card page; the card typed there pays the intent once, through the card route’s connector; a refund is 409, a recorded one is taken', async () => {
    const intent = await createIntent(ctx, ci, { currency: 'XOF', amount: '5000' });
    const res = await charge(ci, intent, { type: 'card', cardholder: HOLDER });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json() as Answer;
    expect(started).toMatchObject({ status: 'PROCESSING', paymentMethod: { type: 'card', provider: 'card' }, nextAction: { type: 'redirect' } });
    const url = started.nextAction?.url ?? '';
    expect(url.startsWith(`${sandbox.url}${CINETPAY_CONNECTOR.sandbox?.path ?? ''}/pay/`)).toBe(true);
    // The holder as the card provider asks for them: the phone in E.164, the region the country.
    const stored = await ctx.deps.db
      .selectFrom('payment_attempts')
      .select(['provider', 'connector', 'customer', 'phone_number'])
      .where('intent_id', '=', intent.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ provider: 'card', connector: CINETPAY_CONNECTOR.description.name, phone_number: '+2250701020304' });
    expect(stored.customer).toEqual({ ...HOLDER, phoneNumber: '+2250701020304', state: 'CI' });
    // The page was asked for a card payment with the holder's details.
    expect(sandbox.of(CINETPAY_CONNECTOR).payments().at(-1)).toMatchObject({ channels: 'CREDIT_CARD' });

    expect((await payOnPage(url, '4000 0000 0000 0001')).status).toBe(303);
    ctx.clock.advance(2 * SECOND);
    await sandbox.tick();
    await expect.poll(async () => (await read(ci, intent.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    const paid = await read(ci, intent.id);
    expect(paid.attempts).toMatchObject([{ provider: 'card', connector: CINETPAY_CONNECTOR.description.name, status: 'SUCCEEDED' }]);
    expect(paid.paymentMethod).toMatchObject({ type: 'card' });
    await expectLedgerClean(ctx);

    const refund = await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(ci), {});
    expect(refund.statusCode, refund.body).toBe(409);
    expect(refund.json()).toMatchObject({ code: 'refund_unsupported' });
    const recorded = await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds/recorded`, sk(ci), { method: 'bank_transfer', reference: 'VIR-42' });
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect((await read(ci, intent.id)).status).toBe('REFUNDED');
  });

  it('a card refused on the page: the attempt fails, the intent is payable again', async () => {
    const intent = await createIntent(ctx, ci, { currency: 'XOF', amount: '5000' });
    const started = (await charge(ci, intent, { type: 'card', cardholder: HOLDER })).json() as Answer;
    expect((await payOnPage(started.nextAction?.url ?? '', '4000000000000104')).status).toBe(303);
    ctx.clock.advance(2 * SECOND);
    await sandbox.tick();
    await expect.poll(async () => (await read(ci, intent.id)).status, { interval: 20, timeout: 5000 }).toBe('PENDING');
    expect((await read(ci, intent.id)).attempts).toMatchObject([{ provider: 'card', status: 'FAILED' }]);
  });
});

describe('card in the merchant’s method settings (decision 0096)', () => {
  it('left out: not listed, and a card charge is refused as a provider left out is, before anything is stored or sent; put back: paid by card again', async () => {
    const shop = await createMerchant(ctx, 'Abidjan, no cards');
    await ctx.services.merchants.setCountry(shop.merchantId, 'CI');
    const intent = await createIntent(ctx, shop, { currency: 'XOF', amount: '5000' });
    // Never set: card is on where its route serves the country.
    expect((await methods(shop, intent)).at(-1)).toMatchObject({ type: 'card' });

    const off = await call(ctx.app, 'PUT', '/payment-methods/settings', sk(shop), { providers: ['orange_money', 'wave'] });
    expect(off.statusCode, off.body).toBe(200);
    const settings = off.json() as { providers: { provider: string }[] };
    expect(settings.providers.find((p) => p.provider === 'card')).toMatchObject({ enabled: false, configured: true, servesCountry: true, offered: false });
    const listed = await methods(shop, intent);
    expect(listed.map((m) => m.type)).not.toContain('card');
    expect(listed.map((m) => m.type)).toContain('mobile_money');

    const pages = sandbox.of(CINETPAY_CONNECTOR).payments().length;
    const card = await charge(shop, intent, { type: 'card', cardholder: HOLDER });
    expect(card.statusCode, card.body).toBe(400);
    expect(card.json()).toMatchObject({ code: 'provider_unsupported', param: 'paymentMethod.type' });
    // The same refusal as a mobile-money provider the merchant left out.
    const momo = await charge(shop, intent, { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: '+2250501020304' });
    expect(momo.statusCode, momo.body).toBe(400);
    expect(momo.json()).toMatchObject({ code: 'provider_unsupported', param: 'paymentMethod.provider' });
    expect((await read(shop, intent.id)).status).toBe('PENDING');
    expect(await ctx.deps.db.selectFrom('payment_attempts').select('id').where('intent_id', '=', intent.id).execute()).toEqual([]);
    expect(sandbox.of(CINETPAY_CONNECTOR).payments()).toHaveLength(pages);

    const on = await call(ctx.app, 'PUT', '/payment-methods/settings', sk(shop), { providers: ['orange_money', 'wave', 'card'] });
    expect(on.statusCode, on.body).toBe(200);
    expect((await methods(shop, intent)).at(-1)).toMatchObject({ type: 'card' });
    const started = await charge(shop, intent, { type: 'card', cardholder: HOLDER });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ paymentMethod: { type: 'card' }, nextAction: { type: 'redirect' } });
  });
});

describe('dollars by card through CinetPay, once the account takes them (decision 0098)', () => {
  const usdIntent = (m: TestMerchant, amount: string) => createIntent(ctx, m, { currency: 'USD', amount });
  const attempt = (m: TestMerchant, currency: string) =>
    call(ctx.app, 'POST', '/gateway', sk(m), { amount: currency === 'USD' ? '25.00' : '5000', currency, description: 'Order', metadata: {} });
  let account: { id: string; disable: () => Promise<void> } | undefined;

  it('by default (the sandbox account, no cardCurrencies) no merchant may create a USD intent: 400 currency_unsupported', async () => {
    const cm = await createMerchant(ctx, 'Yaoundé shop');
    for (const [m, own] of [
      [ci, 'XOF'],
      [cm, 'XAF'],
    ] as const) {
      const res = await attempt(m, 'USD');
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'currency_unsupported', param: 'currency', accepted: [own] });
    }
  });

  it('an account with cardCurrencies naming USD opens dollars in its countries only', async () => {
    account = await withCinetPayAccount(ctx, sandbox, ['CI', 'CM']);
    expect((await attempt(ci, 'USD')).statusCode).toBe(201);
    // Senegal has no CinetPay card: the account could not even name it.
    expect((await attempt(sn, 'USD')).json()).toMatchObject({ code: 'currency_unsupported', accepted: ['XOF'] });
  });

  it('a USD intent lists card within CinetPay’s dollar bounds, and no mobile money: no operator here takes dollars', async () => {
    const cm = await createMerchant(ctx, 'Douala shop');
    for (const m of [ci, cm]) {
      // The wallet too in test mode only, where test funding credits dollars (live: see methods.test.ts).
      expect(await methods(m, await usdIntent(m, '25.00'))).toEqual([
        { type: 'wallet' },
        { type: 'card', name: 'Visa / Mastercard', approval: 'redirect', available: true, minAmount: '5.00', maxAmount: '2500.00' },
      ]);
    }
  });

  it('a mobile-money charge of a USD intent: 400 currency_unsupported, nothing stored or sent', async () => {
    const intent = await usdIntent(ci, '25.00');
    const pages = sandbox.of(CINETPAY_CONNECTOR).payments().length;
    for (const [provider, phoneNumber] of [
      ['orange_money', '+2250701020311'],
      ['moov_money', '+2250101020311'],
    ]) {
      const res = await charge(ci, intent, { type: 'mobile_money', provider, phoneNumber });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'currency_unsupported', param: 'currency' });
    }
    expect(await ctx.deps.db.selectFrom('payment_attempts').select('id').where('intent_id', '=', intent.id).execute()).toEqual([]);
    expect(sandbox.of(CINETPAY_CONNECTOR).payments()).toHaveLength(pages);
  });

  it('an amount CinetPay cannot take (cents, or dollars not a multiple of 5): 400 amount_out_of_bounds before anything is sent', async () => {
    const pages = sandbox.of(CINETPAY_CONNECTOR).payments().length;
    for (const amount of ['12.50', '7.00', '2505.00']) {
      const intent = await usdIntent(ci, amount);
      const res = await charge(ci, intent, { type: 'card', cardholder: { ...HOLDER, phoneNumber: '07 01 02 03 12' } });
      expect(res.statusCode, `${amount}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'amount_out_of_bounds', param: 'amount' });
      expect((await read(ci, intent.id)).status).toBe('PENDING');
    }
    expect(sandbox.of(CINETPAY_CONNECTOR).payments()).toHaveLength(pages);
  });

  it('paid by card on CinetPay’s page in whole dollars: the merchant’s USD balance gains it; a refund is 409', async () => {
    const intent = await usdIntent(ci, '25.00');
    const res = await charge(ci, intent, { type: 'card', cardholder: { ...HOLDER, phoneNumber: '07 01 02 03 13' } });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json() as Answer;
    expect(started).toMatchObject({ status: 'PROCESSING', paymentMethod: { type: 'card', provider: 'card' }, nextAction: { type: 'redirect' } });
    // CinetPay was asked for 25 dollars, a whole number, by card only.
    expect(sandbox.of(CINETPAY_CONNECTOR).payments().at(-1)).toMatchObject({ amount: '25', currency: 'USD', channels: 'CREDIT_CARD' });
    const url = started.nextAction?.url ?? '';
    expect(await (await fetch(url)).text()).toContain('25 USD');

    expect((await payOnPage(url, '4000 0000 0000 0001')).status).toBe(303);
    ctx.clock.advance(2 * SECOND);
    await sandbox.tick();
    await expect.poll(async () => (await read(ci, intent.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    const paid = await read(ci, intent.id);
    expect(paid.attempts).toMatchObject([{ provider: 'card', connector: CINETPAY_CONNECTOR.description.name, status: 'SUCCEEDED' }]);
    const balance = (await call(ctx.app, 'GET', '/balance', sk(ci))).json() as { balances: { currency: string; pending: string }[] };
    expect(balance.balances.find((b) => b.currency === 'USD')?.pending).toMatch(/^2[0-9]\.[0-9]{2}$/);
    await expectLedgerClean(ctx);

    const refund = await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(ci), {});
    expect(refund.statusCode, refund.body).toBe(409);
    expect(refund.json()).toMatchObject({ code: 'refund_unsupported' });
    expect((await read(ci, intent.id)).status).toBe('SUCCEEDED');
  });

  it('the account disabled, dollars close again; francs stay', async () => {
    await account?.disable();
    expect((await attempt(ci, 'USD')).json()).toMatchObject({ code: 'currency_unsupported', accepted: ['XOF'] });
    expect((await attempt(ci, 'XOF')).statusCode).toBe(201);
  });
});
