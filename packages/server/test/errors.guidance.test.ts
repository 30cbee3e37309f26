import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suggestParameter } from '../src/platform/http/validation.ts';
import { newUser, type TestUser } from './flow.support.ts';
import { call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

/**
 * Errors that say what to do (issue 21, item 7): allowed values listed once, the closest known
 * parameter, the maximum amount, where malformed JSON breaks, "empty" ids, and a key sent in the
 * wrong place named for what it is.
 */
let ctx: TestContext;
let m: TestMerchant;
let user: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Guidance');
  user = await newUser(ctx, m);
});
afterAll(() => ctx.close());

type Problem = { code: string; detail: string; param?: string; errors?: { param: string; message: string }[] };
const body = (res: { json(): unknown }) => res.json() as Problem;

describe('validation errors name what is allowed', () => {
  it('an enum lists its values once, and what was sent', async () => {
    const res = await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: 'https://shop.example.com/hooks', enabledEvents: ['payment.done'] });
    expect(res.statusCode).toBe(400);
    const p = body(res);
    expect(p.detail).toBe(
      'enabledEvents.0 must be one of payment.processing, payment.completed, payment.failed, payment.expired, payment.canceled, payment.refunded, refund.failed, payout.paid, payout.failed, *, got "payment.done"',
    );
    expect(p.errors).toHaveLength(1);
    expect(p.detail).not.toContain('constant');
  });

  it('a status filter lists the statuses', async () => {
    const p = body(await call(ctx.app, 'GET', '/gateway?status=PAID', sk(m)));
    expect(p).toMatchObject({ code: 'validation_error', param: 'status' });
    expect(p.detail).toMatch(/^status must be one of PENDING, PROCESSING, SUCCEEDED, .*REFUNDED, got "PAID"$/);
  });

  it('an unknown parameter suggests the closest known one, or lists them', async () => {
    const charge = body(await call(ctx.app, 'POST', '/charge', { ...user.creds, headers: { 'x-otp-token': 'otp_x' } }, { intentId: 'pi_x' }));
    expect(charge).toMatchObject({ code: 'parameter_unknown', param: 'intentId', detail: 'Unknown parameter: intentId; did you mean intentionId?' });
    const typo = body(await call(ctx.app, 'POST', '/gateway', sk(m), { amount: '5000', currency: 'XAF', descripton: 'x' }));
    expect(typo.detail).toBe('Unknown parameter: descripton; did you mean description?');
    expect(suggestParameter('colour', ['amount', 'currency'])).toBe('known parameters: amount, currency');
  });

  it('a too large amount states the maximum', async () => {
    for (const amount of ['99999999999999999', '1000000000000']) {
      const p = body(await call(ctx.app, 'POST', '/gateway', sk(m), { amount, currency: 'XAF' }));
      expect(p).toMatchObject({ code: 'amount_invalid', detail: 'amount is larger than the maximum of 999999999999 XAF' });
    }
  });

  it('malformed JSON says where', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/gateway',
      headers: { 'x-api-key': m.apiKey, authorization: `Bearer ${m.secretKey}`, 'content-type': 'application/json' },
      payload: '{"amount": "5000",\n "currency": XAF}',
    });
    expect(body(res)).toMatchObject({ code: 'json_invalid', detail: 'The body is not valid JSON at line 2, column 14 (position 32): unexpected character' });
    const trailing = await ctx.app.inject({
      method: 'POST',
      url: '/gateway',
      headers: { 'x-api-key': m.apiKey, authorization: `Bearer ${m.secretKey}`, 'content-type': 'application/json' },
      payload: '{"amount": "5000",}',
    });
    expect(body(trailing).detail).toBe('The body is not valid JSON at line 1, column 19 (position 18): a property name in double quotes is expected');
  });

  it('an empty id says "empty", in the path and in the body', async () => {
    const path = body(await call(ctx.app, 'GET', '/gateway/%20', sk(m)));
    expect(path).toMatchObject({ code: 'validation_error', param: 'id' });
    expect(path.detail).toMatch(/^id is empty/);
    const inBody = body(await call(ctx.app, 'POST', '/otp/init', user.creds, { userId: user.id, channel: 'sms', intentionId: '' }));
    expect(inBody).toMatchObject({ code: 'validation_error', param: 'intentionId', detail: 'intentionId is empty' });
  });
});

describe('a key in the wrong place is named for what it is', () => {
  it('a secret key as x-api-key', async () => {
    const p = body(await call(ctx.app, 'GET', '/gateway', { apiKey: m.secretKey, secretKey: m.secretKey }));
    expect(p.code).toBe('api_key_invalid');
    expect(p.detail).toMatch(/^This x-api-key is a secret key \(sk_…\): send it as Authorization: Bearer, and the publishable key \(pk_…\) in x-api-key/);
    expect(JSON.stringify(p)).not.toContain(m.secretKey);
  });

  it("a secret key as the customer's token, and an API key as the secret key", async () => {
    const asToken = body(await call(ctx.app, 'GET', '/wallet', { apiKey: m.apiKey, token: m.secretKey }));
    expect(asToken.code).toBe('access_token_invalid');
    expect(asToken.detail).toMatch(/^The bearer token is a secret key \(sk_…\): this route takes the customer's access token from POST \/auth\/web/);
    const pkAsSk = body(await call(ctx.app, 'GET', '/gateway', { apiKey: m.apiKey, secretKey: m.apiKey }));
    expect(pkAsSk).toMatchObject({ code: 'secret_key_invalid', param: 'authorization' });
    expect(pkAsSk.detail).toMatch(/publishable key \(pk_…\): send it in x-api-key/);
    const tokenAsSk = body(await call(ctx.app, 'GET', '/gateway', { apiKey: m.apiKey, secretKey: user.creds.token }));
    expect(tokenAsSk.detail).toMatch(/customer's access token/);
  });

  it('the right keys still pass', async () => {
    expect((await call(ctx.app, 'GET', '/gateway', sk(m))).statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', '/wallet', user.creds)).statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', '/gateway/sessions/ps_none', pk(m))).statusCode).toBe(404);
  });
});
