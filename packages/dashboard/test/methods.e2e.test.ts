import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type DashboardRun, expectAccessible, type Page, type RunningServer, signInDashboard, startDashboardRun } from './support.ts';

/**
 * Settings → Payment methods in Debian's Chromium against a real server: the owner sees MTN MoMo
 * and cards offered by default in test mode, unticks MTN MoMo, cards and the wallet (the API's
 * settings follow), goes back to the default, and moves the merchant to Senegal,
 * where the currency becomes XOF and MTN MoMo no longer serves the country. A provider whose
 * recent calls fail is marked as not answering.
 */
let run: DashboardRun;
let server: RunningServer;
let page: Page;

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'dashboard.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  run = await startDashboardRun();
  ({ server, page } = run);
});

afterAll(() => run?.stop());

const settings = async () =>
  (await apiCall(server.url, 'GET', '/payment-methods/settings', server.merchant.test)).body as {
    wallet: boolean;
    providersDefault: boolean;
    orderDefault: boolean;
    order: string[];
    country: string;
    currency: string;
    providers: { provider: string; offered: boolean; enabled: boolean }[];
  };
const row = (name: string) => page.getByRole('row').filter({ hasText: name });

describe('Settings → Payment methods', () => {
  it('shows what test mode offers by default', async () => {
    await signInDashboard(page, server);
    await page.getByRole('link', { name: 'Payment methods' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payment methods' }).waitFor();
    await expect.poll(() => row('MTN MoMo').textContent()).toContain('Offered');
    expect(await page.getByLabel('Caisse wallet').isChecked()).toBe(true);
    // Card, where a card route serves the country (CinetPay's sandbox in Cameroon): on by default.
    expect(await page.getByLabel('Card (Visa / Mastercard)').isChecked()).toBe(true);
    expect(await page.getByText('Default: every configured provider').count()).toBe(1);
    await expectAccessible(page, run.errors, 'methods-default');
  });

  it('the owner unticks MTN MoMo, cards and the wallet; the API follows', async () => {
    await row('MTN MoMo').getByRole('checkbox').uncheck();
    await page.getByLabel('Caisse wallet').uncheck();
    await page.getByLabel('Card (Visa / Mastercard)').uncheck();
    await page.getByRole('button', { name: 'Save payment methods' }).click();
    await page.getByText('Payment methods saved.').waitFor();
    await expect.poll(() => row('MTN MoMo').textContent()).toContain('Not chosen');
    const now = await settings();
    expect(now.wallet).toBe(false);
    expect(now.providersDefault).toBe(false);
    expect(now.providers.find((p) => p.provider === 'mtn_momo')?.offered).toBe(false);
    expect(now.providers.find((p) => p.provider === 'card')).toMatchObject({ enabled: false, offered: false });
    expect(now.providers.find((p) => p.provider === 'orange_money')?.offered).toBe(true);
    expect(await page.getByLabel('Card (Visa / Mastercard)').isChecked()).toBe(false);

    await page.getByRole('button', { name: 'Back to the default' }).click();
    await page.getByRole('button', { name: 'Save payment methods' }).click();
    await expect.poll(async () => (await settings()).providersDefault).toBe(true);
    await expect.poll(() => row('MTN MoMo').textContent()).toContain('Offered');
    expect(await page.getByLabel('Card (Visa / Mastercard)').isChecked()).toBe(true);
  });

  it('moving to Senegal switches the currency to XOF and leaves MTN MoMo out', async () => {
    await page.getByRole('combobox', { name: 'Where you sell' }).selectOption('SN');
    await page.getByRole('button', { name: 'Save country' }).click();
    await page.getByText('Country saved.').waitFor();
    await expect.poll(() => page.getByText('(XOF)').count()).toBeGreaterThan(0);
    await expect.poll(() => row('MTN MoMo').textContent()).toContain('Not in your country');
    // Free Money, which only aggregators reach, is listed and offered there (decision 0084).
    await expect.poll(() => row('Free Money').textContent()).toContain('Offered');
    const now = await settings();
    expect(now.country).toBe('SN');
    expect(now.currency).toBe('XOF');
    await expectAccessible(page, run.errors, 'methods-senegal');
    expect(run.errors).toEqual([]);
  });

  it("lists Senegal's providers Wave first, and the owner moves Orange Money up (issue 58)", async () => {
    const names = async () => (await page.getByRole('row').allTextContents()).slice(1).map((t) => /MTN MoMo|Orange Money|Wave/.exec(t)?.[0]);
    await expect.poll(async () => (await names()).slice(0, 2)).toEqual(['Wave', 'Orange Money']);
    await page.getByRole('button', { name: 'Move Orange Money up' }).click();
    expect((await names()).slice(0, 2)).toEqual(['Orange Money', 'Wave']);
    await page.getByRole('button', { name: 'Save payment methods' }).click();
    await expect.poll(async () => (await settings()).order.slice(0, 2)).toEqual(['orange_money', 'wave']);
    expect((await settings()).orderDefault).toBe(false);
    await page.getByRole('button', { name: 'Back to the default' }).click();
    await page.getByRole('button', { name: 'Save payment methods' }).click();
    await expect.poll(async () => (await settings()).orderDefault).toBe(true);
    expect(run.errors).toEqual([]);
  });

  it('a provider that is not answering is marked so (its health, played by the network layer)', async () => {
    // The server's answer with Wave unavailable, as after a run of timeouts.
    await page.route('**/test/payment-methods/settings', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { providers: { provider: string; available: boolean }[] };
      await route.fulfill({ response, json: { ...body, providers: body.providers.map((p) => (p.provider === 'wave' ? { ...p, available: false } : p)) } });
    });
    await page.reload();
    await expect.poll(() => row('Wave').textContent()).toContain('Offered, not answering at the moment');
    expect(await row('Orange Money').textContent()).toContain('Offered');
    expect(await row('Orange Money').textContent()).not.toContain('not answering');
    await expectAccessible(page, run.errors, 'methods-unavailable');
    await page.unrouteAll({ behavior: 'wait' });
  });
});
