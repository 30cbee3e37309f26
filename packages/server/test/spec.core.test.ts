import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createMerchant, createTestContext, sk, type TestContext, type TestMerchant } from './harness.ts';
import { authorize, charge, createIntent, newUser, problem } from './flow.support.ts';

/**
 * The request rules as a client that follows them to the letter meets them, where other files
 * do not look: operations that take no body, called the way generic HTTP clients call them.
 */
let ctx: TestContext;
let m: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Letter');
});
afterAll(() => ctx.close());

/** A request as a client that sets `Content-Type: application/json` on every call sends it, with no body. */
const bare = (method: 'POST' | 'DELETE', url: string) =>
  ctx.app.inject({ method, url, headers: { 'x-api-key': m.apiKey, authorization: `Bearer ${m.secretKey}`, 'content-type': 'application/json' } });

describe('operations without a body, called with the JSON content type and nothing after it', () => {
  it('cancel, whole refund, event resend, secret roll and endpoint removal answer as without the header', async () => {
    const open = await createIntent(ctx, m);
    const canceled = await bare('POST', `/gateway/${open.id}/cancel`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json()).toMatchObject({ id: open.id, status: 'CANCELED' });

    const user = await newUser(ctx, m, { balance: '5000' });
    const paid = await createIntent(ctx, m);
    expect((await charge(ctx, user, paid.id, await authorize(ctx, m, user, paid.id))).statusCode).toBe(200);
    const refund = await bare('POST', `/gateway/${paid.id}/refunds`);
    expect(refund.statusCode, refund.body).toBe(201);
    expect(refund.json()).toMatchObject({ object: 'refund', amount: '5000', intentId: paid.id });

    const endpoint = (await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: 'http://127.0.0.1:9/hooks' })).json() as { id: string; secret: string };
    const event = ((await call(ctx.app, 'GET', '/events?limit=1', sk(m))).json() as { data: { id: string }[] }).data[0]!;
    const resent = await bare('POST', `/events/${event.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    const rolled = await bare('POST', `/webhook-endpoints/${endpoint.id}/roll-secret`);
    expect(rolled.statusCode, rolled.body).toBe(200);
    expect(rolled.json().secret).toMatch(/^whsec_/);
    expect(rolled.json().secret).not.toBe(endpoint.secret);
    const removed = await bare('DELETE', `/webhook-endpoints/${endpoint.id}`);
    expect(removed.statusCode, removed.body).toBeLessThan(300);
  });

  it('an operation that needs a body names what is missing, not the JSON', async () => {
    const body = problem(await bare('POST', '/gateway'), 400, 'validation_error');
    expect(body.errors).toEqual([expect.objectContaining({ param: 'amount' }), expect.objectContaining({ param: 'currency' })]);
  });
});
