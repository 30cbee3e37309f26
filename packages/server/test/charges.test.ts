import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { callerKey } from '../src/platform/http/idempotency.ts';
import { call, countSocketWrites, createMerchant, createTestContext, onPostgres, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import {
  accessToken,
  authorize,
  charge,
  createIntent,
  eventTypes,
  expectLedgerClean,
  lastMessage,
  merchantMinor,
  newUser,
  problem,
  refreshToken,
  type TestUser,
  registerUser,
  walletMinor,
} from './flow.support.ts';
import { appWithSandbox } from './connectors.support.ts';
import { withCardRoute } from './fixtures/card-route.ts';

/**
 * POST /charge (docs/spec/payment-intents.md, docs/spec/otp-and-charge.md): the money moves once, with the state change and its event, or
 * not at all; every bad token or intent has its own code and leaves every balance as it was.
 */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Boutique');
  other = await createMerchant(ctx, 'Other');
});
afterEach(() => expectLedgerClean(ctx));
afterAll(() => ctx.close());

/** Runs `refused`, then checks that no money moved and no charge or event was written for `intentId`. */
async function expectNoMoneyMoves(user: TestUser, intentId: string | undefined, refused: () => Promise<void>) {
  const wallet = await walletMinor(ctx, user.id);
  const merchant = await merchantMinor(ctx, m.merchantId);
  const events = intentId ? await eventTypes(ctx, intentId) : [];
  const transfers = await ctx.deps.db.selectFrom('ledger_transfers').select('id').where('kind', '=', 'charge').execute();
  await refused();
  expect(await walletMinor(ctx, user.id)).toBe(wallet);
  expect(await merchantMinor(ctx, m.merchantId)).toBe(merchant);
  expect(await ctx.deps.db.selectFrom('ledger_transfers').select('id').where('kind', '=', 'charge').execute()).toHaveLength(transfers.length);
  if (intentId) expect(await eventTypes(ctx, intentId)).toEqual(events);
}

