import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type DashboardRun, DESKTOP, expectAccessible, signInDashboard, startDashboardRun } from './support.ts';

/**
 * A payment paid by mobile money, in the dashboard (Debian's Chromium, a real server): its
 * method with the masked number, fee and net, each attempt (provider, masked number, provider
 * reference, how it ended) and its refunds with their state. The page and the intent are the
 * real server's; the direct-payment fields of contract §12 are added to the dashboard API's
 * answer by the browser's network layer until the server's charge path serves them.
 */
let run: DashboardRun;

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'dashboard.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  run = await startDashboardRun(DESKTOP);
});

afterAll(() => run?.stop());

describe('a payment paid by mobile money', () => {
  it('shows its method, fee and net, its attempts with the provider reference, and its refunds with their state', async () => {
    const { server, page, errors } = run;
    const created = await apiCall(server.url, 'POST', '/gateway', server.merchant.test, { amount: '5000', currency: 'XAF', description: 'Commande 77' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const at = new Date().toISOString();
    await page.route(`**/dashboard/api/test/payments/${id}`, async (route) => {
      const response = await route.fetch();
      const detail = await response.json();
      const payment = {
        ...detail.payment,
        status: 'PARTIALLY_REFUNDED',
        amountRefunded: '1000',
        fee: '75',
        net: '4925',
        paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: '+237 6•• •• •1 05' },
        attempts: [
          { id: 'att_1', provider: 'mtn_momo', status: 'FAILED', failureCode: 'approval_rejected', phoneNumber: '+237 6•• •• •1 05', providerReference: null, createdAt: at },
          { id: 'att_2', provider: 'mtn_momo', status: 'SUCCEEDED', phoneNumber: '+237 6•• •• •0 00', providerReference: '1234567890', createdAt: at },
        ],
      };
      const refunds = [
        { id: 're_1', amount: '1000', currency: 'XAF', status: 'PENDING', createdAt: at },
        { id: 're_2', amount: '500', currency: 'XAF', status: 'FAILED', failureCode: 'payee_not_found', createdAt: at },
      ];
      await route.fulfill({ response, json: { ...detail, payment, refunds } });
    });

    await signInDashboard(page, server);
    await page.goto(`${server.url}/dashboard/test/payments/${id}`);
    await page.getByRole('heading', { level: 2, name: 'Attempts' }).waitFor();
    const summary = await page.locator('dl.summary').textContent();
    expect(summary).toContain('MTN MoMo +237 6•• •• •1 05');
    expect(summary).toMatch(/FeeFCFA.75/);
    expect(summary).toMatch(/NetFCFA.4,925/);

    const attempts = page.getByRole('region', { name: 'Attempts' });
    expect(await attempts.getByRole('row').count()).toBe(3);
    expect(await attempts.getByRole('row', { name: /att_1/ }).textContent()).toMatch(/failed.*approval_rejected/);
    expect(await attempts.getByRole('row', { name: /att_2/ }).textContent()).toContain('1234567890');

    const refunds = page.getByRole('region', { name: 'Refunds' });
    expect(await refunds.getByRole('row', { name: /re_1/ }).textContent()).toContain('pending');
    expect(await refunds.getByRole('row', { name: /re_2/ }).textContent()).toMatch(/failed.*payee_not_found/);
    await expectAccessible(page, errors, 'payment-attempts');
    await page.unrouteAll({ behavior: 'wait' });
  });
});
