import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SECOND } from '../src/platform/clock.ts';
import { idempotentAnswer } from '../src/platform/http/idempotency.ts';
import { idempotencyRepository } from '../src/platform/http/idempotency.repository.ts';
import { call, createMerchant, type Creds, createTestContext, sk, type TestContext, type TestMerchant } from './harness.ts';
import { authorize, charge, createIntent, eventTypes, expectLedgerClean, lastMessage, newUser, problem, type Res, type TestUser } from './flow.support.ts';

/**
 * Idempotency-Key across a crash: the process dies after the business transaction committed and
 * before the answer was stored after sending it. The retry with the same key, once the hold is
 * past LOCK_TIMEOUT, must replay the answer (same status, same bytes), never run the operation
 * again. The crash is simulated by skipping the store made after the answer was sent: the one the
 * onSend hook makes outside any transaction (on `deps.db` itself).
 */
let ctx: TestContext;
let m: TestMerchant;

/** While set, the store made after sending is skipped, as if the process had died first. */
let crashAfterSend = false;
const stores = { inTransaction: 0, afterSend: 0 };

/** Runs of the test route that fails after its transaction committed. */
let failingRuns = 0;

beforeAll(async () => {
  ctx = await createTestContext({
    beforeReady(app) {
      // A request whose key another request takes over (as after LOCK_TIMEOUT) before its
      // transaction records the answer.
      app.post('/t/taken-over', { config: { auth: 'sk' } }, async (request, reply) => {
        const hold = request.idempotencyHold;
        if (hold) {
          const taker = { fingerprint: Buffer.alloc(32), requestId: 'req_taker', now: app.deps.clock.now() };
          expect(await idempotencyRepository.takeOver(app.deps.db, hold.scope, { request_id: hold.requestId, state: 'running' }, taker)).toBe(true);
        }
        const created = await app.services.intents.create(request.merchant, { amount: '900', currency: 'XAF' }, idempotentAnswer(request));
        return reply.code(201).send(created);
      });
      // A request that fails (5xx) after its transaction committed its effect and its answer.
      app.post('/t/fails-after-commit', { config: { auth: 'sk' } }, async (request) => {
        failingRuns += 1;
        const answer = idempotentAnswer(request);
        await app.deps.db.transaction().execute(async (tx) => {
          await answer?.record(tx, 200, { run: failingRuns });
        });
        throw new Error('lost after the commit');
      });
    },
  });
  m = await createMerchant(ctx, 'Crash');
  const complete = idempotencyRepository.complete.bind(idempotencyRepository);
  const completeInTransaction = idempotencyRepository.completeInTransaction.bind(idempotencyRepository);
  vi.spyOn(idempotencyRepository, 'completeInTransaction').mockImplementation(async (tx, ...rest) => {
    stores.inTransaction += 1;
    return completeInTransaction(tx, ...rest);
  });
  vi.spyOn(idempotencyRepository, 'complete').mockImplementation(async (db, ...rest) => {
    if (db !== ctx.deps.db) {
      stores.inTransaction += 1;
      return complete(db, ...rest);
    }
    stores.afterSend += 1;
    if (crashAfterSend) return false;
    return complete(db, ...rest);
  });
});
afterEach(async () => {
  crashAfterSend = false;
  await expectLedgerClean(ctx);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await ctx.close();
});

const withKey = (creds: Creds, key: string): Creds => ({ ...creds, headers: { ...(creds.headers ?? {}), 'idempotency-key': key } });

/**
 * Sends once with the store after sending lost, moves the clock past LOCK_TIMEOUT, sends again:
 * the second answer must be the replay of the first, byte for byte.
 */
async function crashThenRetry(send: () => Promise<Res>, status: number): Promise<Res> {
  crashAfterSend = true;
  const first = await send();
  crashAfterSend = false;
  expect(first.statusCode, first.body).toBe(status);
  ctx.clock.advance(61 * SECOND);
  const retry = await send();
  expect(retry.statusCode, retry.body).toBe(status);
  expect(retry.body).toBe(first.body);
  expect(retry.headers['idempotent-replayed']).toBe('true');
  expect(retry.headers['original-request']).toBe(first.headers['request-id']);
  expect(String(retry.headers['content-type'])).toBe(String(first.headers['content-type']));
  return first;
}

const count = async (table: 'intents' | 'charges' | 'refunds', column: 'merchant_id' | 'intent_id', value: string) =>
  Number(
    (
      await ctx.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .where(column, '=', value)
        .executeTakeFirstOrThrow()
    ).n,
  );
const transfers = async (kind: 'charge' | 'refund', intentId: string) =>
  (await ctx.deps.db.selectFrom('ledger_transfers').select('id').where('kind', '=', kind).where('reference', '=', intentId).execute()).length;