describe('a successful charge', () => {
  it('moves the amount from the wallet to the merchant, SUCCEEDED with payment.completed, and answers the public intent', async () => {
    const user = await newUser(ctx, m, { balance: '12000' });
    const intent = await createIntent(ctx, m, { amount: '5000' });
    const token = await authorize(ctx, m, user, intent.id);
    const merchantBefore = await merchantMinor(ctx, m.merchantId);

    const res = await charge(ctx, user, intent.id, token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Record<string, unknown>;
    expect(body).toMatchObject({ id: intent.id, object: 'payment_intent', status: 'SUCCEEDED', amount: '5000', currency: 'XAF', attempts: 1, lastError: null });
    expect(body).not.toHaveProperty('metadata');
    expect(body).not.toHaveProperty('sessionToken');

    expect(await walletMinor(ctx, user.id)).toBe(7000n);
    expect(await merchantMinor(ctx, m.merchantId)).toBe(merchantBefore + 5000n);
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.completed']);
    const charges = await ctx.deps.db.selectFrom('charges').selectAll().where('intent_id', '=', intent.id).execute();
    expect(charges).toEqual([
      expect.objectContaining({ user_id: user.id, status: 'succeeded', amount_minor: 5000n, failure_code: null, transfer_id: expect.stringMatching(/^tr_/) }),
    ]);
    const merchantRead = (await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m))).json();
    expect(merchantRead).toMatchObject({ status: 'SUCCEEDED', metadata: { orderId: '42' } });
  });

  it.runIf(onPostgres)('on PostgreSQL a keyed verifyOtp is two round trips and a keyed charge three, everything committed', async () => {
    const user = await newUser(ctx, m, { balance: '20000' });
    // Warm: the user's link, wallet and token known, the statements prepared on the connections.
    const first = await createIntent(ctx, m);
    expect((await charge(ctx, user, first.id, await authorize(ctx, m, user, first.id))).statusCode).toBe(200);
    ctx.clock.advance(30 * SECOND);
    const intent = await createIntent(ctx, m);
    expect((await call(ctx.app, 'POST', '/otp/init', user.creds, { userId: user.id, channel: 'sms', intentionId: intent.id })).statusCode).toBe(200);
    const { code } = await lastMessage(ctx, m, user.id);
    const keyed = (key: string) => ({ ...user.creds, headers: { 'idempotency-key': key } });
    let verified: Awaited<ReturnType<typeof call>> | undefined;
    // [claim, BEGIN, the newest code locked] and [code exchanged for the token, answer, COMMIT].
    expect(
      await countSocketWrites(async () => {
        verified = await call(ctx.app, 'POST', '/otp/verify', keyed('verify-trips'), { userId: user.id, otp: code });
      }),
    ).toBe(2);
    expect(verified?.statusCode, verified?.body).toBe(200);
    const token = (verified?.json() as { authorizationToken: string }).authorizationToken;
    let paid: Awaited<ReturnType<typeof call>> | undefined;
    // [claim, BEGIN, intent locked, token spent], [wallet locked], [charge row, intent, event,
    // answer, transfer, statement rows, COMMIT].
    expect(
      await countSocketWrites(async () => {
        paid = await call(
          ctx.app,
          'POST',
          '/charge',
          { ...keyed('charge-trips'), headers: { 'idempotency-key': 'charge-trips', 'x-otp-token': token } },
          { intentionId: intent.id },
        );
      }),
    ).toBe(3);
    expect(paid?.statusCode, paid?.body).toBe(200);
    expect((paid?.json() as { status: string }).status).toBe('SUCCEEDED');
    expect(await walletMinor(ctx, user.id)).toBe(10_000n);
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.completed']);
    const ownKeys = [callerKey(user.id, 'charge-trips'), callerKey(user.id, 'verify-trips')];
    const keys = await ctx.deps.db.selectFrom('idempotency_keys').select(['key', 'state']).where('key', 'in', ownKeys).orderBy('key').execute();
    expect(keys).toEqual(ownKeys.map((key) => ({ key, state: 'done' })));
    // The replay is the answer, byte for byte.
    const again = await call(
      ctx.app,
      'POST',
      '/charge',
      { ...user.creds, headers: { 'idempotency-key': 'charge-trips', 'x-otp-token': token } },
      { intentionId: intent.id },
    );
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(paid?.body);
  });

  it.runIf(onPostgres)('on PostgreSQL a mobile-money callback settles in three round trips, and a second moves nothing', async () => {
    const { ctx: momo, sandbox } = await appWithSandbox();
    try {
      const shop = await createMerchant(momo, 'Momo trips');
      await momo.services.merchants.setFees(shop.merchantId, 150, {});
      // A PENDING attempt the sandbox keeps waiting (its clock does not move), and its reference.
      const started = async (phone: string) => {
        const intent = await createIntent(momo, shop);
        const res = await call(
          momo.app,
          'POST',
          '/charge',
          { ...pk(shop), headers: { 'x-session-token': intent.sessionToken } },
          { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: phone } },
        );
        expect(res.statusCode, res.body).toBe(202);
        await momo.services.attempts.drain();
        const row = await momo.deps.db.selectFrom('payment_attempts').select('reference').where('intent_id', '=', intent.id).executeTakeFirstOrThrow();
        return { intent, reference: row.reference };
      };
      // What a verified callback (a signed webhook) hands the lifecycle: the provider paid 5000 XAF.
      const paidBy = (reference: string) =>
        momo.services.attempts.lifecycle.verified('test', 'mtn_momo', {
          ok: true,
          kind: 'collection',
          reference,
          claimed: 'SUCCESSFUL',
          result: { status: 'SUCCESSFUL', amount: 5000n, currency: 'XAF', providerTransactionId: '771234' },
        });
      // Warm: the ledger accounts made, the statements prepared on the connection.
      const first = await started('+237677010000');
      expect(await paidBy(first.reference)).toBe(true);
      const { intent, reference } = await started('+237677020000');
      // [the attempt found by its reference], [BEGIN, attempt and intent locked, the merchant's
      // terms, the intent's attempts, the ledger accounts], [attempt, intent, event, transfer,
      // statement rows, COMMIT].
      expect(await countSocketWrites(() => paidBy(reference))).toBe(3);
      // Sorted: the clock stands still, and events of one millisecond have no order.
      expect((await eventTypes(momo, intent.id)).sort()).toEqual(['payment.completed', 'payment.processing']);
      const read = (await call(momo.app, 'GET', `/gateway/${intent.id}`, sk(shop))).json() as { status: string; fee: string; attempts: { status: string }[] };
      expect(read).toMatchObject({ status: 'SUCCEEDED', fee: '75', attempts: [{ status: 'SUCCEEDED' }] });
      const pending = async () => (await momo.services.ledger.merchantBalances(shop.merchantId, 'test', undefined, 'merchant_pending'))[0]?.amount;
      expect(await pending()).toBe('9850');
      // The same callback again: the attempt is decided, nothing moves.
      expect(await paidBy(reference)).toBe(true);
      expect(await pending()).toBe('9850');
      // Sorted: the clock stands still, and events of one millisecond have no order.
      expect((await eventTypes(momo, intent.id)).sort()).toEqual(['payment.completed', 'payment.processing']);
      await expectLedgerClean(momo);
    } finally {
      await momo.close();
      await sandbox.close();
    }
  });

  it('an unbound token (initOtp without intentionId) pays one intent of the merchant, once', async () => {
    const user = await newUser(ctx, m, { balance: '20000' });
    const token = await authorize(ctx, m, user);
    const first = await createIntent(ctx, m, { amount: '1000' });
    const second = await createIntent(ctx, m, { amount: '1000' });
    expect((await charge(ctx, user, first.id, token)).statusCode).toBe(200);
    await expectNoMoneyMoves(user, second.id, async () => {
      problem(await charge(ctx, user, second.id, token), 401, 'otp_token_invalid');
    });
  });

  it('in EUR the amount moves in cents, in the EUR wallet', async () => {
    const user = await newUser(ctx, m, { balance: '20.00', currency: 'EUR' });
    // A card route is what lets a Cameroonian merchant's intents be in euros (decision 0082).
    const removeCardRoute = withCardRoute();
    const intent = await createIntent(ctx, m, { amount: '12.50', currency: 'EUR' }).finally(removeCardRoute);
    const token = await authorize(ctx, m, user, intent.id);
    const res = await charge(ctx, user, intent.id, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(await walletMinor(ctx, user.id, 'EUR')).toBe(750n);
    expect(await merchantMinor(ctx, m.merchantId, 'test', 'EUR')).toBe(1250n);
  });

  it('an Idempotency-Key replays the answer without charging again', async () => {
    const user = await newUser(ctx, m, { balance: '5000' });
    const intent = await createIntent(ctx, m, { amount: '3000' });
    const token = await authorize(ctx, m, user, intent.id);
    const send = () =>
      call(
        ctx.app,
        'POST',
        '/charge',
        { ...user.creds, headers: { 'x-otp-token': token, 'idempotency-key': `charge-${intent.id}` } },
        { intentionId: intent.id },
      );
    const first = await send();
    const again = await send();
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await walletMinor(ctx, user.id)).toBe(2000n);
  });
});

