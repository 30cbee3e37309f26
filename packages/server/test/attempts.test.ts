/**
 * Paying an intent directly with mobile money (docs/spec/mobile-money-payments.md): POST /charge with a method and the
 * session token, against the MoMo sandbox (real HTTP), the app listening for its callbacks.
 * Time is the shared ManualClock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { directPayments } from '../src/modules/charges/index.ts';
import { createIntentsService } from '../src/modules/intents/index.ts';
import { appWithSandbox } from './connectors.support.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser } from './flow.support.ts';
import { call, createMerchant, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let sandbox: MomoSandbox;
let m: TestMerchant;

beforeAll(async () => {
  // The number that hangs (108) waits out the call's bound in real time: 2 s, not the 10 s default.
  ({ ctx, sandbox } = await appWithSandbox({ env: { CAISSE_MOMO_TIMEOUT_MS: '2000' } }));
  m = await createMerchant(ctx, 'Momo shop');
  await ctx.services.merchants.setFees(m.merchantId, 150, {});
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

type Attempt = {
  id: string;
  status: string;
  failureCode: string | null;
  phoneNumber: string;
  fee: string | null;
  net: string | null;
  providerReference: string | null;
};
type Answer = {
  status: string;
  attempts: Attempt[];
  nextAction: Record<string, unknown> | null;
  paymentMethod: Record<string, unknown> | null;
  lastError: { code: string } | null;
};

let numbers = 0;
/** A new MTN Cameroon number ending in `suffix` (each test its own, so the prompt limits stay apart). */
const mtn = (suffix = '000') => `+2376770${String(++numbers).padStart(2, '0')}${suffix}`;

const pay = (intent: { id: string; sessionToken: string }, phoneNumber: string, extra: { headers?: Record<string, string>; provider?: string } = {}) =>
  call(
    ctx.app,
    'POST',
    '/charge',
    { ...pk(m), headers: { 'x-session-token': intent.sessionToken, ...extra.headers } },
    { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: extra.provider ?? 'mtn_momo', phoneNumber } },
  );
