import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type DashboardRun, DESKTOP, expectAccessible, payAsCustomer, signInDashboard, startDashboardRun } from './support.ts';

/**
 * The dashboard's cache, in Debian's Chromium against a real server: a page the user goes back to
 * shows at once what it last loaded, and a change made on another page (a refund) has already
 * refetched it, so it never shows the old status, even while the network is slow.
 */
let run: DashboardRun;

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'dashboard.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  run = await startDashboardRun(DESKTOP);
});

afterAll(() => run?.stop());

describe('cached pages', () => {
  it('after a refund on the payment page, Payments shows the new status at once, before its own request answers', async () => {
    const { server, page, errors } = run;
    const customer = { phoneNumber: '+237650004777', password: 'client-password-7' };
    expect((await apiCall(server.url, 'POST', '/test/users', server.merchant.test, { ...customer, balance: '20000' })).status).toBe(201);
    const intent = await apiCall(server.url, 'POST', '/gateway', server.merchant.test, { amount: '5000', currency: 'XAF', description: 'Panier 9' });
    const id = String(intent.body.id);
    await payAsCustomer(server, customer, id);

    await signInDashboard(page, server);
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    const row = page.getByRole('row', { name: new RegExp(id) });
    await expect.poll(() => row.textContent()).toMatch(/succeeded/i);

    // In the page, not a new document: the cache lives as long as the app.
    await row.getByRole('link', { name: id }).click();
    await page.getByRole('heading', { level: 1, name: /5,000/ }).waitFor();
    // An amount XAF cannot hold is refused before the confirmation, which would name another.
    await page.getByLabel('Amount to refund (XAF)').fill('100.5');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('no decimals');
    expect(await page.getByRole('button', { name: /^Refund .* now$/ }).count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('refund-amount');
    await page.getByLabel('Amount to refund (XAF)').fill('1000');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByRole('button', { name: /^Refund .*1,000 now$/ }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Refund made');

    // From now on the list's requests wait: what shows comes from the cache.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    const list = /\/dashboard\/api\/test\/payments\?/;
    await page.route(list, async (route) => {
      asked += 1;
      await released;
      await route.continue();
    });
    await page.getByRole('link', { name: '← All payments' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await expect.poll(() => row.textContent()).toMatch(/partially refunded/i);
    expect(await page.getByText('Loading payments…').count()).toBe(0);
    // The page did ask again (the answer is still on its way): the status came from the cache. The
    // request reaches the route a moment after the page shows the cache: on a busy machine, later.
    await expect.poll(() => asked).toBe(1);

    const answered = page.waitForResponse(list);
    release();
    await answered;
    await page.unrouteAll({ behavior: 'wait' });
    await expectAccessible(page, errors, 'cache-refunded-list');
  });

  it('"Load more" appends the next page, and going back to Payments shows both pages from the cache', async () => {
    const { server, page, errors } = run;
    // 20 more payments: with the refunded one, 21, one more than a page.
    for (let i = 0; i < 20; i += 1) {
      expect(
        (await apiCall(server.url, 'POST', '/gateway', server.merchant.test, { amount: String(100 + i), currency: 'XAF', description: `Order ${i}` })).status,
      ).toBe(201);
    }
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    const table = page.getByRole('table', { name: 'Payments, newest first' });
    // The cached first page shows first, then the refetched one: 20 rows and a header.
    await expect.poll(() => table.getByRole('row').count()).toBe(21);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(22);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    expect(await table.getByRole('row').count()).toBe(22);
    await expectAccessible(page, errors, 'cache-two-pages');
  });
});