describe('bad tokens: 401, and no money moves', () => {
  it('missing header: 401 otp_token_missing (before the body is looked at)', async () => {
    const user = await newUser(ctx, m, { balance: '9000' });
    const intent = await createIntent(ctx, m);
    await expectNoMoneyMoves(user, intent.id, async () => {
      problem(await charge(ctx, user, intent.id, undefined), 401, 'otp_token_missing');
      problem(await charge(ctx, user, intent.id, ''), 401, 'otp_token_missing');
      problem(await call(ctx.app, 'POST', '/charge', user.creds, { nonsense: true }), 401, 'otp_token_missing');
    });
  });

  it('a wrong token: 401 otp_token_invalid', async () => {
    const user = await newUser(ctx, m, { balance: '9000' });
    const intent = await createIntent(ctx, m);
    await expectNoMoneyMoves(user, intent.id, async () => {
      problem(await charge(ctx, user, intent.id, `otp_${'A'.repeat(43)}`), 401, 'otp_token_invalid');
      problem(await charge(ctx, user, intent.id, 'not-a-token'), 401, 'otp_token_invalid');
    });
  });

  it('an expired token (10 minutes): 401 otp_token_invalid', async () => {
    const user = await newUser(ctx, m, { balance: '9000' });
    const intent = await createIntent(ctx, m);
    const token = await authorize(ctx, m, user, intent.id);
    ctx.clock.advance(10 * MINUTE);
    await refreshToken(ctx, m, user);
    await expectNoMoneyMoves(user, intent.id, async () => {
      problem(await charge(ctx, user, intent.id, token), 401, 'otp_token_invalid');
    });
  });

  it('a token just before its 10 minutes still pays', async () => {
    const user = await newUser(ctx, m, { balance: '9000' });
    const intent = await createIntent(ctx, m);
    const token = await authorize(ctx, m, user, intent.id);
    ctx.clock.advance(10 * MINUTE - 1);
    expect((await charge(ctx, user, intent.id, token)).statusCode).toBe(200);
  });

  it('a reused token: 401 otp_token_invalid', async () => {
    const user = await newUser(ctx, m, { balance: '20000' });
    const token = await authorize(ctx, m, user);
    const first = await createIntent(ctx, m);
    expect((await charge(ctx, user, first.id, token)).statusCode).toBe(200);
    const second = await createIntent(ctx, m);
    await expectNoMoneyMoves(user, second.id, async () => {
      problem(await charge(ctx, user, second.id, token), 401, 'otp_token_invalid');
    });
  });

  it("another user's token: 401 otp_token_invalid, and the token stays good for its owner", async () => {
    const owner = await newUser(ctx, m, { balance: '9000' });
    const thief = await newUser(ctx, m, { balance: '9000' });
    const intent = await createIntent(ctx, m);
    const token = await authorize(ctx, m, owner, intent.id);
    await expectNoMoneyMoves(thief, intent.id, async () => {
      problem(await charge(ctx, thief, intent.id, token), 401, 'otp_token_invalid');
    });
    expect(await walletMinor(ctx, owner.id)).toBe(9000n);
    expect((await charge(ctx, owner, intent.id, token)).statusCode).toBe(200);
  });

  it('a token bound to another intent: 401 otp_token_invalid', async () => {
    const user = await newUser(ctx, m, { balance: '9000' });
    const bound = await createIntent(ctx, m);
    const target = await createIntent(ctx, m);
    const token = await authorize(ctx, m, user, bound.id);
    await expectNoMoneyMoves(user, target.id, async () => {
      problem(await charge(ctx, user, target.id, token), 401, 'otp_token_invalid');
    });
    expect((await charge(ctx, user, bound.id, token)).statusCode).toBe(200);
  });

  it('a token of the other mode: 401 otp_token_invalid', async () => {
    const user = await newUser(ctx, m, { balance: '9000' });
    const testToken = await authorize(ctx, m, user);
    // A live user of the same merchant, a live intent, and the test-mode token.
    const liveUserId = await registerUser(ctx, { apiKey: m.live.apiKey }, { phoneNumber: '+237699000001', password: 'douala-port-2026' }, 'live');
    const liveUser: TestUser = {
      id: liveUserId,
      phoneNumber: '+237699000001',
      creds: { apiKey: m.live.apiKey, token: await accessToken(ctx, m, liveUserId, 'live') },
    };
    const liveIntent = await createIntent(ctx, m, {}, { apiKey: m.live.apiKey, secretKey: m.live.secretKey });
    await expectNoMoneyMoves(user, undefined, async () => {
      problem(await charge(ctx, liveUser, liveIntent.id, testToken), 401, 'otp_token_invalid');
    });
    expect(await eventTypes(ctx, liveIntent.id)).toEqual([]);
    // The test intent is not visible in live mode either, and the test user's access token does not open it.
    const testIntent = await createIntent(ctx, m);
    problem(await charge(ctx, liveUser, testIntent.id, testToken), 404, 'not_found');
    problem(await charge(ctx, { ...user, creds: { apiKey: m.live.apiKey, token: user.creds.token } }, liveIntent.id, testToken), 401, 'access_token_invalid');
    // The token still pays in its own mode.
    expect((await charge(ctx, user, testIntent.id, testToken)).statusCode).toBe(200);
  });

  it("a userId in the body that is not the access token's: 403 user_mismatch", async () => {
    const user = await newUser(ctx, m, { balance: '9000' });
    const someoneElse = await newUser(ctx, m);
    const intent = await createIntent(ctx, m);
    const token = await authorize(ctx, m, user, intent.id);
    await expectNoMoneyMoves(user, intent.id, async () => {
      problem(await charge(ctx, user, intent.id, token, { userId: someoneElse.id }), 403, 'user_mismatch');
    });
    expect((await charge(ctx, user, intent.id, token, { userId: user.id })).statusCode).toBe(200);
  });

  it('no access token: 401 access_token_missing', async () => {
    const user = await newUser(ctx, m, { balance: '9000' });
    const intent = await createIntent(ctx, m);
    const token = await authorize(ctx, m, user, intent.id);
    await expectNoMoneyMoves(user, intent.id, async () => {
      problem(await call(ctx.app, 'POST', '/charge', { ...pk(m), headers: { 'x-otp-token': token } }, { intentionId: intent.id }), 401, 'access_token_missing');
    });
  });
});