const chargeWithKey = (user: TestUser, intentionId: string, otpToken: string, key: string) =>
  call(ctx.app, 'POST', '/charge', { ...user.creds, headers: { 'x-otp-token': otpToken, 'idempotency-key': key } }, { intentionId });

/** A user with `balance` XAF, a PENDING intent of 5 000 XAF and an authorization token for it. */
async function readyToPay(balance: string): Promise<{ user: TestUser; intentId: string; token: string }> {
  const user = await newUser(ctx, m, { balance });
  const intent = await createIntent(ctx, m, { amount: '5000' });
  return { user, intentId: intent.id, token: await authorize(ctx, m, user, intent.id) };
}

describe('the answer is stored with the effect: a crash after the commit is replayed', () => {
  it('create intent: the retry replays the 201 (the same session token), one intent', async () => {
    const t = await createMerchant(ctx, 'CrashCreate');
    const body = { amount: '5000', currency: 'XAF', description: 'Order', metadata: { orderId: 'c1' } };
    const first = await crashThenRetry(() => call(ctx.app, 'POST', '/gateway', withKey(sk(t), 'create-1'), body), 201);
    expect((first.json() as { sessionToken: string }).sessionToken).toMatch(/^ps_/);
    expect(await count('intents', 'merchant_id', t.merchantId)).toBe(1);
  });

  it('cancel: the retry replays the 200, one payment.canceled', async () => {
    const intent = await createIntent(ctx, m);
    await crashThenRetry(() => call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, withKey(sk(m), `cancel-${intent.id}`)), 200);
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.canceled']);
  });

  it('cancel of an intent that expired: the retry replays the 409 the expiry committed with', async () => {
    const intent = await createIntent(ctx, m, { expiresIn: 300 });
    ctx.clock.advance(300 * SECOND);
    const first = await crashThenRetry(() => call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, withKey(sk(m), `cancel-${intent.id}`)), 409);
    problem(first, 409, 'intent_state_invalid');
    expect(await eventTypes(ctx, intent.id)).toEqual(['payment.expired']);
  });

  it('charge: the retry replays the 200 instead of 409 intent_state_invalid; one charge, one transfer', async () => {
    const { user, intentId, token } = await readyToPay('12000');
    const first = await crashThenRetry(() => chargeWithKey(user, intentId, token, `charge-${intentId}`), 200);
    expect(first.json()).toMatchObject({ id: intentId, status: 'SUCCEEDED', attempts: 1 });
    expect(await count('charges', 'intent_id', intentId)).toBe(1);
    expect(await transfers('charge', intentId)).toBe(1);
    expect(await eventTypes(ctx, intentId)).toEqual(['payment.completed']);
  });

  it('a declined charge: the retry replays the 402 insufficient_funds (problem+json) committed with the attempt; one attempt', async () => {
    const { user, intentId, token } = await readyToPay('100');
    const first = await crashThenRetry(() => chargeWithKey(user, intentId, token, `declined-${intentId}`), 402);
    expect(problem(first, 402, 'insufficient_funds')).toMatchObject({ intentStatus: 'PENDING', attempts: 1 });
    expect(await count('charges', 'intent_id', intentId)).toBe(1);
    expect(await transfers('charge', intentId)).toBe(0);
    expect(await eventTypes(ctx, intentId)).toEqual(['payment.failed']);
    const intent = await ctx.deps.db.selectFrom('intents').select('attempts').where('id', '=', intentId).executeTakeFirstOrThrow();
    expect(intent.attempts).toBe(1);
  });

  it('refund: the retry replays the 201; one refund, one transfer back', async () => {
    const { user, intentId, token } = await readyToPay('12000');
    expect((await charge(ctx, user, intentId, token)).statusCode).toBe(200);
    const first = await crashThenRetry(
      () => call(ctx.app, 'POST', `/gateway/${intentId}/refunds`, withKey(sk(m), `refund-${intentId}`), { amount: '2000' }),
      201,
    );
    expect(first.json()).toMatchObject({ object: 'refund', amount: '2000', intentId });
    expect(await count('refunds', 'intent_id', intentId)).toBe(1);
    expect(await transfers('refund', intentId)).toBe(1);
    const intent = await ctx.deps.db.selectFrom('intents').select(['status', 'amount_refunded_minor']).where('id', '=', intentId).executeTakeFirstOrThrow();
    expect(intent).toEqual({ status: 'PARTIALLY_REFUNDED', amount_refunded_minor: 2000n });
  });

  it('otp verify: the retry replays the authorization token instead of otp_incorrect; one authorization', async () => {
    const user = await newUser(ctx, m);
    expect((await call(ctx.app, 'POST', '/otp/init', user.creds, { userId: user.id, channel: 'sms' })).statusCode).toBe(200);
    const { code } = await lastMessage(ctx, m, user.id);
    const first = await crashThenRetry(
      () => call(ctx.app, 'POST', '/otp/verify', withKey(user.creds, `verify-${user.id}`), { userId: user.id, otp: code }),
      200,
    );
    expect((first.json() as { authorizationToken: string }).authorizationToken).toMatch(/^otp_/);
    const authorizations = await ctx.deps.db.selectFrom('otp_authorizations').select('token_hash').where('user_id', '=', user.id).execute();
    expect(authorizations).toHaveLength(1);
  });

  it('otp verify with a wrong code: the retry replays the same attemptsRemaining; one try counted', async () => {
    const user = await newUser(ctx, m);
    expect((await call(ctx.app, 'POST', '/otp/init', user.creds, { userId: user.id, channel: 'sms' })).statusCode).toBe(200);
    const { code } = await lastMessage(ctx, m, user.id);
    const wrong = code === '000000' ? '111111' : '000000';
    const first = await crashThenRetry(
      () => call(ctx.app, 'POST', '/otp/verify', withKey(user.creds, `wrong-${user.id}`), { userId: user.id, otp: wrong }),
      400,
    );
    expect(problem(first, 400, 'otp_incorrect')).toMatchObject({ attemptsRemaining: 4 });
    const row = await ctx.deps.db.selectFrom('otp_codes').select('attempts').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(1);
  });
});

