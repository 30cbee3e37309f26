/**
 * The money texts statement by statement, over HTTP against every provider's sandbox: what a
 * payer, a customer and a merchant see of direct mobile-money payments, their limits and shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newReference, type Sandbox } from '../src/modules/connectors/index.ts';
import { startMomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import { ManualClock, MINUTE, SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes, CREDENTIALS } from './connectors.support.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser, PASSWORD, problem } from './flow.support.ts';
import { call, createMerchant, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let sandbox: Sandbox;
let m: TestMerchant;

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithAllSandboxes());
  m = await createMerchant(ctx, 'Probe shop');
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

let numbers = 0;
/** A new MTN Cameroon number ending in `suffix` (each its own, so the prompt limits stay apart). */
const mtn = (suffix = '000') => `+2376771${String(++numbers).padStart(2, '0')}${suffix}`;

const pay = (intent: { id: string; sessionToken: string }, phoneNumber: string, provider = 'mtn_momo') =>
  call(
    ctx.app,
    'POST',
    '/charge',
    { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
    { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider, phoneNumber } },
  );
const status = async (id: string) => ((await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as { status: string }).status;

/** Lets the submit made after the answer finish, then moves time and delivers what the sandbox decided. */
async function later(ms = 2 * SECOND) {
  await ctx.services.attempts.drain();
  ctx.clock.advance(ms);
  await sandbox.tick();
  await ctx.services.callbacks.drain();
}

describe('paying an intent directly with mobile money', () => {
  it('a wallet charge while an attempt is in flight is 409 attempt_in_progress, and spends no code', async () => {
    const intent = await createIntent(ctx, m);
    const user = await newUser(ctx, m, { balance: '5000' });
    // The code is asked for before the attempt starts: once it has, no code can be bound to the intent.
    const otpToken = await authorize(ctx, m, user, intent.id);
    // Declined on the phone after a second: in flight until then.
    expect((await pay(intent, mtn('105'))).statusCode).toBe(202);
    await ctx.services.attempts.drain();
    problem(await charge(ctx, user, intent.id, otpToken), 409, 'attempt_in_progress');
    // Nor is a code sent for it meanwhile.
    problem(await call(ctx.app, 'POST', '/otp/init', user.creds, { userId: user.id, channel: 'sms', intentionId: intent.id }), 409, 'attempt_in_progress');
    expect(await status(intent.id)).toBe('PROCESSING');
    await later();
    await expect.poll(() => status(intent.id), { interval: 20, timeout: 5000 }).toBe('PENDING');
    // The refusal spent nothing: the same authorization pays from the wallet now.
    const paid = await charge(ctx, user, intent.id, otpToken);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'SUCCEEDED' });
    await expectLedgerClean(ctx);
  });

  it('202: nextAction, paymentMethod and attempts carry every field named for them; payment.processing carries the attempt', async () => {
    const intent = await createIntent(ctx, m);
    const phone = mtn();
    const res = await pay(intent, phone);
    expect(res.statusCode, res.body).toBe(202);
    const body = res.json() as Record<string, unknown> & { attempts: Record<string, unknown>[] };
    expect(Object.keys(body.nextAction as object).sort()).toEqual(['expiresAt', 'message', 'phoneNumber', 'provider', 'type', 'ussd']);
    expect(body.nextAction).toMatchObject({ type: 'approve_on_phone', provider: 'mtn_momo', phoneNumber: phone, ussd: '*126#' });
    // The approval window: 5 minutes from now.
    expect(Date.parse((body.nextAction as { expiresAt: string }).expiresAt) - ctx.clock.now().getTime()).toBe(5 * MINUTE);
    expect(body.paymentMethod).toMatchObject({ provider: 'mtn_momo', phoneNumber: expect.stringContaining('•') });
    expect(body.attempts).toHaveLength(1);
    expect(body.attempts[0]).toMatchObject({ id: expect.stringMatching(/^att_/), provider: 'mtn_momo', status: 'PENDING', failureCode: null });
    expect(body.attempts[0]?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const methods = await call(ctx.app, 'GET', `/payment-methods?sessionToken=${intent.sessionToken}`, pk(m));
    const listed = (methods.json() as { data: Record<string, unknown>[] }).data;
    expect(listed[0]).toEqual({ type: 'wallet' });
    expect(listed.find((x) => x.provider === 'mtn_momo')).toMatchObject({
      type: 'mobile_money',
      name: 'MTN MoMo',
      approval: 'phone_prompt',
      available: true,
      minAmount: expect.any(String),
      maxAmount: expect.any(String),
      prefixes: expect.arrayContaining(['+237650', '+23767', '+237683']),
      ussd: '*126#',
    });

    await later();
    await expect.poll(() => status(intent.id), { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    const events = (
      (await call(ctx.app, 'GET', '/events?limit=100', sk(m))).json() as {
        data: { type: string; data: { paymentIntent: { id: string }; attempt?: { id: string; status: string } } }[];
      }
    ).data.filter((e) => e.data.paymentIntent.id === intent.id);
    const attemptId = body.attempts[0]?.id;
    expect(events.find((e) => e.type === 'payment.processing')?.data.attempt).toMatchObject({ id: attemptId, status: 'PENDING' });
    expect(events.find((e) => e.type === 'payment.completed')?.data.attempt).toMatchObject({ id: attemptId, status: 'SUCCEEDED' });
  });

  it('an attempt in flight past expiresAt: no expiry until the provider answers, then SUCCEEDED, paid once', async () => {
    const intent = await createIntent(ctx, m, { expiresIn: 300 });
    ctx.clock.advance(295 * SECOND);
    // Approved 10 s after the request: 5 s after the intent's expiresAt.
    expect((await pay(intent, mtn('101'))).statusCode).toBe(202);
    await ctx.services.attempts.drain();
    ctx.clock.advance(6 * SECOND);
    await ctx.services.intents.sweepExpired();
    expect(await status(intent.id)).toBe('PROCESSING');
    const session = await call(ctx.app, 'GET', `/gateway/sessions/${intent.sessionToken}`, pk(m));
    expect(session.json()).toMatchObject({ status: 'PROCESSING' });
    await later(5 * SECOND);
    await expect.poll(() => status(intent.id), { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    const types = (
      (await call(ctx.app, 'GET', '/events?limit=100', sk(m))).json() as { data: { type: string; data: { paymentIntent: { id: string } } }[] }
    ).data
      .filter((e) => e.data.paymentIntent.id === intent.id)
      .map((e) => e.type);
    expect(types.sort()).toEqual(['payment.completed', 'payment.processing']);
    await expectLedgerClean(ctx);
  });

  it("the phone prompt's message: the payer's Accept-Language, else the merchant's default, else French", async () => {
    const message = async (merchant: TestMerchant, headers: Record<string, string>) => {
      const intent = await createIntent(ctx, merchant);
      const res = await call(
        ctx.app,
        'POST',
        '/charge',
        { ...pk(merchant), headers: { 'x-session-token': intent.sessionToken, ...headers } },
        { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: mtn() } },
      );
      expect(res.statusCode, res.body).toBe(202);
      return (res.json() as { nextAction: { message: string } }).nextAction.message;
    };
    const english = await createMerchant(ctx, 'English shop');
    await ctx.services.merchants.setLanguage(english.merchantId, 'en');
    expect(await message(m, { 'accept-language': 'en-GB,fr;q=0.5' })).toMatch(/MTN MoMo.*FCFA\s5,000/);
    expect(await message(english, { 'accept-language': 'de' })).toMatch(/FCFA\s5,000/);
    expect(await message(english, { 'accept-language': 'fr' })).toMatch(/5\s000\sFCFA/);
    expect(await message(m, {})).toMatch(/^Validez .*5\s000\sFCFA/);
    await later();
  });

  it('5 failed attempts leave the intent FAILED; a sixth charge is 409', async () => {
    const intent = await createIntent(ctx, m);
    for (let i = 0; i < 5; i++) {
      expect((await pay(intent, mtn('105'))).statusCode).toBe(202);
      await later();
      await expect.poll(() => status(intent.id), { interval: 20, timeout: 5000 }).not.toBe('PROCESSING');
      expect(await status(intent.id)).toBe(i < 4 ? 'PENDING' : 'FAILED');
    }
    problem(await pay(intent, mtn()), 409, 'intent_state_invalid');
  });

  it('10 charges per intent per hour, refused ones included; then 429 rate_limited with Retry-After', async () => {
    const intent = await createIntent(ctx, m);
    const phone = mtn('102');
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) answers.push((await pay(intent, phone)).statusCode);
    expect(answers).toEqual([202, ...Array<number>(9).fill(409)]);
    const refused = await pay(intent, phone);
    problem(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    ctx.clock.advance(16 * MINUTE);
    await ctx.services.attempts.pollDue();
  });

  it('20 prompts per number a day, 3 per 10 minutes', async () => {
    const phone = mtn('105');
    const answers: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await pay(await createIntent(ctx, m), phone);
      answers.push(res.statusCode);
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(10 * 60);
      await later();
      ctx.clock.advance(4 * MINUTE);
    }
    expect(answers).toEqual([...Array<number>(20).fill(202), 429]);
  });
});

describe('customers seen by a merchant', () => {
  it('not after a sign-in through it; once the customer starts paying one of its intents', async () => {
    const other = await createMerchant(ctx, 'Other shop');
    const user = await newUser(ctx, m, { balance: '100' });
    const signIn = await call(ctx.app, 'POST', '/auth/web', pk(other), { phoneNumber: user.phoneNumber, password: PASSWORD });
    expect(signIn.statusCode, signIn.body).toBe(200);
    problem(await call(ctx.app, 'GET', `/users/${user.id}`, sk(other)), 404, 'not_found');
    const viaOther = { ...user, creds: { apiKey: other.apiKey, token: (signIn.json() as { token: string }).token } };
    const intent = await createIntent(ctx, other);
    problem(await charge(ctx, viaOther, intent.id, await authorize(ctx, other, viaOther, intent.id)), 402, 'insufficient_funds');
    const seen = await call(ctx.app, 'GET', `/users/${user.id}`, sk(other));
    expect(seen.statusCode).toBe(200);
    expect(seen.body).not.toMatch(/balance|movement/i);
  });
});

describe("the MoMo sandbox refuses what MTN's API refuses", () => {
  it('amount 0, a currency wrong for the environment, empty, over-long or forbidden messages; for both products', async () => {
    const sb = await startMomoSandbox({ clock: new ManualClock(), tickMs: 0, credentials: CREDENTIALS });
    try {
      const basic = `Basic ${Buffer.from(`${CREDENTIALS.apiUser}:${CREDENTIALS.apiKey}`).toString('base64')}`;
      for (const product of ['collection', 'disbursement'] as const) {
        const key = product === 'collection' ? CREDENTIALS.collectionKey : CREDENTIALS.disbursementKey;
        const token = await fetch(`${sb.url}/${product}/token/`, { method: 'POST', headers: { authorization: basic, 'ocp-apim-subscription-key': key } });
        const bearer = ((await token.json()) as { access_token: string }).access_token;
        const path = product === 'collection' ? '/collection/v1_0/requesttopay' : '/disbursement/v1_0/transfer';
        const party = product === 'collection' ? 'payer' : 'payee';
        const body = {
          amount: '5000',
          currency: 'XAF',
          externalId: 'x1',
          [party]: { partyIdType: 'MSISDN', partyId: '237677000000' },
          payerMessage: 'Hello',
          payeeNote: 'Note',
        };
        const post = async (change: Record<string, unknown>) =>
          (
            await fetch(`${sb.url}${path}`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${bearer}`,
                'x-target-environment': 'sandbox',
                'ocp-apim-subscription-key': key,
                'x-reference-id': newReference(),
                'content-type': 'application/json',
              },
              body: JSON.stringify({ ...body, ...change }),
            })
          ).status;
        expect(await post({})).toBe(202);
        for (const refused of [
          { amount: '0' },
          { currency: 'USD' },
          { payerMessage: '' },
          { payeeNote: '' },
          { payerMessage: 'x'.repeat(161) },
          { payeeNote: 'x'.repeat(161) },
          { payerMessage: 'Tom & Jerry' },
          { payeeNote: "l'épicerie" },
          { payerMessage: '<b>' },
        ])
          expect(await post(refused), JSON.stringify(refused)).toBe(400);
        expect(await post({ payerMessage: 'x'.repeat(160) })).toBe(202);
      }
    } finally {
      await sb.close();
    }
  });
});