describe('intents that cannot be charged: no money moves, the token is not spent', () => {
  it('unknown, or of another merchant: 404 not_found', async () => {
    const user = await newUser(ctx, m, { balance: '9000' });
    const token = await authorize(ctx, m, user);
    const theirs = await createIntent(ctx, other);
    await expectNoMoneyMoves(user, theirs.id, async () => {
      problem(await charge(ctx, user, 'pi_00000000000000000000000000', token), 404, 'not_found');
      problem(await charge(ctx, user, theirs.id, token), 404, 'not_found');
    });
    const mine = await createIntent(ctx, m);
    expect((await charge(ctx, user, mine.id, token)).statusCode).toBe(200);
  });

  it('expired: 409 intent_expired, and the expiry is recorded once with payment.expired', async () => {
    const user = await newUser(ctx, m, { balance: '9000' });
    const intent = await createIntent(ctx, m, { expiresIn: 300 });
    const token = await authorize(ctx, m, user, intent.id);
    ctx.clock.advance(300 * SECOND);
    await expectNoMoneyMoves(user, undefined, async () => {
      problem(await charge(ctx, user, intent.id, token), 409, 'intent_expired');
      problem(await charge(ctx, user, intent.id, token), 409, 'intent_expired');
    });
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.expired']);
    const auth = await ctx.deps.db.selectFrom('otp_authorizations').select('used_at').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(auth.used_at).toBeNull();
  });

  it('canceled: 409 intent_state_invalid', async () => {
    const user = await newUser(ctx, m, { balance: '9000' });
    const intent = await createIntent(ctx, m);
    const token = await authorize(ctx, m, user, intent.id);
    expect((await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, sk(m))).statusCode).toBe(200);
    await expectNoMoneyMoves(user, intent.id, async () => {
      expect(problem(await charge(ctx, user, intent.id, token), 409, 'intent_state_invalid')).toMatchObject({ intentStatus: 'CANCELED' });
    });
  });

  it('already succeeded: 409 intent_state_invalid, paid once', async () => {
    const user = await newUser(ctx, m, { balance: '20000' });
    const intent = await createIntent(ctx, m);
    const token = await authorize(ctx, m, user, intent.id);
    expect((await charge(ctx, user, intent.id, token)).statusCode).toBe(200);
    ctx.clock.advance(30 * SECOND);
    const second = await authorize(ctx, m, user, undefined);
    await expectNoMoneyMoves(user, intent.id, async () => {
      expect(problem(await charge(ctx, user, intent.id, second), 409, 'intent_state_invalid')).toMatchObject({ intentStatus: 'SUCCEEDED' });
    });
    expect(await walletMinor(ctx, user.id)).toBe(15000n);
  });
});

