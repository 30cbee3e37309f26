import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize, charge, createIntent, newUser, problem } from './flow.support.ts';
import { createMerchant, createTestContext, type TestContext, type TestMerchant } from './harness.ts';
import { operatorConsole } from './operators.support.ts';

/**
 * The operator console's fee revenue report (issue 34): what the ledger's fee revenue accounts
 * received per UTC day and merchant, as JSON (minor units as strings, as the money totals) and as
 * a CSV download with the same filters.
 */
let ctx: TestContext;
let north: TestMerchant;
let south: TestMerchant;
beforeAll(async () => {
  ctx = await createTestContext({ env: { CAISSE_FEE_PERCENT: '1.5' } });
  north = await createMerchant(ctx, 'Fees North');
  south = await createMerchant(ctx, 'Fees South');
});
afterAll(() => ctx?.close());

async function pay(m: TestMerchant, amount: string) {
  const user = await newUser(ctx, m, { balance: '100000' });
  const intent = await createIntent(ctx, m, { amount });
  const res = await charge(ctx, user, intent.id, await authorize(ctx, m, user, intent.id));
  expect(res.statusCode, res.body).toBe(200);
}

describe('fee revenue (money:read)', () => {
  it('sums the fees per day and merchant, as JSON and as CSV', async () => {
    const ops = operatorConsole(ctx);
    const finance = await ops.operator('finance');
    const day = ctx.clock.now().toISOString().slice(0, 10);
    await pay(north, '5000');
    await pay(north, '2000');
    await pay(south, '10000');

    const res = await ops.send('GET', '/operator/api/money/fees?mode=test&currency=XAF', finance);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { object: string; data: Record<string, unknown>[]; totals: Record<string, unknown>[] };
    expect(body.object).toBe('operator_fees');
    expect(body.data).toEqual(
      expect.arrayContaining([
        { day, mode: 'test', currency: 'XAF', merchantId: north.merchantId, amount: '105', minor: '105', transfers: 2 },
        { day, mode: 'test', currency: 'XAF', merchantId: south.merchantId, amount: '150', minor: '150', transfers: 1 },
      ]),
    );
    expect(body.totals).toEqual([{ mode: 'test', currency: 'XAF', amount: '255', minor: '255' }]);

    // Another mode or a period before the payments: nothing.
    expect((await ops.send('GET', '/operator/api/money/fees?mode=live', finance)).json().data).toEqual([]);
    expect((await ops.send('GET', '/operator/api/money/fees?from=2020-01-01&to=2020-02-01', finance)).json().data).toEqual([]);

    const csv = await ops.send('GET', '/operator/api/money/fees.csv?mode=test&currency=XAF', finance);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="caisse-fees-test-start-now\.csv"$/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('day,mode,currency,merchant_id,amount,amount_minor,transfers');
    expect(lines).toContain(`${day},test,XAF,${north.merchantId},105,105,2`);
    expect(lines).toContain(`${day},test,XAF,${south.merchantId},150,150,1`);
  });

  it('refuses a bad period with a problem, and a role without money:read', async () => {
    const ops = operatorConsole(ctx);
    const finance = await ops.operator('finance');
    problem(await ops.send('GET', '/operator/api/money/fees?from=2026-02-01&to=2026-01-01', finance), 400, 'validation_error');
    problem(await ops.send('GET', '/operator/api/money/fees.csv?from=2020-01-01&to=2026-01-01', finance), 400, 'validation_error');
    problem(await ops.send('GET', '/operator/api/money/fees?from=yesterday', finance), 400, 'validation_error');
    problem(await ops.send('GET', '/operator/api/money/fees', await ops.operator('support')), 403, 'permission_denied');
  });
});
