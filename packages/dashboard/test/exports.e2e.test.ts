import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type Browser,
  type BrowserContext,
  DESKTOP,
  downloadedText,
  expectAccessible,
  launchChromium,
  type Page,
  type RunningServer,
  startReceiver,
  startServer,
  watchConsole,
} from './support.ts';

/**
 * Issue 22, first part, in Debian's Chromium against a real server process: the Payments page
 * downloads what its filters select as CSV (parsed here with csv-parse: metadata as JSON, a
 * formula defused), and a webhook endpoint's page shows its success rate of the last 24 hours
 * once the server's dispatcher delivered to a local receiver, and the header's search box finds a
 * payment by its order reference and by its amount. Pages checked with axe-core.
 */
let server: RunningServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  [server, receiver, browser] = await Promise.all([startServer(), startReceiver(), launchChromium()]);
  context = await browser.newContext({ ...DESKTOP, acceptDownloads: true, locale: 'en' });
  page = await context.newPage();
  watchConsole(page, errors);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await receiver?.close();
  await server?.stop();
});

describe('payments export, webhook success rate and search', () => {
  it("downloads the filtered payments as CSV, shows an endpoint's success rate and finds a payment from the header", async () => {
    const keys = server.merchant.test;
    const endpoint = await apiCall(server.url, 'POST', '/webhook-endpoints', keys, { url: receiver.url, enabledEvents: ['payment.canceled'] });
    expect(endpoint.status).toBe(201);
    const kept = await apiCall(server.url, 'POST', '/gateway', keys, {
      amount: '5000',
      currency: 'XAF',
      description: '=SUM(A1:A9)',
      metadata: { order: 'A-1001' },
    });
    const canceled = await apiCall(server.url, 'POST', '/gateway', keys, {
      amount: '2000',
      currency: 'XAF',
      description: 'Canceled order',
      metadata: { order: 'A-1002' },
    });
    expect((await apiCall(server.url, 'POST', `/gateway/${String(canceled.body.id)}/cancel`, keys, {})).status).toBe(200);

    await page.goto(`${server.url}/dashboard`);
    await page.getByLabel('E-mail address').fill(server.merchant.dashboard.email);
    await page.getByLabel('Password').fill(server.merchant.dashboard.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();

    const download = async () => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
      return { name: file.suggestedFilename(), rows: parse(await downloadedText(file), { columns: true }) as Record<string, string>[] };
    };
    const all = await download();
    expect(all.name).toMatch(/^caisse-payments-test-until-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(all.rows.map((r) => r.id)).toEqual([canceled.body.id, kept.body.id]);
    expect(all.rows[1]).toMatchObject({ amount: '5000', currency: 'XAF', status: 'PENDING', description: "'=SUM(A1:A9)" });
    expect(JSON.parse(all.rows[1]?.metadata ?? '')).toEqual({ order: 'A-1001' });

    await page.getByLabel('Status').selectOption('CANCELED');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    const filtered = await download();
    expect(filtered.rows.map((r) => [r.id, r.status, r.description])).toEqual([[canceled.body.id, 'CANCELED', 'Canceled order']]);
    await expectAccessible(page, errors, 'x01-payments-export');

    // The server's dispatcher delivers payment.canceled to the receiver: 1 of 1 in 24 hours.
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    const rate = page.locator('dd', { hasText: /succeeded|No delivery/ });
    await expect.poll(async () => (await rate.textContent()) ?? '', { timeout: 20_000 }).toBe('100%: 1 delivery of 1 succeeded.');
    await expectAccessible(page, errors, 'x02-endpoint-success-rate');

    // The header's search box finds a payment by its order reference, then by its amount.
    const box = page.getByRole('searchbox', { name: 'Search payments' });
    await box.fill('A-1001');
    await box.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
    const results = page.getByRole('region', { name: 'Payments' }).getByRole('link');
    await expect.poll(() => results.allTextContents()).toEqual([kept.body.id]);
    expect(new URL(page.url()).search).toBe('?q=A-1001');
    await expectAccessible(page, errors, 'x03-search');
    await box.fill('2000');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => results.allTextContents()).toEqual([canceled.body.id]);
    await box.fill('no-such-order');
    await box.press('Enter');
    await page.getByText('No payment matches no-such-order.').waitFor();
  });
});