describe('insufficient funds', () => {
  it('402 insufficient_funds: attempt counted, lastError set, payment.failed, token spent; the third makes the intent FAILED', async () => {
    const user = await newUser(ctx, m, { balance: '1000' });
    const intent = await createIntent(ctx, m, { amount: '5000' });
    const merchantBefore = await merchantMinor(ctx, m.merchantId);
    for (let attempt = 1; attempt <= 3; attempt++) {
      if (attempt > 1) ctx.clock.advance(30 * SECOND);
      const token = await authorize(ctx, m, user, intent.id);
      const body = problem(await charge(ctx, user, intent.id, token), 402, 'insufficient_funds');
      expect(body).toMatchObject({ attempts: attempt, intentStatus: attempt < 3 ? 'PENDING' : 'FAILED' });
      // The token was spent by the declined attempt.
      problem(await charge(ctx, user, intent.id, token), attempt < 3 ? 401 : 409, attempt < 3 ? 'otp_token_invalid' : 'intent_state_invalid');
      const read = (await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m))).json() as Record<string, unknown>;
      expect(read).toMatchObject({
        status: attempt < 3 ? 'PENDING' : 'FAILED',
        attempts: attempt,
        lastError: { code: 'insufficient_funds', message: expect.stringContaining('5000 XAF') },
      });
      // The message names no balance: the merchant reads it.
      expect(JSON.stringify(read.lastError)).not.toContain('1000');
    }
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.failed', 'payment.failed', 'payment.failed']);
    expect(await walletMinor(ctx, user.id)).toBe(1000n);
    expect(await merchantMinor(ctx, m.merchantId)).toBe(merchantBefore);
    const charges = await ctx.deps.db.selectFrom('charges').selectAll().where('intent_id', '=', intent.id).orderBy('id').execute();
    expect(charges.map((c) => [c.status, c.failure_code, c.transfer_id])).toEqual([
      ['failed', 'insufficient_funds', null],
      ['failed', 'insufficient_funds', null],
      ['failed', 'insufficient_funds', null],
    ]);
  });

  it('only the customer who started the payment counts against it; others get their 402 and leave it as it was (issue 20)', async () => {
    const intent = await createIntent(ctx, m, { amount: '5000' });
    const payer = await newUser(ctx, m, { balance: '1000' });
    const strangers = [await newUser(ctx, m), await newUser(ctx, m), await newUser(ctx, m)];
    const decline = async (user: TestUser, bound: boolean) => {
      ctx.clock.advance(31 * SECOND);
      return problem(await charge(ctx, user, intent.id, await authorize(ctx, m, user, bound ? intent.id : undefined)), 402, 'insufficient_funds');
    };
    // The payer's code came first: the payer started the payment.
    expect(await decline(payer, true)).toMatchObject({ attempts: 1, intentStatus: 'PENDING' });
    // Three empty wallets, each three times, bound to the intent or not: the intent does not move.
    for (const stranger of strangers) {
      for (const bound of [true, false, true]) expect(await decline(stranger, bound)).toMatchObject({ attempts: 1, intentStatus: 'PENDING' });
    }
    const read = (await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m))).json();
    expect(read).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.failed']);
    // Every decline is on record with its customer.
    const charges = await ctx.deps.db.selectFrom('charges').select(['user_id', 'status']).where('intent_id', '=', intent.id).execute();
    expect(charges).toHaveLength(10);
    expect(charges.every((c) => c.status === 'failed')).toBe(true);
    // The payer's own second and third declines: FAILED at the payer's third.
    expect(await decline(payer, true)).toMatchObject({ attempts: 2, intentStatus: 'PENDING' });
    expect(await decline(payer, true)).toMatchObject({ attempts: 3, intentStatus: 'FAILED' });
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.failed', 'payment.failed', 'payment.failed']);
  });

  it('another customer may still pay the intent someone else started', async () => {
    const intent = await createIntent(ctx, m, { amount: '5000' });
    const starter = await newUser(ctx, m);
    await authorize(ctx, m, starter, intent.id);
    const friend = await newUser(ctx, m, { balance: '5000' });
    const res = await charge(ctx, friend, intent.id, await authorize(ctx, m, friend, intent.id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
  });

  it('a test-mode code without intentionId: the first payer declined starts the intent, and only their declines count', async () => {
    const intent = await createIntent(ctx, m, { amount: '5000' });
    const user = await newUser(ctx, m);
    const stranger = await newUser(ctx, m);
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      ctx.clock.advance(31 * SECOND);
      statuses.push(problem(await charge(ctx, user, intent.id, await authorize(ctx, m, user)), 402, 'insufficient_funds').intentStatus);
      if (i === 0) {
        // Someone else's decline leaves the started intent as it was.
        expect(problem(await charge(ctx, stranger, intent.id, await authorize(ctx, m, stranger)), 402, 'insufficient_funds')).toMatchObject({
          attempts: 1,
          intentStatus: 'PENDING',
        });
      }
    }
    expect(statuses).toEqual(['PENDING', 'PENDING', 'FAILED']);
    expect((await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m))).json()).toMatchObject({
      status: 'FAILED',
      attempts: 3,
      lastError: { code: 'insufficient_funds' },
    });
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.failed', 'payment.failed', 'payment.failed']);
  });

  it('after a declined attempt, a funded wallet pays: lastError cleared, attempts 2', async () => {
    const user = await newUser(ctx, m, { balance: '0' });
    const intent = await createIntent(ctx, m, { amount: '5000' });
    problem(await charge(ctx, user, intent.id, await authorize(ctx, m, user, intent.id)), 402, 'insufficient_funds');
    const funded = await call(ctx.app, 'POST', '/test/wallets/fund', sk(m), { userId: user.id, amount: '5000', currency: 'XAF' });
    expect(funded.statusCode, funded.body).toBe(200);
    ctx.clock.advance(30 * SECOND);
    const res = await charge(ctx, user, intent.id, await authorize(ctx, m, user, intent.id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'SUCCEEDED', attempts: 2, lastError: null });
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.failed', 'payment.completed']);
    expect(await walletMinor(ctx, user.id)).toBe(0n);
  });
});
