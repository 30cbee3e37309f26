/**
 * Customer limits (issue 34, docs/decisions/0042-customer-limits.md): an operator sets tier 0's
 * caps per mode and currency; a top-up over the balance, day or month cap, or one wallet payment
 * over the payment cap, answers 403 `customer_limit_exceeded` naming the limit and its value, and
 * moves no money. Top-ups go to the MoMo sandbox over real HTTP. Time is a ManualClock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, MINUTE } from '../src/platform/clock.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser, problem, refreshToken, type TestUser, walletMinor } from './flow.support.ts';
import { call, type TestContext, type TestMerchant } from './harness.ts';
import { consoleWithSandbox, type operatorConsole } from './operators.support.ts';

let ctx: TestContext;
let ops: ReturnType<typeof operatorConsole>;
let shop: TestMerchant;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ ctx, ops, shop, close } = await consoleWithSandbox('Limited Shop'));
});
afterAll(() => close?.());

const topup = (user: TestUser, amount: string) =>
  call(ctx.app, 'POST', '/wallet/topups', user.creds, { amount, currency: 'XAF', provider: 'mtn_momo', phoneNumber: '+237670000001' });

describe('customer limits', () => {
  it('an operator sets the caps; the audit log keeps them; a role without the permission is refused naming it', async () => {
    const support = await ops.operator('support');
    const compliance = await ops.operator('compliance');
    const body = { mode: 'test', tier: 0, currency: 'XAF', limits: { balance: '20000', topup_day: '8000', topup_month: '12000', payment: '3000' } };
    expect(problem(await ops.send('PUT', '/operator/api/customer-limits', support, body), 403, 'permission_denied')).toMatchObject({
      permission: 'customers:limits',
    });
    problem(await ops.send('PUT', '/operator/api/customer-limits', compliance, { ...body, limits: { payment: '1.5' } }), 400, 'amount_invalid');
    const set = await ops.send('PUT', '/operator/api/customer-limits', compliance, body);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ tier: 0, currency: 'XAF', livemode: false, limits: body.limits });
    expect((await ops.send('GET', '/operator/api/customer-limits', support)).json().data).toEqual([expect.objectContaining({ limits: body.limits })]);
    const audit = (await ops.send('GET', '/operator/api/audit?targetId=test:0:XAF', await ops.operator('admin'))).json();
    expect(audit.data[0]).toMatchObject({ action: 'customer_limits.set', actor: { email: compliance.email }, before: null, after: body.limits });
  });

  it('top-ups over the day, month or balance cap are refused with the limit named', async () => {
    const user = await newUser(ctx, shop);
    expect((await topup(user, '5000')).statusCode).toBe(202);
    const day = problem(await topup(user, '4000'), 403, 'customer_limit_exceeded');
    expect(day).toMatchObject({ limit: 'topup_day', value: '8000', currency: 'XAF', title: expect.any(String), type: expect.any(String) });
    expect((await topup(user, '3000')).statusCode).toBe(202);

    // The provider calls started so far finish first: the sandbox shares the clock, and a token
    // fetched before the jump would be refused as expired after it (a top-up FAILED, not counted).
    await ctx.services.topups.drain();
    ctx.clock.advance(DAY);
    await refreshToken(ctx, shop, user);
    expect(problem(await topup(user, '5000'), 403, 'customer_limit_exceeded')).toMatchObject({ limit: 'topup_month', value: '12000' });
    expect((await topup(user, '4000')).statusCode).toBe(202);
    expect(await ctx.deps.db.selectFrom('topups').select('id').where('user_id', '=', user.id).execute()).toHaveLength(3);

    const rich = await newUser(ctx, shop, { balance: '18000' });
    expect(problem(await topup(rich, '3000'), 403, 'customer_limit_exceeded')).toMatchObject({ limit: 'balance', value: '20000' });
    expect((await topup(rich, '2000')).statusCode).toBe(202);
    await ctx.services.topups.drain();
  });

  it('one wallet payment over the payment cap is refused and takes nothing', async () => {
    const user = await newUser(ctx, shop, { balance: '10000' });
    const big = await createIntent(ctx, shop, { amount: '3500' });
    const refused = problem(await charge(ctx, user, big.id, await authorize(ctx, shop, user, big.id)), 403, 'customer_limit_exceeded');
    expect(refused).toMatchObject({ limit: 'payment', value: '3000', currency: 'XAF' });
    expect(await walletMinor(ctx, user.id)).toBe(10000n);
    ctx.clock.advance(MINUTE);
    const small = await createIntent(ctx, shop, { amount: '3000' });
    expect((await charge(ctx, user, small.id, await authorize(ctx, shop, user, small.id))).statusCode).toBe(200);
    expect(await walletMinor(ctx, user.id)).toBe(7000n);
    await expectLedgerClean(ctx);
  });
});
