import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { HOUR, SECOND } from '../src/platform/clock.ts';
import { openPostgres } from '../src/platform/db.ts';
import { sql } from 'kysely';
import { canonicalJson, idempotentAnswer, inTransaction } from '../src/platform/http/idempotency.ts';
import { createLogger } from '../src/platform/logger.ts';
import { newUser } from './flow.support.ts';
import { call, countSocketWrites, createMerchant, createTestContext, type Creds, onPostgres, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

/**
 * Idempotency-Key on POST (docs/spec/request-rules.md): replay, other body, still running, scope, what is kept,
 * and many identical requests at once (one intent).
 */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;

/** A route that waits until the test lets it finish, to hold a key while it runs. */
const gates: (() => void)[] = [];
let slowRuns = 0;
let flakyRuns = 0;
let openRuns = 0;

beforeAll(async () => {
  ctx = await createTestContext({
    beforeReady(app: FastifyInstance) {
      app.post('/t/slow', { config: { auth: 'pk' } }, async () => {
        slowRuns++;
        const run = slowRuns;
        await new Promise<void>((resolve) => gates.push(resolve));
        return { run };
      });
      // The same, claiming its key with its transaction (as create, verifyOtp and charge do).
      app.post('/t/slow-tx', { config: { auth: 'pk', idempotency: 'with-transaction' } }, async (request) => {
        return inTransaction(app.deps.db, idempotentAnswer(request), async (tx) => {
          await sql`select 1`.execute(tx);
          slowRuns++;
          const run = slowRuns;
          await new Promise<void>((resolve) => gates.push(resolve));
          return { run };
        });
      });
      app.post('/t/flaky', { config: { auth: 'pk' } }, async (_req, reply) => {
        flakyRuns++;
        if (flakyRuns === 1) throw new Error('the database went away');
        return reply.code(201).send({ run: flakyRuns });
      });
      app.post('/t/open', { config: { auth: 'none' } }, async () => {
        openRuns++;
        return { run: openRuns };
      });
    },
  });
  m = await createMerchant(ctx, 'Idem');
  other = await createMerchant(ctx, 'Other');
});
afterAll(() => ctx.close());

const withKey = (creds: Creds, key: string): Creds => ({ ...creds, headers: { ...(creds.headers ?? {}), 'idempotency-key': key } });
const body = (patch: Record<string, unknown> = {}) => ({ amount: '5000', currency: 'XAF', description: 'Order', metadata: { orderId: 'o1', n: 1 }, ...patch });
const intentCount = async (merchantId: string) =>
  Number(
    (
      await ctx.deps.db
        .selectFrom('intents')
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .where('merchant_id', '=', merchantId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Resolves once `n` slow requests are waiting at their gate. */
async function slowWaiting(n: number) {
  while (gates.length < n) await new Promise((resolve) => setImmediate(resolve));
}

describe('replay', () => {
  it('the same key and body replays the first answer, creating nothing more', async () => {
    const t = await createMerchant(ctx, 'Replay');
    const first = await call(ctx.app, 'POST', '/gateway', withKey(sk(t), 'order-1'), body());
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    ctx.clock.advance(5 * SECOND);
    const again = await call(ctx.app, 'POST', '/gateway', withKey(sk(t), 'order-1'), body());
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.json().sessionToken).toBe(first.json().sessionToken);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['original-request']).toBe(first.headers['request-id']);
    expect(again.headers['request-id']).not.toBe(first.headers['request-id']);
    expect(String(again.headers['content-type'])).toBe(String(first.headers['content-type']));
    expect(again.headers['pay-version']).toBe('2026-11-01');
    expect(await intentCount(t.merchantId)).toBe(1);
  });

  it('key order in the body does not matter', async () => {
    const first = await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'order-2'), { amount: '7', currency: 'XAF', metadata: { a: 1, b: 2 } });
    const again = await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'order-2'), { metadata: { b: 2, a: 1 }, currency: 'XAF', amount: '7' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    expect(canonicalJson({ b: { d: 1, c: [{ z: 1, y: 2 }] }, a: null })).toBe('{"a":null,"b":{"c":[{"y":2,"z":1}],"d":1}}');
  });

  it('a cancel retried with its key replays the success instead of answering 409', async () => {
    const intent = (await call(ctx.app, 'POST', '/gateway', sk(m), body())).json();
    const first = await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, withKey(sk(m), 'cancel-1'));
    expect(first.statusCode).toBe(200);
    const again = await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, withKey(sk(m), 'cancel-1'));
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    // Without the key, the second cancel is the state machine's 409.
    expect((await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, sk(m))).statusCode).toBe(409);
  });

  it('an error the operation answered (4xx) is kept and replayed', async () => {
    const intent = (await call(ctx.app, 'POST', '/gateway', sk(m), body())).json();
    await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, sk(m));
    const first = await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, withKey(sk(m), 'cancel-twice'));
    expect(first.statusCode).toBe(409);
    const again = await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, withKey(sk(m), 'cancel-twice'));
    expect(again.statusCode).toBe(409);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(String(again.headers['content-type'])).toMatch(/^application\/problem\+json/);
    expect(again.json()).toEqual(first.json());
    // A service-level 400 (unsupported currency) is the operation's answer too.
    const gbp = await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'gbp'), body({ currency: 'GBP' }));
    expect(gbp.json().code).toBe('currency_unsupported');
    const gbpAgain = await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'gbp'), body({ currency: 'GBP' }));
    expect(gbpAgain.headers['idempotent-replayed']).toBe('true');
  });

  it('a request refused by validation is not kept: fix the body and reuse the key', async () => {
    const t = await createMerchant(ctx, 'Fixer');
    const bad = await call(ctx.app, 'POST', '/gateway', withKey(sk(t), 'fix-me'), body({ colour: 'red' }));
    expect(bad.json().code).toBe('parameter_unknown');
    const good = await call(ctx.app, 'POST', '/gateway', withKey(sk(t), 'fix-me'), body());
    expect(good.statusCode).toBe(201);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
    expect(await intentCount(t.merchantId)).toBe(1);
  });

  it('a 5xx releases the key: the retry runs again', async () => {
    const first = await call(ctx.app, 'POST', '/t/flaky', withKey(pk(m), 'flaky-1'), { x: 1 });
    expect(first.statusCode).toBe(500);
    const retry = await call(ctx.app, 'POST', '/t/flaky', withKey(pk(m), 'flaky-1'), { x: 1 });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const replay = await call(ctx.app, 'POST', '/t/flaky', withKey(pk(m), 'flaky-1'), { x: 1 });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual({ run: 2 });
    expect(flakyRuns).toBe(2);
  });

  it('keeps the stored answer encrypted: no session token in the table', async () => {
    const created = (await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'secret-answer'), body())).json();
    const rows = await ctx.deps.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'secret-answer').execute();
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row?.state).toBe('done');
    expect(row?.response_status).toBe(201);
    expect(row?.response_body?.toString('latin1')).not.toContain(created.sessionToken);
    expect(row?.response_body?.toString('latin1')).not.toContain(created.id);
  });
});