describe('how often the answer is stored', () => {
  it('an answer that committed with the effect is stored once, in its transaction; the hook after sending does not write again', async () => {
    const before = { ...stores };
    const res = await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'once-1'), { amount: '700', currency: 'XAF' });
    expect(res.statusCode).toBe(201);
    expect(stores.inTransaction - before.inTransaction).toBe(1);
    expect(stores.afterSend - before.afterSend).toBe(0);
    const again = await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'once-1'), { amount: '700', currency: 'XAF' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(res.body);
  });

  it('an answer whose transaction rolled back (a 409 state conflict) is still stored after sending, once', async () => {
    const intent = await createIntent(ctx, m);
    expect((await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, sk(m))).statusCode).toBe(200);
    const before = { ...stores };
    const res = await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, withKey(sk(m), `conflict-${intent.id}`));
    problem(res, 409, 'intent_state_invalid');
    expect(stores.inTransaction - before.inTransaction).toBe(0);
    expect(stores.afterSend - before.afterSend).toBe(1);
    const again = await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, withKey(sk(m), `conflict-${intent.id}`));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(res.body);
  });
});

describe('a key that changed hands', () => {
  it('a request whose key was taken over meanwhile rolls back when it records its answer: nothing is created', async () => {
    const t = await createMerchant(ctx, 'TakenOver');
    const res = await call(ctx.app, 'POST', '/t/taken-over', withKey(sk(t), 'taken-1'), {});
    problem(res, 409, 'idempotency_request_in_progress');
    expect(await count('intents', 'merchant_id', t.merchantId)).toBe(0);
    const row = await idempotencyRepository.find(ctx.deps.db, { merchantId: t.merchantId, mode: 'test', key: 'taken-1' });
    expect(row).toMatchObject({ state: 'running', request_id: 'req_taker' });
  });

  it('a held key answered meanwhile is not taken over (the retry replays it)', async () => {
    const scope = { merchantId: m.merchantId, mode: 'test' as const, key: 'answered-meanwhile' };
    const claim = { fingerprint: Buffer.alloc(32, 1), requestId: 'req_first', now: ctx.clock.now() };
    expect(await idempotencyRepository.claim(ctx.deps.db, scope, claim)).toBe(true);
    const seen = await idempotencyRepository.find(ctx.deps.db, scope);
    expect(seen?.state).toBe('running');
    expect(await idempotencyRepository.complete(ctx.deps.db, scope, 'req_first', { status: 200, headers: {}, body: Buffer.from('x') })).toBe(true);
    const taker = { ...claim, requestId: 'req_second', now: new Date(ctx.clock.now().getTime() + 61 * SECOND) };
    expect(await idempotencyRepository.takeOver(ctx.deps.db, scope, seen as NonNullable<typeof seen>, taker)).toBe(false);
    expect(await idempotencyRepository.find(ctx.deps.db, scope)).toMatchObject({ state: 'done', request_id: 'req_first' });
  });

  it('a 5xx after the transaction stored its answer keeps the key answered: the retry replays, nothing runs again', async () => {
    const first = await call(ctx.app, 'POST', '/t/fails-after-commit', withKey(sk(m), 'fails-1'), {});
    expect(first.statusCode).toBe(500);
    const retry = await call(ctx.app, 'POST', '/t/fails-after-commit', withKey(sk(m), 'fails-1'), {});
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual({ run: 1 });
    expect(failingRuns).toBe(1);
  });
});