const read = async (id: string) => (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as { status: string; fee: string | null; net: string | null };
const events = async (id: string) =>
  (
    (await call(ctx.app, 'GET', '/events?limit=100', sk(m))).json() as { data: { type: string; data: { paymentIntent: { id: string }; attempt?: Attempt } }[] }
  ).data
    .filter((e) => e.data.paymentIntent?.id === id)
    .map((e) => e.type)
    .reverse();

/** Lets the submit made after the answer finish, then moves time and delivers what the sandbox decided. */
async function later(ms = 2 * SECOND) {
  await ctx.services.attempts.drain();
  ctx.clock.advance(ms);
  await sandbox.tick();
  // Callbacks are answered once recorded; their status reads run behind the answer.
  await ctx.services.callbacks.drain();
}

describe('direct mobile-money payments', () => {
  it('202 PROCESSING with nextAction in the payer language; the callback, confirmed, pays once with the fee', async () => {
    const intent = await createIntent(ctx, m);
    const phone = mtn();
    const res = await pay(intent, phone, { headers: { 'accept-language': 'fr-CM' } });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json() as Answer;
    expect(started.status).toBe('PROCESSING');
    expect(started.nextAction).toMatchObject({ type: 'approve_on_phone', provider: 'mtn_momo', phoneNumber: phone, ussd: '*126#' });
    expect(started.nextAction?.message).toMatch(/Validez la demande MTN MoMo de 5\s000\sFCFA.*\*126#/);
    expect(started.paymentMethod).toMatchObject({ type: 'mobile_money', provider: 'mtn_momo' });
    expect(started.paymentMethod?.phoneNumber).not.toBe(phone);
    expect(started.attempts).toHaveLength(1);
    expect(started.attempts[0]).toMatchObject({ status: 'PENDING', failureCode: null, connector: 'mtn_momo', providerAccount: 'pac_sandbox_mtn_momo' });
    expect(started.attempts[0]?.id).toMatch(/^att_/);

    // One attempt in flight.
    expect((await pay(intent, phone)).json()).toMatchObject({ status: 409, code: 'attempt_in_progress' });

    await later();
    await expect.poll(async () => (await read(intent.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    expect(await read(intent.id)).toMatchObject({ fee: '75', net: '4925' });
    const [attempt] = await ctx.services.attempts.listForIntent(intent.id);
    expect(attempt).toMatchObject({ status: 'SUCCEEDED', fee: '75', net: '4925' });
    expect(attempt?.providerReference).toMatch(/^\d+$/);
    // Polls and duplicate callbacks later change nothing.
    ctx.clock.advance(MINUTE);
    await ctx.services.attempts.pollDue();
    expect(await events(intent.id)).toEqual(['payment.processing', 'payment.completed']);
    const balance = (await call(ctx.app, 'GET', '/balance', sk(m))).json() as { balances: { currency: string; pending: string }[] };
    expect(balance.balances.find((b) => b.currency === 'XAF')?.pending).toBe('4925');
    await expectLedgerClean(ctx);
  });

  it('a declined attempt puts the intent back to PENDING with its failureCode; another number then pays', async () => {
    const intent = await createIntent(ctx, m);
    expect((await pay(intent, mtn('105'))).statusCode).toBe(202);
    await later();
    await expect.poll(async () => (await read(intent.id)).status, { interval: 20, timeout: 5000 }).toBe('PENDING');
    const session = (await call(ctx.app, 'GET', `/gateway/sessions/${intent.sessionToken}`, pk(m))).json() as { lastError: { code: string } };
    expect(session.lastError.code).toBe('approval_rejected');
    for (const [suffix, code] of [
      ['103', 'payer_not_found'],
      ['104', 'insufficient_funds'],
    ] as const) {
      expect((await pay(intent, mtn(suffix))).statusCode).toBe(202);
      await later();
      await expect.poll(async () => (await ctx.services.attempts.listForIntent(intent.id)).at(-1)?.failureCode, { interval: 20, timeout: 5000 }).toBe(code);
    }
    expect((await pay(intent, mtn())).statusCode).toBe(202);
    await later();
    await expect.poll(async () => (await read(intent.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    // Events of one millisecond have no order among them: count them.
    const types = await events(intent.id);
    expect(types.filter((t) => t === 'payment.processing')).toHaveLength(4);
    expect(types.filter((t) => t === 'payment.failed')).toHaveLength(3);
    expect(types.filter((t) => t === 'payment.completed')).toHaveLength(1);
    await expectLedgerClean(ctx);
  });

  it('500 or no answer to the request: the poller reads SUCCESSFUL and pays once; a silent provider times out after 15 minutes', async () => {
    for (const suffix of ['107', '108']) {
      const intent = await createIntent(ctx, m);
      expect((await pay(intent, mtn(suffix))).statusCode).toBe(202);
      await ctx.services.attempts.drain();
      expect((await read(intent.id)).status).toBe('PROCESSING');
      ctx.clock.advance(5 * SECOND);
      await ctx.services.attempts.pollDue();
      expect((await read(intent.id)).status).toBe('SUCCEEDED');
    }
    const silent = await createIntent(ctx, m, { expiresIn: 300 });
    expect((await pay(silent, mtn('102'))).statusCode).toBe(202);
    await ctx.services.attempts.drain();
    // Past expiresAt, but the attempt is in flight: no expiry yet.
    ctx.clock.advance(10 * MINUTE);
    await ctx.services.intents.sweepExpired();
    await ctx.services.attempts.pollDue();
    expect((await read(silent.id)).status).toBe('PROCESSING');
    ctx.clock.advance(6 * MINUTE);
    await ctx.services.attempts.pollDue();
    expect((await read(silent.id)).status).toBe('EXPIRED');
    expect((await ctx.services.attempts.listForIntent(silent.id))[0]?.failureCode).toBe('approval_timeout');
    await expectLedgerClean(ctx);
  }, 60_000);

  it('bad input: session token, provider, number, bounds, state; Idempotency-Key replays', async () => {
    const intent = await createIntent(ctx, m);
    const body = { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: mtn() } };
    const bare = (await call(ctx.app, 'POST', '/charge', pk(m), body)).json();
    expect(bare).toMatchObject({ status: 401, code: 'access_token_missing' });
    expect(bare.detail).toContain('x-session-token');
    const other = await createIntent(ctx, m);
    expect((await call(ctx.app, 'POST', '/charge', { ...pk(m), headers: { 'x-session-token': other.sessionToken } }, body)).json()).toMatchObject({
      status: 401,
      code: 'session_token_invalid',
    });
    expect((await pay(intent, mtn(), { provider: 'paypal' })).json()).toMatchObject({ status: 400, code: 'provider_unsupported' });
    // Eight digits: no Cameroonian mobile number.
    expect((await pay(intent, '67700000')).json()).toMatchObject({ status: 400, code: 'phone_invalid' });
    // An Orange Cameroon number is not MTN's.
    expect((await pay(intent, '+237690000000')).json()).toMatchObject({ status: 400, code: 'phone_invalid' });
    const big = await createIntent(ctx, m, { amount: '2500000' });
    expect((await pay(big, mtn())).json()).toMatchObject({ status: 400, code: 'amount_out_of_bounds' });
    const canceled = await createIntent(ctx, m);
    await call(ctx.app, 'POST', `/gateway/${canceled.id}/cancel`, sk(m));
    expect((await pay(canceled, mtn())).json()).toMatchObject({ status: 409, code: 'intent_state_invalid' });
    // A currency the provider does not move is named as such, not as an amount out of bounds.
    // (An intent in euros, as a card route lets a merchant make: decision 0082.)
    const euros = await createIntent(ctx, m, { amount: '1000' });
    await ctx.deps.db.updateTable('intents').set({ currency: 'EUR' }).where('id', '=', euros.id).execute();
    expect((await pay(euros, mtn())).json()).toMatchObject({ status: 400, code: 'currency_unsupported' });
    // A provider that does not serve the merchant's country (Wave, in Senegal), or that the
    // merchant's settings leave out in this mode, is not offered: refused, nothing sent.
    expect((await pay(intent, '+221770000000', { provider: 'wave' })).json()).toMatchObject({
      status: 400,
      code: 'provider_unsupported',
      param: 'paymentMethod.provider',
    });
    const only = await createMerchant(ctx, 'MTN only shop');
    expect((await call(ctx.app, 'PUT', '/payment-methods/settings', sk(only), { providers: ['mtn_momo'] })).statusCode).toBe(200);
    const offered = await createIntent(ctx, only);
    const orange = await call(
      ctx.app,
      'POST',
      '/charge',
      { ...pk(only), headers: { 'x-session-token': offered.sessionToken } },
      { intentionId: offered.id, paymentMethod: { type: 'mobile_money', provider: 'orange_money', phoneNumber: '+237690000000' } },
    );
    expect(orange.json()).toMatchObject({ status: 400, code: 'provider_unsupported' });
    expect((await call(ctx.app, 'GET', `/gateway/${offered.id}`, sk(only))).json()).toMatchObject({ status: 'PENDING', attempts: 0 });

    const phone = mtn();
    const first = await pay(intent, phone, { headers: { 'idempotency-key': 'mm-1' } });
    expect(first.statusCode).toBe(202);
    const again = await pay(intent, phone, { headers: { 'idempotency-key': 'mm-1' } });
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await ctx.services.attempts.drain();
    expect(sandbox.requests().filter((r) => r.partyId === phone.slice(1))).toHaveLength(1);
  });

  it("the payer's prompt shows the merchant's short name, as it was when the attempt started", async () => {
    await ctx.services.merchants.setShortName(m.merchantId, 'Momo Boutique');
    const intent = await createIntent(ctx, m);
    const phone = mtn();
    expect((await pay(intent, phone)).statusCode).toBe(202);
    // A change after the start does not reach a retry of the same attempt.
    await ctx.services.merchants.setShortName(m.merchantId, null);
    await ctx.services.attempts.drain();
    const [sent] = sandbox.requests().filter((r) => r.partyId === phone.slice(1));
    expect(sent).toMatchObject({ payerMessage: 'Momo Boutique' });
    expect(sent?.payeeNote).toMatch(/^att_/);
    // Without a choice, the merchant's name.
    const next = await createIntent(ctx, m);
    const other = mtn();
    expect((await pay(next, other)).statusCode).toBe(202);
    await ctx.services.attempts.drain();
    expect(sandbox.requests().find((r) => r.partyId === other.slice(1))?.payerMessage).toBe('Momo shop');
  });

  it('every read of a direct payment lists its attempts, the method and nextAction; wallet-only intents keep the count', async () => {
    const intent = await createIntent(ctx, m);
    const wallet = await createIntent(ctx, m);
    const declined = mtn('105');
    expect((await pay(intent, declined)).statusCode).toBe(202);
    await later();
    await expect.poll(async () => (await read(intent.id)).status, { interval: 20, timeout: 5000 }).toBe('PENDING');
    const phone = mtn('102');
    expect((await pay(intent, phone)).statusCode).toBe(202);
    await ctx.services.attempts.drain();

    type Direct = Answer & { metadata?: unknown };
    const secret = (await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m))).json() as Direct;
    const session = (await call(ctx.app, 'GET', `/gateway/sessions/${intent.sessionToken}`, pk(m))).json() as Direct;
    // Every intent of this file: ids made in one millisecond have no order among them.
    const listed = ((await call(ctx.app, 'GET', '/gateway?limit=100', sk(m))).json() as { data: (Direct & { id: string })[] }).data;
    const inList = listed.find((i) => i.id === intent.id);
    for (const view of [secret, session, inList]) {
      expect(view?.status).toBe('PROCESSING');
      expect(view?.attempts.map((a) => [a.status, a.failureCode])).toEqual([
        ['FAILED', 'approval_rejected'],
        ['PENDING', null],
      ]);
      expect(view?.attempts[0]?.id).toMatch(/^att_/);
      expect(view?.paymentMethod).toEqual({ type: 'mobile_money', provider: 'mtn_momo', phoneNumber: expect.not.stringMatching(phone.slice(4, 10)) });
      expect(view?.nextAction).toMatchObject({ type: 'approve_on_phone', provider: 'mtn_momo', phoneNumber: phone });
    }
    expect(session.metadata).toBeUndefined();
    // Paid through the wallet only (or not yet): the count, and no method or next action.
    const plain = listed.find((i) => i.id === wallet.id);
    expect(plain?.attempts).toBe(0);
    expect(plain).not.toHaveProperty('paymentMethod');
    expect(plain).not.toHaveProperty('nextAction');
    expect((await call(ctx.app, 'GET', `/gateway/${wallet.id}`, sk(m))).json()).toMatchObject({ attempts: 0 });

    // The intent inside the events carries the list as it was then.
    const all = (
      (await call(ctx.app, 'GET', '/events?limit=100', sk(m))).json() as {
        data: { type: string; data: { paymentIntent: Direct & { id: string }; attempt?: Attempt } }[];
      }
    ).data.filter((e) => e.data.paymentIntent.id === intent.id);
    const failed = all.find((e) => e.type === 'payment.failed');
    expect(failed?.data.paymentIntent.attempts.map((a) => a.status)).toEqual(['FAILED']);
    expect(failed?.data.paymentIntent.nextAction).toBeNull();
    expect(failed?.data.attempt).toMatchObject({ status: 'FAILED', failureCode: 'approval_rejected' });
    const processing = all.filter((e) => e.type === 'payment.processing').map((e) => e.data.paymentIntent.attempts.length);
    expect(processing.sort()).toEqual([1, 2]);

    // The same intent after it is decided: no next action any more.
    ctx.clock.advance(16 * MINUTE);
    await ctx.services.attempts.pollDue();
    const ended = (await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m))).json() as Direct;
    expect(ended.attempts.map((a) => a.status)).toEqual(['FAILED', 'FAILED']);
    expect(ended.nextAction).toBeNull();
  });

  it('declined on the phone, then paid from the wallet: the charge answers the attempts as every read does', async () => {
    const intent = await createIntent(ctx, m);
    expect((await pay(intent, mtn('105'))).statusCode).toBe(202);
    await later();
    await expect.poll(async () => (await read(intent.id)).status, { interval: 20, timeout: 5000 }).toBe('PENDING');
    const user = await newUser(ctx, m, { balance: '5000' });
    const paid = await charge(ctx, user, intent.id, await authorize(ctx, m, user, intent.id));
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({
      status: 'SUCCEEDED',
      attempts: [{ status: 'FAILED', failureCode: 'approval_rejected' }],
      paymentMethod: { provider: 'mtn_momo' },
      nextAction: null,
    });
    await expectLedgerClean(ctx);
  });

  it('reads ask for attempts once per page, and never for intents paid through the wallet only', async () => {
    const asked: string[][] = [];
    const intents = createIntentsService(ctx.deps, {
      events: ctx.services.events,
      pinnedVersions: ctx.services.merchants.pinnedVersions,
      directPayments: async (executor, ids) => {
        asked.push([...ids]);
        return directPayments(executor, ids);
      },
    });
    const scope = { merchantId: m.merchantId, mode: 'test' as const };
    const wallet = await createIntent(ctx, m);
    await intents.retrieve(scope, wallet.id);
    await intents.retrieveBySessionToken(scope, wallet.sessionToken);
    await intents.retrieveMany(scope, [wallet.id]);
    expect(asked).toEqual([]);

    const direct = await createIntent(ctx, m);
    expect((await pay(direct, mtn('102'))).statusCode).toBe(202);
    await ctx.services.attempts.drain();
    const page = await intents.retrieveMany(scope, [wallet.id, direct.id]);
    expect(asked).toEqual([[direct.id]]);
    expect(page.map((i) => i.attempts)).toEqual([0, [expect.objectContaining({ status: 'PENDING' })]]);
    ctx.clock.advance(16 * MINUTE);
    await ctx.services.attempts.pollDue();
  });

  it('abuse limits: 3 prompts per number per 10 minutes → 429 rate_limited with Retry-After', async () => {
    const phone = mtn('105');
    for (let i = 0; i < 3; i++) {
      const intent = await createIntent(ctx, m);
      expect((await pay(intent, phone)).statusCode).toBe(202);
    }
    const intent = await createIntent(ctx, m);
    const refused = await pay(intent, phone);
    expect(refused.json()).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    ctx.clock.advance(11 * MINUTE);
    await ctx.services.attempts.drain();
  });

  it('a charge refused before any prompt (the intent canceled, the amount out of bounds) does not count toward the number', async () => {
    const phone = mtn();
    const canceled = await createIntent(ctx, m);
    await call(ctx.app, 'POST', `/gateway/${canceled.id}/cancel`, sk(m));
    const big = await createIntent(ctx, m, { amount: '2500000' });
    for (let i = 0; i < 3; i++) {
      expect((await pay(canceled, phone)).json()).toMatchObject({ code: 'intent_state_invalid' });
      expect((await pay(big, phone)).json()).toMatchObject({ code: 'amount_out_of_bounds' });
    }
    const paid = await createIntent(ctx, m);
    expect((await pay(paid, phone)).statusCode).toBe(202);
    await later();
    await expect.poll(async () => (await read(paid.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
  });
});