describe('refusals', () => {
  it('the same key with another body, path or amount is 422 idempotency_key_reused', async () => {
    await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'reuse-1'), body());
    const otherBody = await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'reuse-1'), body({ amount: '5001' }));
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    const intent = (await call(ctx.app, 'POST', '/gateway', sk(m), body())).json();
    const otherPath = await call(ctx.app, 'POST', `/gateway/${intent.id}/cancel`, withKey(sk(m), 'reuse-1'));
    expect(otherPath.json().code).toBe('idempotency_key_reused');
    expect((await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m))).json().status).toBe('PENDING');
  });

  it('while the first request runs, the same key is 409 idempotency_request_in_progress', async () => {
    const first = call(ctx.app, 'POST', '/t/slow', withKey(pk(m), 'slow-1'), { a: 1 });
    await slowWaiting(1);
    const second = await call(ctx.app, 'POST', '/t/slow', withKey(pk(m), 'slow-1'), { a: 1 });
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('idempotency_request_in_progress');
    expect(second.headers['retry-after']).toBe('1');
    gates.shift()?.();
    expect((await first).json()).toEqual({ run: 1 });
    const third = await call(ctx.app, 'POST', '/t/slow', withKey(pk(m), 'slow-1'), { a: 1 });
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.json()).toEqual({ run: 1 });
    expect(slowRuns).toBe(1);
  });

  // PostgreSQL: on PGlite the first request's transaction holds the one connection meanwhile.
  it.runIf(onPostgres)('a key claimed with its transaction: 409 while the first runs, its answer after, the work done once', async () => {
    const runsBefore = slowRuns;
    const first = call(ctx.app, 'POST', '/t/slow-tx', withKey(pk(m), 'slow-tx-1'), { a: 1 });
    await slowWaiting(1);
    const second = await call(ctx.app, 'POST', '/t/slow-tx', withKey(pk(m), 'slow-tx-1'), { a: 1 });
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('idempotency_request_in_progress');
    gates.shift()?.();
    expect((await first).json()).toEqual({ run: runsBefore + 1 });
    const third = await call(ctx.app, 'POST', '/t/slow-tx', withKey(pk(m), 'slow-tx-1'), { a: 1 });
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.json()).toEqual({ run: runsBefore + 1 });
    const other = await call(ctx.app, 'POST', '/t/slow-tx', withKey(pk(m), 'slow-tx-1'), { a: 2 });
    expect(other.statusCode).toBe(422);
    expect(slowRuns).toBe(runsBefore + 1);
  });

  it.runIf(onPostgres)('on PostgreSQL the claim rides with the transaction: a keyed create is two round trips', async () => {
    const t = await createMerchant(ctx, 'RoundTrips');
    // Warm: the API key is cached, the statements prepared on the connection.
    for (let i = 0; i < 3; i++) expect((await call(ctx.app, 'POST', '/gateway', withKey(sk(t), `warm-${i}`), body())).statusCode).toBe(201);
    let status = 0;
    const writes = await countSocketWrites(async () => {
      status = (await call(ctx.app, 'POST', '/gateway', withKey(sk(t), 'counted'), body())).statusCode;
    });
    expect(status).toBe(201);
    // [claim, BEGIN, insert] and [answer, COMMIT].
    expect(writes).toBe(2);
  });

  it('a key held past the lock timeout (its process died) is taken over; the late first answer is not kept', async () => {
    const runsBefore = slowRuns;
    const stuck = call(ctx.app, 'POST', '/t/slow', withKey(pk(m), 'stuck-1'), { a: 1 });
    await slowWaiting(1);
    ctx.clock.advance(60 * SECOND);
    const taker = call(ctx.app, 'POST', '/t/slow', withKey(pk(m), 'stuck-1'), { a: 1 });
    await slowWaiting(2);
    gates.pop()?.(); // the taker finishes first
    const taken = await taker;
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toEqual({ run: runsBefore + 2 });
    gates.shift()?.(); // then the stuck one
    expect((await stuck).json()).toEqual({ run: runsBefore + 1 });
    const replay = await call(ctx.app, 'POST', '/t/slow', withKey(pk(m), 'stuck-1'), { a: 1 });
    expect(replay.json()).toEqual({ run: runsBefore + 2 });
  });

  it('a malformed key is a validation_error', async () => {
    for (const key of ['x'.repeat(256), 'with space', 'tab\there', 'é']) {
      const res = await call(ctx.app, 'POST', '/gateway', withKey(sk(m), key), body());
      expect(res.statusCode, key).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_error', param: 'Idempotency-Key' });
    }
    expect((await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'x'.repeat(255)), body())).statusCode).toBe(201);
  });
});

