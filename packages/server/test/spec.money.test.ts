/**
 * The money texts statement by statement, over HTTP against every provider's sandbox: what a
 * payer, a customer and a merchant see of direct mobile-money payments, their limits and shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/modules/connectors/index.ts';
import { SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes } from './connectors.support.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser, problem } from './flow.support.ts';
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
    expect(await status(intent.id)).toBe('PROCESSING');
    await later();
    await expect.poll(() => status(intent.id), { interval: 20, timeout: 5000 }).toBe('PENDING');
    // The refusal spent nothing: the same authorization pays from the wallet now.
    const paid = await charge(ctx, user, intent.id, otpToken);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'SUCCEEDED' });
    await expectLedgerClean(ctx);
  });
});
