import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SECOND } from '../src/platform/clock.ts';
import { call, createMerchant, createTestContext, dbKind, onPostgres, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import {
  accessToken,
  charge,
  createIntent,
  eventTypes,
  expectLedgerClean,
  lastMessage,
  merchantContext,
  merchantMinor,
  newUser,
  PASSWORD,
  type TestUser,
  walletMinor,
} from './flow.support.ts';

/**
 * The whole payment flow through HTTP, as the interface orders it (create intent, initOtp,
 * verifyOtp, charge), and many concurrent charges of one intent: one succeeds, money moves once.
 */
let ctx: TestContext;
let m: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Flow Shop');
});
afterEach(() => expectLedgerClean(ctx));
afterAll(() => ctx.close());

describe(`the payment flow over HTTP (${dbKind})`, () => {
  it('create → initOtp → verifyOtp → charge, with the code read from GET /test/messages', async () => {
    // A customer with 25 000 XAF who signs in with phone number and password.
    const created = await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber: '+237650123456', password: PASSWORD, balance: '25000' });
    expect(created.statusCode, created.body).toBe(201);
    const userId = (created.json() as { id: string }).id;
    const login = await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: '+237650123456', password: PASSWORD });
    expect(login.statusCode, login.body).toBe(200);
    const browser = { apiKey: m.apiKey, token: (login.json() as { token: string }).token };

    // 1. The merchant's server creates the intent.
    const intent = await call(
      ctx.app,
      'POST',
      '/gateway',
      { ...sk(m), headers: { 'idempotency-key': 'order-42' } },
      {
        amount: '5000',
        currency: 'XAF',
        description: 'Order 42',
        metadata: { orderId: '42' },
      },
    );
    expect(intent.statusCode, intent.body).toBe(201);
    const { id, sessionToken } = intent.json() as { id: string; sessionToken: string };

    // 2. The browser reads it by session token.
    const read = await call(ctx.app, 'GET', `/gateway/sessions/${sessionToken}`, pk(m));
    expect(read.json()).toMatchObject({ id, status: 'PENDING', amount: '5000' });

    // 3. initOtp, bound to the intent.
    const init = await call(ctx.app, 'POST', '/otp/init', browser, { userId, channel: 'sms', intentionId: id });
    expect(init.statusCode, init.body).toBe(200);
    expect(init.json()).toMatchObject({ channel: 'sms', destination: '+237•••••••56', intentionId: id });

    // 4. The code, from the test outbox.
    const messages = await call(ctx.app, 'GET', `/test/messages?userId=${userId}`, sk(m));
    const body = (messages.json() as { data: { body: string }[] }).data[0]?.body ?? '';
    expect(body).toContain('5 000 FCFA à Flow Shop');
    const otp = /\b(\d{6})\b/.exec(body)?.[1] as string;

    // 5. verifyOtp.
    const verify = await call(ctx.app, 'POST', '/otp/verify', browser, { userId, otp });
    expect(verify.statusCode, verify.body).toBe(200);
    const { authorizationToken, expiresAt } = verify.json() as { authorizationToken: string; expiresAt: string };
    expect(authorizationToken).toMatch(/^otp_/);
    expect(Date.parse(expiresAt) - ctx.clock.now().getTime()).toBe(600 * SECOND);

    // 6. charge.
    const paid = await call(ctx.app, 'POST', '/charge', { ...browser, headers: { 'x-otp-token': authorizationToken } }, { intentionId: id });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ id, status: 'SUCCEEDED', amount: '5000', attempts: 1, lastError: null });

    // The wallet, the merchant's balance, the intent and its event all agree.
    const wallet = await call(ctx.app, 'GET', '/wallet', browser);
    expect(wallet.json()).toMatchObject({ balances: [{ currency: 'XAF', amount: '20000' }] });
    expect((wallet.json() as { movements: { kind: string; amount: string; reference: string }[] }).movements[0]).toMatchObject({
      kind: 'charge',
      amount: '-5000',
      reference: id,
    });
    const balance = await call(ctx.app, 'GET', '/balance', sk(m));
    expect(balance.statusCode, balance.body).toBe(200);
    expect(JSON.stringify(balance.json())).toContain('"5000"');
    expect((await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json()).toMatchObject({ status: 'SUCCEEDED' });
    expect(await eventTypes(ctx, id)).toEqual(['payment.completed']);
    const event = await ctx.deps.db.selectFrom('events').select('payload').where('intent_id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(event.payload)).toMatchObject({
      type: 'payment.completed',
      data: { paymentIntent: { id, status: 'SUCCEEDED', metadata: { orderId: '42' } } },
    });

    // 7. The merchant refunds part of it.
    ctx.clock.advance(1);
    const refund = await call(ctx.app, 'POST', `/gateway/${id}/refunds`, sk(m), { amount: '2000', reason: 'one item returned' });
    expect(refund.statusCode, refund.body).toBe(201);
    expect((await call(ctx.app, 'GET', '/wallet', browser)).json()).toMatchObject({ balances: [{ currency: 'XAF', amount: '22000' }] });
    expect(await eventTypes(ctx, id)).toEqual(['payment.completed', 'payment.refunded']);
  });
});