describe('scope and lifetime', () => {
  it('keys are scoped to merchant and mode', async () => {
    const a = await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'shared-key'), body());
    const b = await call(ctx.app, 'POST', '/gateway', withKey(sk(other), 'shared-key'), body({ amount: '1' }));
    const c = await call(ctx.app, 'POST', '/gateway', withKey({ apiKey: m.live.apiKey, secretKey: m.live.secretKey }, 'shared-key'), body({ amount: '2' }));
    for (const res of [a, b, c]) {
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(new Set([a.json().id, b.json().id, c.json().id]).size).toBe(3);
    expect(c.json().livemode).toBe(true);
  });

  it('a key binds for 24 hours, then it is free again', async () => {
    const first = await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'day-1'), body());
    ctx.clock.advance(24 * HOUR - 1);
    expect((await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'day-1'), body({ amount: '9' }))).statusCode).toBe(422);
    expect((await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'day-1'), body())).json().id).toBe(first.json().id);
    ctx.clock.advance(1);
    const fresh = await call(ctx.app, 'POST', '/gateway', withKey(sk(m), 'day-1'), body({ amount: '9' }));
    expect(fresh.statusCode).toBe(201);
    expect(fresh.json().id).not.toBe(first.json().id);
  });

  it('GET ignores the header, and so do POST routes without a merchant', async () => {
    const intent = (await call(ctx.app, 'POST', '/gateway', sk(m), body())).json();
    const g1 = await call(ctx.app, 'GET', `/gateway/${intent.id}`, withKey(sk(m), 'get-key'));
    expect(g1.headers['idempotent-replayed']).toBeUndefined();
    const o1 = await call(ctx.app, 'POST', '/t/open', { headers: { 'idempotency-key': 'open-1' } }, {});
    const o2 = await call(ctx.app, 'POST', '/t/open', { headers: { 'idempotency-key': 'open-1' } }, {});
    expect([o1.json().run, o2.json().run]).toEqual([1, 2]);
    expect(await ctx.deps.db.selectFrom('idempotency_keys').selectAll().where('key', 'in', ['get-key', 'open-1']).execute()).toEqual([]);
  });
});

