import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessage, newUser, PASSWORD, problem } from './flow.support.ts';
import { call, createMerchant, createTestContext, pk, type TestContext, type TestMerchant } from './harness.ts';
import { operatorConsole } from './operators.support.ts';

/**
 * The operator console's customer page (issue 34, support): lookup by phone number with the
 * wallet and limits, lock (sign-in and tokens refused with 403 `customer_locked` / 401) and
 * unlock, each in the operator audit log.
 */
let ctx: TestContext;
let shop: TestMerchant;
beforeAll(async () => {
  ctx = await createTestContext();
  shop = await createMerchant(ctx, 'Customers Shop');
});
afterAll(() => ctx.close());

describe('customers (support)', () => {
  it('looks a customer up, locks them out of sign-in, unlocks them, and audits each', async () => {
    const ops = operatorConsole(ctx);
    const support = await ops.operator('support');
    const admin = await ops.operator('admin');
    const limitsSet = await ops.send('PUT', '/operator/api/customer-limits', admin, { mode: 'test', tier: 0, currency: 'XAF', limits: { payment: '100000' } });
    expect(limitsSet.statusCode, limitsSet.body).toBe(200);
    const user = await newUser(ctx, shop, { balance: '5000' });
    const signIn = () => call(ctx.app, 'POST', '/auth/web', pk(shop), { phoneNumber: user.phoneNumber, password: PASSWORD });

    const found = await ops.send('GET', `/operator/api/customers?phone=${encodeURIComponent(user.phoneNumber)}`, support);
    expect(found.statusCode, found.body).toBe(200);
    const [customer] = found.json().data as Record<string, unknown>[];
    expect(customer).toMatchObject({ id: user.id, mode: 'test', phoneNumber: user.phoneNumber, locked: false });
    expect(customer?.balances).toEqual(expect.arrayContaining([expect.objectContaining({ currency: 'XAF' })]));
    expect((customer?.movements as unknown[]).length).toBeGreaterThan(0);
    expect(customer?.limits).toEqual([expect.objectContaining({ tier: 0, currency: 'XAF', livemode: false })]);

    // A finance operator may not look customers up.
    problem(
      await ops.send('GET', `/operator/api/customers?phone=${encodeURIComponent(user.phoneNumber)}`, await ops.operator('finance')),
      403,
      'permission_denied',
    );

    const locked = await ops.send('POST', `/operator/api/customers/${user.id}/lock`, support, { reason: 'reported stolen phone' });
    expect(locked.json(), locked.body).toMatchObject({ id: user.id, locked: true, lockedReason: 'reported stolen phone' });
    problem(await signIn(), 403, 'customer_locked');
    // The token issued before stops working.
    expect((await call(ctx.app, 'GET', '/wallet', user.creds)).statusCode).toBe(401);

    const unlocked = await ops.send('POST', `/operator/api/customers/${user.id}/unlock`, support, { reason: 'owner confirmed' });
    expect(unlocked.json(), unlocked.body).toMatchObject({ locked: false, lockedReason: null });
    expect((await signIn()).statusCode).toBe(200);

    problem(await ops.send('POST', '/operator/api/customers/usr_nope/lock', support, { reason: 'x' }), 404, 'not_found');

    const audit = await ops.send('GET', '/operator/api/audit', admin);
    const entries = (audit.json().data as { action: string; targetId: string | null; actorEmail?: string }[]).filter((e) => e.action.startsWith('customer.'));
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(['customer.looked_up', 'customer.locked', 'customer.unlocked']));
    expect(entries.find((e) => e.action === 'customer.locked')).toMatchObject({ targetId: user.id });
  });

  it('keeps only a masked number in the audit log, and answers support nothing secret', async () => {
    const ops = operatorConsole(ctx);
    const support = await ops.operator('support');
    const admin = await ops.operator('admin');
    const user = await newUser(ctx, shop, { balance: '2500' });

    const found = await ops.send('GET', `/operator/api/customers?phone=${encodeURIComponent(user.phoneNumber)}`, support);
    expect(found.statusCode, found.body).toBe(200);
    // No password hash, token version or code: the answer's fields are named one by one.
    expect(found.body).not.toMatch(/password|token|argon2|code_hash/i);
    const [customer] = found.json().data as { movements: Record<string, unknown>[] }[];
    expect(Object.keys(customer?.movements[0] ?? {}).sort()).toEqual(['amount', 'createdAt', 'currency', 'kind', 'merchantId', 'reference', 'transferId']);

    const audit = await ops.send('GET', '/operator/api/audit', admin);
    expect(audit.statusCode, audit.body).toBe(200);
    const national = user.phoneNumber.slice(4);
    // The whole log, every field: the number appears nowhere, nor its subscriber part.
    expect(audit.body).not.toContain(user.phoneNumber);
    expect(audit.body).not.toContain(national);
    const lookup = (audit.json().data as { action: string; targetId: string; after: { found: string[] } }[]).find(
      (e) => e.action === 'customer.looked_up' && e.after.found.includes(user.id),
    );
    expect(lookup?.targetId).toBe(`+237${'*'.repeat(national.length - 2)}${national.slice(-2)}`);
  });

  it('sends the password reset code by SMS, which the customer confirms; audited, refused to finance', async () => {
    const ops = operatorConsole(ctx);
    const support = await ops.operator('support');
    const admin = await ops.operator('admin');
    const user = await newUser(ctx, shop);

    const sent = await ops.send('POST', `/operator/api/customers/${user.id}/password-reset`, support, {});
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ object: 'customer_password_reset', id: user.id, channel: 'sms', expiresAt: expect.any(String) });

    // The same code as POST /auth/password-reset sends: it sets the new password.
    const { code, to } = await lastMessage(ctx, shop, user.id);
    expect(to).toBe(user.phoneNumber);
    const confirm = await call(ctx.app, 'POST', '/auth/password-reset/confirm', pk(shop), {
      phoneNumber: user.phoneNumber,
      code,
      newPassword: 'kribi-beach-2026',
    });
    expect(confirm.statusCode, confirm.body).toBe(204);
    expect((await call(ctx.app, 'POST', '/auth/web', pk(shop), { phoneNumber: user.phoneNumber, password: 'kribi-beach-2026' })).statusCode).toBe(200);

    problem(await ops.send('POST', `/operator/api/customers/${user.id}/password-reset`, await ops.operator('finance'), {}), 403, 'permission_denied');
    problem(await ops.send('POST', '/operator/api/customers/usr_nope/password-reset', support, {}), 404, 'not_found');

    const audit = (await ops.send('GET', `/operator/api/audit?targetId=${user.id}`, admin)).json().data as { action: string; actor: { email: string } }[];
    expect(audit).toEqual([expect.objectContaining({ action: 'customer.password_reset_sent', actor: expect.objectContaining({ email: support.email }) })]);
  });
});