describe('concurrent charges of one intent', () => {
  /**
   * `n` valid authorization tokens for one intent, from `users` users: each user gets n/users
   * codes, one every 30 s (the send limit), all within the tokens' 10 minutes.
   */
  async function tokensFor(intentId: string, users: TestUser[], perUser: number): Promise<{ user: TestUser; token: string }[]> {
    const merchant = await merchantContext(ctx, m);
    const tokens: { user: TestUser; token: string }[] = [];
    for (let round = 0; round < perUser; round++) {
      for (const user of users) {
        const subject = { userId: user.id };
        await ctx.services.otp.init(merchant, subject, { userId: user.id, channel: 'sms', intentionId: intentId });
        const { code } = await lastMessage(ctx, m, user.id);
        const { authorizationToken } = await ctx.services.otp.verify(merchant, subject, { userId: user.id, otp: code });
        tokens.push({ user, token: authorizationToken });
      }
      ctx.clock.advance(30 * SECOND);
    }
    for (const user of users) user.creds = { apiKey: m.apiKey, token: await accessToken(ctx, m, user.id) };
    return tokens;
  }

  async function race(n: number, userCount: number) {
    const users: TestUser[] = [];
    for (let i = 0; i < userCount; i++) users.push(await newUser(ctx, m, { balance: '50000' }));
    const intent = await createIntent(ctx, m, { amount: '7000' });
    const tokens = await tokensFor(intent.id, users, n / userCount);
    expect(tokens).toHaveLength(n);
    const merchantBefore = await merchantMinor(ctx, m.merchantId);

    const answers = await Promise.all(tokens.map(({ user, token }) => charge(ctx, user, intent.id, token)));

    const succeeded = answers.filter((r) => r.statusCode === 200);
    expect(succeeded).toHaveLength(1);
    for (const r of answers.filter((a) => a.statusCode !== 200)) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json() as { code: string; intentStatus: string }).toMatchObject({ code: 'intent_state_invalid', intentStatus: 'SUCCEEDED' });
    }
    // Money moved once: one wallet debited once, the merchant credited once.
    const balances = await Promise.all(users.map((u) => walletMinor(ctx, u.id)));
    expect(balances.filter((b) => b === 43000n)).toHaveLength(1);
    expect(balances.filter((b) => b === 50000n)).toHaveLength(userCount - 1);
    expect(await merchantMinor(ctx, m.merchantId)).toBe(merchantBefore + 7000n);
    const transfers = await ctx.deps.db.selectFrom('ledger_transfers').select('id').where('reference', '=', intent.id).execute();
    expect(transfers).toHaveLength(1);
    expect(await ctx.deps.db.selectFrom('charges').select('status').where('intent_id', '=', intent.id).execute()).toEqual([{ status: 'succeeded' }]);
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.completed']);
    // Only the winning token was spent.
    const used = await ctx.deps.db
      .selectFrom('otp_authorizations')
      .select('used_at')
      .where('intent_id', '=', intent.id)
      .where('used_at', 'is not', null)
      .execute();
    expect(used).toHaveLength(1);
  }

  it(`${onPostgres ? 200 : 20} charges with as many valid tokens of several users: exactly one succeeds, one debit`, async () => {
    await race(onPostgres ? 200 : 20, onPostgres ? 40 : 4);
  }, 120_000);

  it(`${onPostgres ? 200 : 20} charges of one user, each of its 5 live tokens sent many times at once: exactly one succeeds, one debit`, async () => {
    // One user gets at most 5 codes per 15 minutes, so it can hold at most 5 live tokens (10
    // minutes each): the requests share them, which races a token against itself too.
    const n = onPostgres ? 200 : 20;
    const [user] = [await newUser(ctx, m, { balance: '50000' })] as [TestUser];
    const intent = await createIntent(ctx, m, { amount: '7000' });
    const tokens = (await tokensFor(intent.id, [user], 5)).map((t) => t.token);
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => charge(ctx, user, intent.id, tokens[i % tokens.length] as string)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of answers.filter((a) => a.statusCode !== 200)) {
      expect(r.statusCode, r.body).toBe(409);
      expect((r.json() as { code: string }).code).toBe('intent_state_invalid');
    }
    expect(await walletMinor(ctx, user.id)).toBe(43000n);
    expect(await ctx.deps.db.selectFrom('ledger_transfers').select('id').where('reference', '=', intent.id).execute()).toHaveLength(1);
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.completed']);
  }, 120_000);
});
