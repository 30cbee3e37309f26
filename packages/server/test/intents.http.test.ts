import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/platform/crypto.ts';
import { call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import { withCardRoute } from './fixtures/card-route.ts';

/** Payment intents over HTTP: create, read by id and by session token, list, cancel, bad input. */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;
// A card route (EUR, USD) in Cameroon: what lets Alpha's intents be in euros and dollars.
let removeCardRoute = () => {};

beforeAll(async () => {
  removeCardRoute = withCardRoute();
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Alpha');
  other = await createMerchant(ctx, 'Beta');
});
afterAll(async () => {
  removeCardRoute();
  await ctx?.close();
});

const live = (t: TestMerchant) => ({ apiKey: t.live.apiKey, secretKey: t.live.secretKey });

function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number, code: string, param?: string) {
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const body = res.json() as Record<string, unknown>;
  expect({ status: res.statusCode, code: body.code }).toEqual({ status, code });
  if (param !== undefined) expect(body.param).toBe(param);
  return body;
}

async function create(t: TestMerchant, body: Record<string, unknown> = {}, creds = sk(t)) {
  const res = await call(ctx.app, 'POST', '/gateway', creds, {
    amount: '5000',
    currency: 'XAF',
    description: 'Order 42',
    metadata: { orderId: 'ord_42' },
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('POST /gateway', () => {
  it('creates a PENDING intent with every specified field', async () => {
    const res = await call(ctx.app, 'POST', '/gateway', sk(m), {
      amount: '5000',
      currency: 'XAF',
      description: 'Order 42',
      metadata: { orderId: 'ord_42', customer: 'cus_7', quantity: 3, gift: false },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['pay-version']).toBe('2026-11-01');
    const intent = res.json();
    expect(intent).toEqual({
      id: expect.stringMatching(/^pi_[0-9a-z]{26}$/),
      object: 'payment_intent',
      sessionToken: expect.stringMatching(/^ps_[0-9a-z]{26}[0-9A-Za-z]{43}$/),
      amount: '5000',
      currency: 'XAF',
      description: 'Order 42',
      metadata: { orderId: 'ord_42', customer: 'cus_7', quantity: 3, gift: false },
      status: 'PENDING',
      expiresAt: '2026-11-01T10:30:00.000Z',
      createdAt: '2026-11-01T10:00:00.000Z',
      updatedAt: '2026-11-01T10:00:00.000Z',
      livemode: false,
      amountRefunded: '0',
      lastError: null,
      attempts: 0,
      fee: null,
      net: null,
      returnUrl: null,
    });
    // Metadata comes back byte for byte, key order included.
    expect(res.body).toContain('"metadata":{"orderId":"ord_42","customer":"cus_7","quantity":3,"gift":false}');
  });

  it('stores amounts as minor units and answers in major units', async () => {
    const eur = await create(m, { amount: '12.5', currency: 'EUR' });
    expect(eur.amount).toBe('12.50');
    expect(eur.amountRefunded).toBe('0.00');
    const usd = await create(m, { amount: '9999999999.99', currency: 'USD' });
    expect(usd.amount).toBe('9999999999.99');
    const dakar = await createMerchant(ctx, 'Dakar');
    await ctx.services.merchants.setCountry(dakar.merchantId, 'SN');
    const xof = await create(dakar, { amount: '999999999999', currency: 'XOF' });
    const rows = await ctx.deps.db.selectFrom('intents').select(['id', 'amount_minor']).where('id', 'in', [eur.id, usd.id, xof.id]).execute();
    const minor = Object.fromEntries(rows.map((r) => [r.id, r.amount_minor]));
    expect(minor).toEqual({ [eur.id]: 1250n, [usd.id]: 999999999999n, [xof.id]: 999999999999n });
  });

  it("takes the country's currency and those a route there takes; others are 400 currency_unsupported at creation (issue 58)", async () => {
    const dakar = await createMerchant(ctx, 'Dakar');
    await ctx.services.merchants.setCountry(dakar.merchantId, 'SN');
    const cotonou = await createMerchant(ctx, 'Cotonou');
    await ctx.services.merchants.setCountry(cotonou.merchantId, 'BJ');
    const attempt = (t: TestMerchant, currency: string, creds = sk(t)) =>
      call(ctx.app, 'POST', '/gateway', creds, { amount: '5000', currency, description: 'Order', metadata: {} });

    expect((await attempt(dakar, 'XOF')).statusCode).toBe(201);
    expect((await attempt(cotonou, 'XOF')).statusCode).toBe(201);
    // A Senegalese merchant's payers hold no XAF, and no route of Senegal takes it.
    const xaf = expectProblem(await attempt(dakar, 'XAF'), 400, 'currency_unsupported', 'currency');
    expect(xaf.detail).toContain('XOF');
    expect(xaf.accepted).toEqual(expect.arrayContaining(['XOF']));
    expect(xaf.accepted).not.toContain('XAF');
    // Benin has no card route: XOF only.
    expect(expectProblem(await attempt(cotonou, 'EUR'), 400, 'currency_unsupported', 'currency').accepted).toEqual(['XOF']);
    // Cameroon's card route takes EUR and USD in test mode (every connector's sandbox counts) ...
    expect((await attempt(m, 'EUR')).statusCode).toBe(201);
    // ... not in live mode, where no card route is configured.
    expectProblem(await attempt(m, 'EUR', live(m)), 400, 'currency_unsupported', 'currency');
    expect((await attempt(m, 'XAF', live(m))).statusCode).toBe(201);
    // Without the test card route, a Cameroonian merchant's intents are in XAF only: CinetPay's
    // cards take USD only through an account whose service has it (decision 0098), and its
    // sandbox account has not; no route takes EUR. Nothing refused is stored.
    removeCardRoute();
    try {
      const before = await ctx.deps.db
        .selectFrom('intents')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      for (const currency of ['XOF', 'EUR', 'USD'])
        expect(expectProblem(await attempt(m, currency), 400, 'currency_unsupported', 'currency').accepted).toEqual(['XAF']);
      const abidjan = await createMerchant(ctx, 'Abidjan');
      await ctx.services.merchants.setCountry(abidjan.merchantId, 'CI');
      expect(expectProblem(await attempt(abidjan, 'USD'), 400, 'currency_unsupported', 'currency').accepted).toEqual(['XOF']);
      const after = await ctx.deps.db
        .selectFrom('intents')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
      // A CinetPay test account for Cameroon and Côte d'Ivoire taking USD by card: dollars there,
      // in test mode; not in Senegal or Benin, and not in live mode, which has no such account.
      const account = await ctx.services.providerAccounts.add({
        connector: 'cinetpay',
        mode: 'test',
        countries: ['CM', 'CI'],
        settings: {
          baseUrl: 'http://127.0.0.1:9/cinetpay',
          transferBaseUrl: 'http://127.0.0.1:9/cinetpay',
          siteId: '105905',
          callbackUrl: 'http://127.0.0.1:9/callbacks/cinetpay',
          cardCurrencies: 'XAF,XOF,USD',
        },
        credentials: { apiKey: 'cinetpay_usd_key', secretKey: 'cinetpay-usd-secret-Lm52Xq' },
      });
      try {
        expect((await attempt(m, 'USD')).json()).toMatchObject({ currency: 'USD', amount: '5000.00' });
        expect((await attempt(abidjan, 'USD')).statusCode).toBe(201);
        expect(expectProblem(await attempt(abidjan, 'EUR'), 400, 'currency_unsupported', 'currency').accepted).toEqual(['XOF', 'USD']);
        expect(expectProblem(await attempt(dakar, 'USD'), 400, 'currency_unsupported', 'currency').accepted).toEqual(['XOF']);
        expect(expectProblem(await attempt(cotonou, 'USD'), 400, 'currency_unsupported', 'currency').accepted).toEqual(['XOF']);
        expect(expectProblem(await attempt(m, 'USD', live(m)), 400, 'currency_unsupported', 'currency').accepted).toEqual(['XAF']);
      } finally {
        await ctx.services.providerAccounts.disable(account.id);
      }
    } finally {
      removeCardRoute = withCardRoute();
    }
  });

  it('keeps only the SHA-256 of the session token', async () => {
    const intent = await create(m);
    const row = await ctx.deps.db.selectFrom('intents').selectAll().where('id', '=', intent.id).executeTakeFirstOrThrow();
    expect(row.session_token_hash.equals(sha256(intent.sessionToken))).toBe(true);
    const dump = JSON.stringify(await ctx.deps.db.selectFrom('intents').selectAll().execute(), (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    expect(dump).not.toContain(intent.sessionToken.slice(3));
    expect(ctx.logs.join('\n')).not.toContain(intent.sessionToken);
  });

  it('session tokens are distinct and carry 256 bits', async () => {
    const a = await create(m);
    const b = await create(m);
    expect(a.sessionToken).not.toBe(b.sessionToken);
    // After ps_ and the intent id's 26 characters: 43 base62 characters hold log2(62) * 43 ≈ 256 bits.
    expect(a.sessionToken.length - 3 - 26).toBe(Math.ceil(256 / Math.log2(62)));
  });

  it('description and metadata are optional', async () => {
    const res = await call(ctx.app, 'POST', '/gateway', sk(m), { amount: '100', currency: 'XAF' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ description: null, metadata: {} });
  });

  it('validity: the merchant default of 30 minutes, or expiresIn from 300 to 86 400 seconds', async () => {
    expect((await create(m, { expiresIn: 300 })).expiresAt).toBe('2026-11-01T10:05:00.000Z');
    expect((await create(m, { expiresIn: 86400 })).expiresAt).toBe('2026-11-02T10:00:00.000Z');
    await ctx.deps.db.updateTable('merchants').set({ intent_expires_in: 600 }).where('id', '=', other.merchantId).execute();
    expect((await create(other)).expiresAt).toBe('2026-11-01T10:10:00.000Z');
    for (const expiresIn of [299, 86401, 0, -5, 600.5, '600']) {
      expectProblem(await call(ctx.app, 'POST', '/gateway', sk(m), { amount: '1', currency: 'XAF', expiresIn }), 400, 'validation_error', 'expiresIn');
    }
  });

  it('a live key creates a live intent', async () => {
    const intent = await create(m, {}, live(m));
    expect(intent.livemode).toBe(true);
  });

  it('needs the secret key', async () => {
    expectProblem(await call(ctx.app, 'POST', '/gateway', pk(m), { amount: '1', currency: 'XAF' }), 401, 'secret_key_required');
    expectProblem(await call(ctx.app, 'POST', '/gateway', {}, { amount: '1', currency: 'XAF' }), 401, 'api_key_missing');
  });
});

describe('bad input on POST /gateway', () => {
  const cases: [string, Record<string, unknown>, number, string, string][] = [
    ['negative amount', { amount: '-5000' }, 400, 'amount_invalid', 'amount'],
    ['zero amount', { amount: '0' }, 400, 'amount_invalid', 'amount'],
    ['zero EUR amount', { amount: '0.00', currency: 'EUR' }, 400, 'amount_invalid', 'amount'],
    ['fractional XAF', { amount: '5000.5' }, 400, 'amount_invalid', 'amount'],
    ['fractional XAF with .0', { amount: '5000.0' }, 400, 'amount_invalid', 'amount'],
    ['three EUR decimals', { amount: '1.005', currency: 'EUR' }, 400, 'amount_invalid', 'amount'],
    ['exponent', { amount: '5e3' }, 400, 'amount_invalid', 'amount'],
    ['upper-case exponent', { amount: '1E3' }, 400, 'amount_invalid', 'amount'],
    ['leading space', { amount: ' 5000' }, 400, 'amount_invalid', 'amount'],
    ['trailing space', { amount: '5000 ' }, 400, 'amount_invalid', 'amount'],
    ['inner space', { amount: '5 000' }, 400, 'amount_invalid', 'amount'],
    ['13 digits', { amount: '1000000000000' }, 400, 'amount_invalid', 'amount'],
    ['over the maximum in EUR', { amount: '10000000000.00', currency: 'EUR' }, 400, 'amount_invalid', 'amount'],
    ['number amount', { amount: 5000 }, 400, 'amount_invalid', 'amount'],
    ['null amount', { amount: null }, 400, 'amount_invalid', 'amount'],
    ['boolean amount', { amount: true }, 400, 'amount_invalid', 'amount'],
    ['plus sign', { amount: '+5000' }, 400, 'amount_invalid', 'amount'],
    ['empty amount', { amount: '' }, 400, 'amount_invalid', 'amount'],
    ['hex amount', { amount: '0x10' }, 400, 'amount_invalid', 'amount'],
    ['unknown currency', { currency: 'GBP' }, 400, 'currency_unsupported', 'currency'],
    ['lower-case currency', { currency: 'xaf' }, 400, 'currency_unsupported', 'currency'],
    ['made-up currency', { currency: 'ABCD' }, 400, 'currency_unsupported', 'currency'],
    ['51 metadata keys', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 400, 'metadata_invalid', 'metadata'],
    ['41-character metadata key', { metadata: { ['k'.repeat(41)]: 'v' } }, 400, 'metadata_invalid', 'metadata'],
    ['empty metadata key', { metadata: { '': 'v' } }, 400, 'metadata_invalid', 'metadata'],
    ['nested metadata object', { metadata: { order: { id: 1 } } }, 400, 'metadata_invalid', 'metadata.order'],
    ['nested metadata array', { metadata: { tags: ['a'] } }, 400, 'metadata_invalid', 'metadata.tags'],
    ['null metadata value', { metadata: { a: null } }, 400, 'metadata_invalid', 'metadata.a'],
    ['501-character metadata value', { metadata: { a: 'x'.repeat(501) } }, 400, 'metadata_invalid', 'metadata.a'],
    ['metadata not an object', { metadata: 'order=42' }, 400, 'metadata_invalid', 'metadata'],
    ['metadata an array', { metadata: ['a'] }, 400, 'metadata_invalid', 'metadata'],
    ['over-long description', { description: 'd'.repeat(1001) }, 400, 'validation_error', 'description'],
    ['description not a string', { description: 42 }, 400, 'validation_error', 'description'],
    ['unknown field', { customer: 'cus_1' }, 400, 'parameter_unknown', 'customer'],
    ['sessionToken sent in', { sessionToken: 'ps_x' }, 400, 'parameter_unknown', 'sessionToken'],
    ['status sent in', { status: 'SUCCEEDED' }, 400, 'parameter_unknown', 'status'],
  ];

  it.each(cases)('%s', async (_name, patch, status, code, param) => {
    const before = await ctx.deps.db
      .selectFrom('intents')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .executeTakeFirstOrThrow();
    const body = { amount: '5000', currency: 'XAF', description: 'x', metadata: { a: 'b' }, ...patch };
    const res = await call(ctx.app, 'POST', '/gateway', sk(m), body);
    const problem = expectProblem(res, status, code, param);
    expect(problem.type).toBe(`/errors/${code}`);
    const after = await ctx.deps.db
      .selectFrom('intents')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('metadata refusals say which key or value and what is allowed', async () => {
    const detail = async (metadata: unknown) => (await call(ctx.app, 'POST', '/gateway', sk(m), { amount: '5000', currency: 'XAF', metadata })).json().detail;
    expect(await detail({ ['order_reference_from_the_shop_'.repeat(2)]: 'v' })).toBe(
      'metadata key "order_reference_from…" is 60 characters long; keys are at most 40',
    );
    expect(await detail({ '': 'v' })).toBe('metadata keys must not be empty');
    expect(await detail({ a: null })).toBe('metadata.a must be a string, a number or a boolean');
    expect(await detail({ order: { id: 1 } })).toBe('metadata.order must be a string, a number or a boolean');
    expect(await detail({ a: 'x'.repeat(501) })).toBe('metadata.a must be at most 500 characters long');
    expect(await detail(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])))).toBe('metadata must have at most 50 keys');
  });

  it('the limits themselves are accepted', async () => {
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${'k'.repeat(38)}${String(i).padStart(2, '0')}`, 'v'.repeat(500)]));
    const intent = await create(m, { description: 'd'.repeat(1000), metadata, amount: '999999999999' });
    expect(Object.keys(intent.metadata)).toHaveLength(50);
    expect(intent.description).toHaveLength(1000);
    const numbers = await create(m, { metadata: { n: 1.5, neg: -3, big: 1e21, yes: true, empty: '' } });
    expect(numbers.metadata).toEqual({ n: 1.5, neg: -3, big: 1e21, yes: true, empty: '' });
  });

  it('missing amount or currency is a validation_error naming the field', async () => {
    expectProblem(await call(ctx.app, 'POST', '/gateway', sk(m), { currency: 'XAF' }), 400, 'validation_error', 'amount');
    expectProblem(await call(ctx.app, 'POST', '/gateway', sk(m), { amount: '1' }), 400, 'validation_error', 'currency');
  });

  it('malformed JSON is json_invalid', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/gateway',
      headers: { 'x-api-key': m.apiKey, authorization: `Bearer ${m.secretKey}`, 'content-type': 'application/json' },
      payload: '{"amount": "5000",',
    });
    expectProblem(res, 400, 'json_invalid');
  });
});

describe('GET /gateway/sessions/{sessionToken}', () => {
  it('answers the API key alone, without metadata or session token', async () => {
    const created = await create(m, { metadata: { secretRef: 'internal-7' } });
    const res = await call(ctx.app, 'GET', `/gateway/sessions/${created.sessionToken}`, pk(m));
    expect(res.statusCode).toBe(200);
    const intent = res.json();
    // The public view has no metadata, no session token, and no fee (the merchant's business).
    const { metadata: _metadata, sessionToken: _token, fee: _fee, net: _net, ...visible } = created as typeof created & { fee: unknown; net: unknown };
    // And the merchant's default language, for a checkout to fall back to (docs/spec/languages.md).
    expect(intent).toEqual({ ...visible, merchantLanguage: 'fr' });
    expect(intent).not.toHaveProperty('metadata');
    expect(intent).not.toHaveProperty('sessionToken');
    expect(res.body).not.toContain('internal-7');
  });

  it('also answers with the secret key, still without metadata', async () => {
    const created = await create(m);
    const res = await call(ctx.app, 'GET', `/gateway/sessions/${created.sessionToken}`, sk(m));
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('metadata');
  });

  it("404 for an unknown, malformed, other merchant's or other mode's token", async () => {
    const created = await create(m);
    const liveIntent = await create(m, {}, live(m));
    expectProblem(await call(ctx.app, 'GET', `/gateway/sessions/ps_${'A'.repeat(43)}`, pk(m)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'GET', '/gateway/sessions/not-a-token', pk(m)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'GET', `/gateway/sessions/${created.sessionToken}`, pk(other)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'GET', `/gateway/sessions/${created.sessionToken}`, { apiKey: m.live.apiKey }), 404, 'not_found');
    expectProblem(await call(ctx.app, 'GET', `/gateway/sessions/${liveIntent.sessionToken}`, pk(m)), 404, 'not_found');
    expect((await call(ctx.app, 'GET', `/gateway/sessions/${liveIntent.sessionToken}`, { apiKey: m.live.apiKey })).statusCode).toBe(200);
  });

  it('names its intent but opens it only with its own 256 random bits', async () => {
    const created = await create(m);
    const token = created.sessionToken as string;
    // ps_ + the intent id's 26 characters + 43 base62 characters (256 bits).
    expect(token).toMatch(/^ps_[0-9a-z]{26}[0-9A-Za-z]{43}$/);
    expect(token.slice(3, 29)).toBe(created.id.slice(3));
    const secret = token.slice(29);
    const flipped = secret[0] === 'A' ? `B${secret.slice(1)}` : `A${secret.slice(1)}`;
    expectProblem(await call(ctx.app, 'GET', `/gateway/sessions/ps_${created.id.slice(3)}${flipped}`, pk(m)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'GET', `/gateway/sessions/${token.slice(0, -1)}`, pk(m)), 404, 'not_found');
    // Another intent's secret with this intent's id.
    const second = await create(m);
    expectProblem(
      await call(ctx.app, 'GET', `/gateway/sessions/ps_${created.id.slice(3)}${(second.sessionToken as string).slice(29)}`, pk(m)),
      404,
      'not_found',
    );
    expect((await call(ctx.app, 'GET', `/gateway/sessions/${token}`, pk(m))).json().id).toBe(created.id);
  });

  it('needs the API key', async () => {
    const created = await create(m);
    expectProblem(await call(ctx.app, 'GET', `/gateway/sessions/${created.sessionToken}`), 401, 'api_key_missing');
  });
});

describe('GET /gateway/{id}', () => {
  it('answers the merchant view: metadata, never the session token', async () => {
    const created = await create(m);
    const res = await call(ctx.app, 'GET', `/gateway/${created.id}`, sk(m));
    expect(res.statusCode).toBe(200);
    const { sessionToken: _token, ...rest } = created;
    expect(res.json()).toEqual(rest);
  });

  it('needs the secret key', async () => {
    const created = await create(m);
    expectProblem(await call(ctx.app, 'GET', `/gateway/${created.id}`, pk(m)), 401, 'secret_key_required');
  });

  it("404, never 403, for another merchant's or mode's id, or an id that does not exist", async () => {
    const created = await create(m);
    const liveIntent = await create(m, {}, live(m));
    expectProblem(await call(ctx.app, 'GET', `/gateway/${created.id}`, sk(other)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'GET', `/gateway/${created.id}`, live(m)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'GET', `/gateway/${liveIntent.id}`, sk(m)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'GET', '/gateway/pi_00000000000000000000000000', sk(m)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'GET', '/gateway/whatever', sk(m)), 404, 'not_found');
    // The same body whether the id exists elsewhere or not at all: nothing leaks.
    const a = (await call(ctx.app, 'GET', `/gateway/${created.id}`, sk(other))).json();
    const b = (await call(ctx.app, 'GET', '/gateway/pi_00000000000000000000000000', sk(other))).json();
    expect({ ...a, requestId: '', detail: '' }).toEqual({ ...b, requestId: '', detail: '' });
  });
});

describe('GET /gateway', () => {
  it('pages newest first with limit, startingAfter and hasMore', async () => {
    const t = await createMerchant(ctx, 'Lister');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await create(t, { amount: String(100 + i) })).id);
      ctx.clock.advance(1);
    }
    const newest = [...ids].reverse();
    const p1 = await call(ctx.app, 'GET', '/gateway?limit=2', sk(t));
    expect(p1.statusCode).toBe(200);
    expect(p1.json()).toMatchObject({ object: 'list', hasMore: true });
    expect(p1.json().data.map((i: { id: string }) => i.id)).toEqual(newest.slice(0, 2));
    const p2 = (await call(ctx.app, 'GET', `/gateway?limit=2&startingAfter=${newest[1]}`, sk(t))).json();
    expect(p2.data.map((i: { id: string }) => i.id)).toEqual(newest.slice(2, 4));
    expect(p2.hasMore).toBe(true);
    const p3 = (await call(ctx.app, 'GET', `/gateway?limit=2&startingAfter=${newest[3]}`, sk(t))).json();
    expect(p3.data.map((i: { id: string }) => i.id)).toEqual(newest.slice(4));
    expect(p3.hasMore).toBe(false);
    const all = (await call(ctx.app, 'GET', '/gateway', sk(t))).json();
    expect(all.data).toHaveLength(5);
    expect(all.hasMore).toBe(false);
    expect(all.data[0]).toHaveProperty('metadata');
    expect(all.data[0]).not.toHaveProperty('sessionToken');
  });

  it('defaults to 20 and allows at most 100', async () => {
    const t = await createMerchant(ctx, 'Many');
    for (let i = 0; i < 21; i++) await create(t);
    const page = (await call(ctx.app, 'GET', '/gateway', sk(t))).json();
    expect(page.data).toHaveLength(20);
    expect(page.hasMore).toBe(true);
    expect((await call(ctx.app, 'GET', '/gateway?limit=100', sk(t))).json().data).toHaveLength(21);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=2.5', 'startingAfter=nope', 'status=UNKNOWN', 'status=pending']) {
      expectProblem(await call(ctx.app, 'GET', `/gateway?${q}`, sk(t)), 400, 'validation_error');
    }
    expectProblem(await call(ctx.app, 'GET', '/gateway?colour=red', sk(t)), 400, 'parameter_unknown', 'colour');
  });

  it('filters by status and sees only its own merchant and mode', async () => {
    const t = await createMerchant(ctx, 'Filter');
    const a = await create(t);
    const b = await create(t);
    await create(t, {}, live(t));
    await create(other);
    expect((await call(ctx.app, 'POST', `/gateway/${b.id}/cancel`, sk(t))).statusCode).toBe(200);
    const pending = (await call(ctx.app, 'GET', '/gateway?status=PENDING', sk(t))).json();
    expect(pending.data.map((i: { id: string }) => i.id)).toEqual([a.id]);
    const canceled = (await call(ctx.app, 'GET', '/gateway?status=CANCELED', sk(t))).json();
    expect(canceled.data.map((i: { id: string }) => i.id)).toEqual([b.id]);
    expect((await call(ctx.app, 'GET', '/gateway?status=SUCCEEDED', sk(t))).json()).toEqual({ object: 'list', data: [], hasMore: false });
    const test = (await call(ctx.app, 'GET', '/gateway', sk(t))).json();
    expect(test.data.every((i: { livemode: boolean }) => !i.livemode)).toBe(true);
    expect(test.data).toHaveLength(2);
    const liveList = (await call(ctx.app, 'GET', '/gateway', live(t))).json();
    expect(liveList.data).toHaveLength(1);
    expect(liveList.data[0].livemode).toBe(true);
  });
});

describe('POST /gateway/{id}/cancel', () => {
  it('cancels a PENDING intent, with or without an empty body, and records payment.canceled', async () => {
    const a = await create(m);
    const res = await call(ctx.app, 'POST', `/gateway/${a.id}/cancel`, sk(m));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: a.id, status: 'CANCELED', metadata: a.metadata });
    const b = await create(m);
    expect((await call(ctx.app, 'POST', `/gateway/${b.id}/cancel`, sk(m), {})).json().status).toBe('CANCELED');
    const events = await ctx.deps.db.selectFrom('events').selectAll().where('intent_id', '=', a.id).execute();
    expect(events.map((e) => e.type)).toEqual(['payment.canceled']);
    const body = JSON.parse(events[0]?.payload ?? '{}');
    expect(body.data.paymentIntent).toMatchObject({ id: a.id, status: 'CANCELED', amount: '5000', currency: 'XAF', metadata: { orderId: 'ord_42' } });
    expect(body.data.paymentIntent).not.toHaveProperty('sessionToken');
  });

  it('a second cancel is 409 intent_state_invalid and writes no event', async () => {
    const a = await create(m);
    await call(ctx.app, 'POST', `/gateway/${a.id}/cancel`, sk(m));
    expectProblem(await call(ctx.app, 'POST', `/gateway/${a.id}/cancel`, sk(m)), 409, 'intent_state_invalid');
    expect(await ctx.deps.db.selectFrom('events').selectAll().where('intent_id', '=', a.id).execute()).toHaveLength(1);
  });

  it("refuses a body with fields, another merchant's or mode's id, and the API key alone", async () => {
    const a = await create(m);
    expectProblem(await call(ctx.app, 'POST', `/gateway/${a.id}/cancel`, sk(m), { reason: 'x' }), 400, 'parameter_unknown', 'reason');
    expectProblem(await call(ctx.app, 'POST', `/gateway/${a.id}/cancel`, sk(other)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'POST', `/gateway/${a.id}/cancel`, live(m)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'POST', `/gateway/${a.id}/cancel`, pk(m)), 401, 'secret_key_required');
    expect((await call(ctx.app, 'GET', `/gateway/${a.id}`, sk(m))).json().status).toBe('PENDING');
  });
});

describe('versioning and documentation', () => {
  it('every answer names the version; an unknown one is refused', async () => {
    const a = await create(m);
    const res = await call(ctx.app, 'GET', `/gateway/${a.id}`, { ...sk(m), headers: { 'pay-version': '2026-11-01' } });
    expect(res.headers['pay-version']).toBe('2026-11-01');
    expectProblem(await call(ctx.app, 'GET', `/gateway/${a.id}`, { ...sk(m), headers: { 'pay-version': '2020-01-01' } }), 400, 'version_unknown');
  });

  it('the OpenAPI document describes the intent routes and their decisions', async () => {
    const doc = (await call(ctx.app, 'GET', '/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/gateway', '/gateway/{id}', '/gateway/sessions/{sessionToken}', '/gateway/{id}/cancel']));
    expect(doc.paths['/gateway'].post.description).toContain('only answer that ever shows it');
    expect(doc.paths['/gateway/{id}/cancel'].post.description).toContain('`intent_state_invalid` with `intentStatus: "EXPIRED"`');
    expect(doc.info.description).toContain('Idempotency-Key');
  });
});
