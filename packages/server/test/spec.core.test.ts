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

describe('every list pages the same way', () => {
  it('limit 1 to 100 (else validation_error on limit), {data, hasMore}, and startingAfter the last id', async () => {
    const user = await newUser(ctx, m, { balance: '10000' });
    for (const _ of [1, 2]) {
      const intent = await createIntent(ctx, m, { amount: '1000' });
      expect((await charge(ctx, user, intent.id, await authorize(ctx, m, user, intent.id))).statusCode).toBe(200);
      ctx.clock.advance(31_000); // the next code may be sent
    }
    const endpoint = (await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: 'http://127.0.0.1:9/list' })).json() as { id: string };
    await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: 'http://127.0.0.1:9/list-2' });
    const events = ((await call(ctx.app, 'GET', '/events', sk(m))).json() as { data: { id: string }[] }).data;
    for (const event of events.slice(0, 2)) await call(ctx.app, 'POST', `/events/${event.id}/resend`, sk(m));

    for (const list of ['/gateway', '/events', '/webhook-endpoints', `/webhook-endpoints/${endpoint.id}/deliveries`, `/test/messages?userId=${user.id}`]) {
      const url = (query: string) => `${list}${list.includes('?') ? '&' : '?'}${query}`;
      for (const limit of ['0', '101']) {
        const refused = problem(await call(ctx.app, 'GET', url(`limit=${limit}`), sk(m)), 400, 'validation_error');
        expect(refused.param, list).toBe('limit');
      }
      const first = await call(ctx.app, 'GET', url('limit=1'), sk(m));
      expect(first.statusCode, `${list}: ${first.body}`).toBe(200);
      const page = first.json() as { data: { id: string }[]; hasMore: boolean };
      expect(page.data, list).toHaveLength(1);
      expect(page.hasMore, list).toBe(true);
      const rest = (await call(ctx.app, 'GET', url(`limit=100&startingAfter=${page.data[0]!.id}`), sk(m))).json() as {
        data: { id: string }[];
        hasMore: boolean;
      };
      expect(rest.data.length, list).toBeGreaterThanOrEqual(1);
      expect(
        rest.data.map((o) => o.id),
        list,
      ).not.toContain(page.data[0]!.id);
      expect(rest.hasMore, list).toBe(false);
    }
  });
});

describe('Idempotency-Key on any POST', () => {
  it('a retry with the same key and body replays the answer with Idempotent-Replayed: true, whatever the operation', async () => {
    const user = await newUser(ctx, m, { balance: '0' });
    const token = (user.creds as { token: string }).token;
    // Each operation, its credentials, a body, and another valid body.
    const posts: [string, Record<string, string>, Record<string, unknown>, Record<string, unknown>][] = [
      [
        '/auth/web',
        { apiKey: m.apiKey },
        { phoneNumber: user.phoneNumber, password: 'limbe-market-2026' },
        { phoneNumber: user.phoneNumber, password: 'other-pass-2026' },
      ],
      [
        '/users',
        { apiKey: m.apiKey },
        { phoneNumber: '+237691234567', password: 'limbe-market-2026' },
        { phoneNumber: '+237691234568', password: 'limbe-market-2026' },
      ],
      [
        '/test/wallets/fund',
        { apiKey: m.apiKey, secretKey: m.secretKey },
        { userId: user.id, amount: '500', currency: 'XAF' },
        { userId: user.id, amount: '501', currency: 'XAF' },
      ],
      ['/webhook-endpoints', { apiKey: m.apiKey, secretKey: m.secretKey }, { url: 'http://127.0.0.1:9/idempotent' }, { url: 'http://127.0.0.1:9/other' }],
      ['/otp/init', { apiKey: m.apiKey, token }, { userId: user.id, channel: 'sms' }, { userId: user.id, channel: 'email' }],
    ];
    for (const [path, creds, body, other] of posts) {
      const key = `retry-${path}`;
      const first = await call(ctx.app, 'POST', path, { ...creds, headers: { 'idempotency-key': key } }, body);
      expect(first.statusCode, `${path}: ${first.body}`).toBeLessThan(300);
      const again = await call(ctx.app, 'POST', path, { ...creds, headers: { 'idempotency-key': key } }, body);
      expect({ path, status: again.statusCode, replayed: again.headers['idempotent-replayed'] }).toEqual({ path, status: first.statusCode, replayed: 'true' });
      expect(again.body).toBe(first.body);
      problem(await call(ctx.app, 'POST', path, { ...creds, headers: { 'idempotency-key': key } }, other), 422, 'idempotency_key_reused');
    }
    // Funded once, though asked twice.
    const wallet = (await call(ctx.app, 'GET', '/wallet', user.creds)).json() as { balances: { currency: string; amount: string }[] };
    expect(wallet.balances).toEqual([{ currency: 'XAF', amount: '500' }]);
  });
});

describe('problem types', () => {
  it('the type of an error answer resolves to what it means; an unknown one is not_found', async () => {
    const answers = [
      await call(ctx.app, 'GET', '/gateway'),
      await call(ctx.app, 'GET', '/gateway/pi_unknown', sk(m)),
      await call(ctx.app, 'POST', '/gateway', sk(m), { amount: '5000.5', currency: 'XAF' }),
    ];
    for (const res of answers) {
      const { type, code, status, title } = res.json() as { type: string; code: string; status: number; title: string };
      const described = await call(ctx.app, 'GET', type);
      expect(described.statusCode, type).toBe(200);
      expect(described.json()).toEqual({ type, code, title, status, documentation: '/docs' });
    }
    problem(await call(ctx.app, 'GET', '/errors/no_such_code'), 404, 'not_found');
    problem(await call(ctx.app, 'GET', '/errors/toString'), 404, 'not_found');
  });
});

describe('objects made in the same millisecond', () => {
  it('list newest first in the order they were made, intents and their events alike', async () => {
    // The test clock stands still: every intent below is made in one millisecond.
    const own = await createMerchant(ctx, 'Same millisecond');
    const made: string[] = [];
    for (let i = 0; i < 8; i++) made.push((await createIntent(ctx, own)).id);
    const listed = (await call(ctx.app, 'GET', '/gateway?limit=8', sk(own))).json() as { data: { id: string }[] };
    expect(listed.data.map((i) => i.id)).toEqual([...made].reverse());
    const canceled = made.slice(0, 3);
    for (const id of canceled) expect((await call(ctx.app, 'POST', `/gateway/${id}/cancel`, sk(own))).statusCode).toBe(200);
    const events = (await call(ctx.app, 'GET', '/events?limit=3', sk(own))).json() as { data: { data: { paymentIntent: { id: string } } }[] };
    expect(events.data.map((e) => e.data.paymentIntent.id)).toEqual([...canceled].reverse());
  });
});