describe('whose key', () => {
  it("a customer's key is their own: another customer of the merchant reusing it runs, and each replays their own", async () => {
    const t = await createMerchant(ctx, 'TwoCustomers');
    const first = await newUser(ctx, t);
    const second = await newUser(ctx, t);
    const init = (user: typeof first) => call(ctx.app, 'POST', '/otp/init', withKey(user.creds, 'top-1'), { userId: user.id, channel: 'sms' });
    const a = await init(first);
    expect(a.statusCode, a.body).toBe(200);
    const b = await init(second);
    expect(b.statusCode, b.body).toBe(200);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body).not.toBe(a.body);
    const sent = await call(ctx.app, 'GET', `/test/messages?userId=${second.id}`, sk(t));
    expect((sent.json() as { data: unknown[] }).data).toHaveLength(1);
    for (const [user, answer] of [
      [first, a],
      [second, b],
    ] as const) {
      const again = await init(user);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toBe(answer.body);
    }
    // The merchant's own key of the same text is another one still.
    const intent = await call(ctx.app, 'POST', '/gateway', withKey(sk(t), 'top-1'), body());
    expect(intent.statusCode, intent.body).toBe(201);
  });
});

describe('concurrency', () => {
  function expectOneIntent(answers: { statusCode: number; body: string; json(): { code?: string } }[], created: string) {
    for (const a of answers) {
      if (a.statusCode === 409) expect(a.json().code).toBe('idempotency_request_in_progress');
      else {
        expect(a.statusCode).toBe(201);
        expect(a.body).toBe(created);
      }
    }
  }

  it('initOtp retried with its key (and five at once) sends one code, and every answer is the first', async () => {
    const t = await createMerchant(ctx, 'OneCode');
    const user = await newUser(ctx, t);
    const init = () => call(ctx.app, 'POST', '/otp/init', withKey(user.creds, 'code-once'), { userId: user.id, channel: 'sms' });
    const answers = await Promise.all([init(), init(), init(), init(), init()]);
    const ran = answers.filter((a) => a.statusCode === 200 && a.headers['idempotent-replayed'] === undefined);
    expect(ran).toHaveLength(1);
    for (const a of answers) expect([200, 409]).toContain(a.statusCode);
    const again = await init();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(ran[0]?.body);
    const sent = await call(ctx.app, 'GET', `/test/messages?userId=${user.id}`, sk(t));
    expect((sent.json() as { data: unknown[] }).data).toHaveLength(1);
  });

  it('20 identical POST /gateway at once with one key create exactly one intent', async () => {
    const t = await createMerchant(ctx, 'Burst');
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(ctx.app, 'POST', '/gateway', withKey(sk(t), 'burst-1'), body())));
    const created = answers.find((a) => a.statusCode === 201 && a.headers['idempotent-replayed'] === undefined);
    expect(created, 'one request ran').toBeDefined();
    expect(answers.filter((a) => a.statusCode === 201 && a.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expectOneIntent(answers, created?.body ?? '');
    expect(await intentCount(t.merchantId)).toBe(1);
    // Afterwards every retry is the replay.
    const after = await call(ctx.app, 'POST', '/gateway', withKey(sk(t), 'burst-1'), body());
    expect(after.body).toBe(created?.body);
  });

  it.runIf(onPostgres)('two server processes on one PostgreSQL agree: one intent', async () => {
    const second = openPostgres(ctx.database.url as string, 10);
    const app2 = await buildApp({ deps: { ...ctx.deps, db: second.db }, logger: createLogger({ level: 'silent' }) });
    await app2.ready();
    try {
      const t = await createMerchant(ctx, 'TwoProcs');
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => call(i % 2 === 0 ? ctx.app : app2, 'POST', '/gateway', withKey(sk(t), 'two-procs'), body())),
      );
      const ran = answers.filter((a) => a.statusCode === 201 && a.headers['idempotent-replayed'] === undefined);
      expect(ran).toHaveLength(1);
      expectOneIntent(answers, ran[0]?.body ?? '');
      expect(await intentCount(t.merchantId)).toBe(1);
    } finally {
      await app2.close();
      await second.close();
    }
  });
});
