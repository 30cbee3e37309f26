import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type Browser,
  DESKTOP,
  expectAccessible,
  freePort,
  launchChromium,
  type Page,
  payAsCustomer,
  type RunningServer,
  startServer,
  watchConsole,
} from './support.ts';

/**
 * A newcomer's dashboard (issue 36) in Debian's Chromium, in fr-CM and in en: Home as a grid with
 * the balance, what needs attention (a webhook endpoint nobody listens on) and the last payments;
 * the Webhooks list flags that endpoint as failing with its error; Balance with its figures of one
 * size and date fields written as the page's language writes dates; a payment opened by a click
 * anywhere on its row, with its fee and net. A screenshot and axe-core on each page.
 */
let server: RunningServer;
let browser: Browser;
let deadUrl: string;
let paymentId: string;

const LANGUAGES = [
  {
    locale: 'fr-CM',
    email: 'Adresse e-mail',
    password: 'Mot de passe',
    signIn: 'Se connecter',
    home: 'Accueil',
    balance: 'Solde',
    payments: 'Paiements',
    attention: 'À surveiller',
    lastPayments: 'Derniers paiements',
    failing: 'en échec',
    fee: 'Frais',
    datePattern: 'jj/mm/aaaa',
    typed: '26/11/2026',
  },
  {
    locale: 'en',
    email: 'E-mail address',
    password: 'Password',
    signIn: 'Sign in',
    home: 'Home',
    balance: 'Balance',
    payments: 'Payments',
    attention: 'Needs attention',
    lastPayments: 'Last payments',
    failing: 'failing',
    fee: 'Fee',
    datePattern: 'mm/dd/yyyy',
    typed: '11/26/2026',
  },
];

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'dashboard.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('a paid payment, and a webhook endpoint nobody listens on', async () => {
  const keys = server.merchant.test;
  // An endpoint on a port nobody listens on: every delivery to it fails (ECONNREFUSED).
  deadUrl = `http://127.0.0.1:${await freePort()}/webhooks`;
  expect((await apiCall(server.url, 'POST', '/webhook-endpoints', keys, { url: deadUrl })).status).toBe(201);
  const customer = { phoneNumber: '+237650003601', password: 'customer-pw-3601' };
  expect((await apiCall(server.url, 'POST', '/test/users', keys, { ...customer, balance: '20000' })).status).toBe(201);
  const intent = await apiCall(server.url, 'POST', '/gateway', keys, { amount: '5000', currency: 'XAF', description: 'Order FH-1' });
  paymentId = String(intent.body.id);
  await payAsCustomer(server, customer, paymentId, 'paid');
}, 120_000);

describe.each(LANGUAGES)('the first hour in $locale', (L) => {
  let page: Page;
  const errors: string[] = [];
  const accessible = (name: string) => expectAccessible(page, errors, `first-hour-${L.locale}-${name}`);

  beforeAll(async () => {
    const context = await browser.newContext({ ...DESKTOP, locale: L.locale });
    page = await context.newPage();
    watchConsole(page, errors);
  });

  it('signs in: "forgot password" reads as a link, not a filled button', async () => {
    await page.goto(`${server.url}/dashboard`);
    const forgot = page.locator('button.link-button');
    expect(await forgot.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
    await page.getByLabel(L.email).fill(server.merchant.dashboard.email);
    await page.getByLabel(L.password, { exact: true }).fill(server.merchant.dashboard.password);
    await page.getByRole('button', { name: L.signIn }).click();
    await page.getByRole('heading', { level: 1, name: L.home }).waitFor();
  });

  it('Home: the balance, the failing endpoint and the last payment, in a grid above the charts', async () => {
    const attention = page.getByRole('region', { name: L.attention });
    await expect.poll(() => attention.textContent(), { timeout: 60_000, interval: 1000 }).toContain(deadUrl);
    expect(await attention.textContent()).toMatch(/ECONNREFUSED|HTTP/);
    const balance = page.getByRole('region', { name: L.balance, exact: true });
    await expect.poll(() => balance.locator('dd.figure').count()).toBe(2);
    const last = page.getByRole('region', { name: L.lastPayments });
    await expect.poll(() => last.getByRole('link', { name: paymentId }).count()).toBe(1);
    // Compact: the grid sits above the charts, side by side with the first screen's width.
    const [balanceBox, attentionBox] = await Promise.all([balance.boundingBox(), attention.boundingBox()]);
    expect(balanceBox?.y).toBe(attentionBox?.y);
    // The search placeholder fits its box.
    const cut = await page.locator('.search-box input').evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const c = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
      c.font = `${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return c.measureText(input.placeholder).width > room;
    });
    expect(cut).toBe(false);
    await accessible('home');
  });

  it('Webhooks: the endpoint shows as failing, with its last error', async () => {
    await page.goto(`${server.url}/dashboard/test/webhooks`);
    const row = page.getByRole('row').filter({ hasText: deadUrl });
    await expect.poll(() => row.textContent()).toContain(L.failing);
    expect(await row.textContent()).toMatch(/ECONNREFUSED|HTTP/);
  });

  it("Balance: amounts of one size; dates typed as the page's language writes them", async () => {
    await page.getByRole('navigation').getByRole('link', { name: L.balance }).click();
    await page.getByRole('heading', { level: 1, name: L.balance }).waitFor();
    // The heading comes before the balances load: the table's amounts are awaited, not assumed.
    await page.locator('table.balance-table td.num').first().waitFor();
    const sizes = await page.locator('table.balance-table td.num').evaluateAll((cells) => cells.map((c) => getComputedStyle(c).fontSize));
    expect(sizes.length).toBeGreaterThan(0);
    expect(new Set(sizes).size).toBe(1);
    const from = page.locator('#st-from');
    expect(await from.getAttribute('type')).toBe('text');
    expect(await from.getAttribute('placeholder')).toBe(L.datePattern);
    await from.fill(L.typed);
    expect(await from.getAttribute('aria-invalid')).toBe('false');
    await page.locator('#st-to').fill('31/02/2026');
    expect(await page.locator('#st-to').getAttribute('aria-invalid')).toBe('true');
    await page.locator('#st-to').fill('');
    await accessible('balance');
  });

  it('Payments: a click anywhere on the row opens the payment, with its fee and net', async () => {
    await page.getByRole('navigation').getByRole('link', { name: L.payments, exact: true }).click();
    // The description cell, not the id's link: the mouse where a person would click.
    const cell = page.getByRole('row').filter({ hasText: 'Order FH-1' }).getByRole('cell', { name: 'Order FH-1' });
    const box = await cell.boundingBox();
    await page.mouse.click((box?.x ?? 0) + 10, (box?.y ?? 0) + (box?.height ?? 0) / 2);
    await page.waitForURL(`**/dashboard/test/payments/${paymentId}`);
    const summary = page.locator('dl.summary');
    await expect.poll(() => summary.textContent()).toContain(L.fee);
    expect(await summary.textContent()).toContain('Net');
    await accessible('payment');
  });
});
