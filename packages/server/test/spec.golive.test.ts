/**
 * Provider accounts, going live, routes and methods as operators and merchants drive them: the
 * letter of docs/spec/provider-accounts.md and docs/spec/routes.md where nothing else checks it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/admin.ts';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

type AddInput = Parameters<typeof runAdminCommand<'providerAccounts.add'>>[2];
const add = (body: AddInput) => runAdminCommand(ctx.services, 'providerAccounts.add', body);

describe('provider accounts', () => {
  it("CinetPay's site_id may come with its credentials, as its back office hands them out: kept as a setting, never sealed", async () => {
    const credentials = { apiKey: 'cinetpay-probe-apikey-Hq47Zt', siteId: '5870012', secretKey: 'cinetpay-probe-secret-Lw28Vn' };
    const account = (await add({
      connector: 'cinetpay',
      mode: 'test',
      countries: ['CI'],
      settings: { callbackUrl: 'https://pay.example.com/callbacks/cinetpay' },
      credentials,
    })) as { settings: Record<string, unknown>; credentials: Record<string, string>; capabilities: string[] };
    expect(account.settings).toMatchObject({ siteId: '5870012' });
    expect(account.credentials).toEqual({ apiKey: '…47Zt', secretKey: '…28Vn' });
    // A number, as JSON may carry it, is the same site_id.
    const numeric = (await add({
      connector: 'cinetpay',
      mode: 'test',
      countries: ['SN'],
      settings: { callbackUrl: 'https://pay.example.com/callbacks/cinetpay' },
      credentials: { ...credentials, siteId: 5870012 },
    })) as { settings: Record<string, unknown> };
    expect(numeric.settings).toMatchObject({ siteId: '5870012' });
    // Two different site_ids: refused, naming the setting.
    await expect(
      add({
        connector: 'cinetpay',
        mode: 'test',
        countries: ['CI'],
        settings: { siteId: '111', callbackUrl: 'https://pay.example.com/callbacks/cinetpay' },
        credentials,
      }),
    ).rejects.toMatchObject({ code: 'provider_settings_invalid', message: expect.stringContaining('siteId is given twice') });
  });
});
