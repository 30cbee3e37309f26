import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type Browser,
  type BrowserContext,
  DESKTOP,
  expectAccessible,
  launchChromium,
  type Page,
  payAsCustomer,
  type RunningServer,
  startServer,
  watchConsole,
} from './support.ts';

/**
 * The dashboard's Home (issue 22) in Debian's Chromium against a real server: two customers pay
 * through the API and a third is declined; Home, the page after sign-in, shows the volume, the
 * successful payments and the success rate of today with a drawn chart per figure and its table,
 * switches to 7 days, and the header search finds a payment by its order reference. axe-core and
 * a screenshot on every page.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];
const paid: string[] = [];

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'dashboard.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
  context = await browser.newContext({ ...DESKTOP });
  page = await context.newPage();
  watchConsole(page, errors);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const accessible = (name: string) => expectAccessible(page, errors, name);
const figure = (key: string) => page.locator(`[data-figure="${key}"]`).textContent();

/** Pixels a canvas drew (not transparent): a chart with data draws its line or bars. */
const drawnPixels = (index: number) =>
  page.evaluate((i) => {
    const canvas = document.querySelectorAll<HTMLCanvasElement>('.overview-chart canvas')[i];
    const c = canvas?.getContext('2d');
    if (!canvas || !c) return 0;
    const data = c.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let p = 3; p < data.length; p += 4) if ((data[p] ?? 0) > 0) n++;
    return n;
  }, index);

describe('Home', () => {
  it('two payments and a declined attempt made through the API', async () => {
    const keys = server.merchant.test;
    const customers = [
      { phoneNumber: '+237650004401', password: 'customer-pw-4401', balance: '10000', amount: '5000', order: 'HOME-1001' },
      { phoneNumber: '+237650004402', password: 'customer-pw-4402', balance: '10000', amount: '2500', order: 'HOME-1002' },
      { phoneNumber: '+237650004403', password: 'customer-pw-4403', balance: '100', amount: '4000', order: 'HOME-1003' },
    ];
    for (const c of customers) {
      expect((await apiCall(server.url, 'POST', '/test/users', keys, { phoneNumber: c.phoneNumber, password: c.password, balance: c.balance })).status).toBe(
        201,
      );
      const intent = await apiCall(server.url, 'POST', '/gateway', keys, {
        amount: c.amount,
        currency: 'XAF',
        description: `Order ${c.order}`,
        metadata: { orderRef: c.order },
      });
      const declined = c.balance === '100';
      await payAsCustomer(server, { phoneNumber: c.phoneNumber, password: c.password }, String(intent.body.id), declined ? 'declined' : 'paid');
      if (!declined) paid.push(String(intent.body.id));
    }
  });

  it('is the page after sign-in: volume, payments, success rate and new customers of today, each with its chart', async () => {
    await page.goto(`${server.url}/dashboard`);
    await page.getByLabel('E-mail address').fill(server.merchant.dashboard.email);
    await page.getByLabel('Password').fill(server.merchant.dashboard.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    expect(page.url()).toBe(`${server.url}/dashboard/test/home`);
    // The first line of the navigation.
    expect(await page.getByRole('navigation', { name: /main/i }).getByRole('link').first().textContent()).toBe('Home');

    await expect.poll(() => figure('payments')).toBe('2');
    expect(await figure('volume')).toMatch(/FCFA\s?7,500/);
    expect(await figure('successRate')).toBe('66.7%');
    expect(await figure('newCustomers')).toBe('2');
    expect(await page.getByText('Previous period: 0').count()).toBeGreaterThan(0);

    // Four charts, each drawn on a canvas with its figures as text alternative and in a table.
    await expect.poll(() => page.locator('.overview-chart canvas').count()).toBe(4);
    const volumeChart = page.getByRole('img', { name: /^Volume: FCFA\s?7,500 in total/ });
    expect(Number(await volumeChart.getAttribute('data-points'))).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) expect(await drawnPixels(i)).toBeGreaterThan(100);
    await page.getByText('Show the figures of “Successful payments”').click();
    const hours = page.getByRole('table', { name: 'Successful payments, per period' });
    expect(await hours.getByRole('cell', { name: '2', exact: true }).count()).toBe(1);
    await accessible('home-01-today');
  });

  it('switches to 7 days: one bar per day, the same figures', async () => {
    await page.getByRole('button', { name: '7 days' }).click();
    await expect.poll(() => page.getByRole('img', { name: /over 7 points/ }).count()).toBe(4);
    expect(await figure('payments')).toBe('2');
    expect(await page.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
    await accessible('home-02-7-days');
  });

  it('the header search finds a payment by its order reference (a metadata value)', async () => {
    await page.getByLabel('Search payments').fill('HOME-1002');
    await page.getByLabel('Search payments').press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
    await expect.poll(() => page.getByRole('row', { name: /Order HOME-1002/ }).count()).toBe(1);
    expect(await page.getByRole('row', { name: /Order HOME-1001/ }).count()).toBe(0);
    await accessible('home-03-search-order-reference');
  });
});
