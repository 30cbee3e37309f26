import { existsSync } from 'node:fs';
import { join } from 'node:path';
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
  payAsCustomer,
  PHONE,
  type RunningServer,
  screenshot,
  seriousViolations,
  startServer,
  watchConsole,
} from './support.ts';

/**
 * Money out in the dashboard, in Debian's Chromium against a real server process (its workers
 * and the MoMo sandbox run in it): a merchant (fee 1.5 %) with one settled payment and one
 * pending sees both on the Balance page, filters the statement and downloads it as CSV, is told
 * why a payout above the available balance is refused, sees a payout to a number the sandbox
 * refuses fail with its reason, pays out to the sandbox number and watches the payout become
 * PAID, and sets a weekly schedule. The browser asks for English, so amounts read as Intl writes
 * them in `en` (`FCFA 4,925`); languages.e2e.test.ts walks the same pages in French. Every page is
 * screenshotted and checked with axe-core.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];
const PAYEE = '+237670000001';
/** The sandbox fails payouts to this number at once (PAYEE_NOT_FOUND). */
const REFUSED = '+237650000103';

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'dashboard.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
  context = await browser.newContext({ ...DESKTOP, acceptDownloads: true });
  page = await context.newPage();
  watchConsole(page, errors);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const accessible = (name: string) => expectAccessible(page, errors, name);

async function heading(name: string | RegExp) {
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

const today = () => new Date().toISOString().slice(0, 10);

describe('balance and payouts in the dashboard', () => {
  it('a merchant is paid twice through the API: one payment settled, one pending', async () => {
    // Two customers pay 5 000 and 2 000 XAF; the first payment is settled at once (the test
    // helper), the second stays pending for the merchant's settlement delay (1 day).
    const keys = server.merchant.test;
    const customers = [
      { phoneNumber: '+237650003301', password: 'customer-pw-3301' },
      { phoneNumber: '+237650003302', password: 'customer-pw-3302' },
    ];
    for (const [i, amount] of ['5000', '2000'].entries()) {
      const customer = customers[i] as { phoneNumber: string; password: string };
      expect((await apiCall(server.url, 'POST', '/test/users', keys, { ...customer, balance: '10000' })).status).toBe(201);
      const intent = await apiCall(server.url, 'POST', '/gateway', keys, { amount, currency: 'XAF', description: `Order ${amount}` });
      await payAsCustomer(server, customer, String(intent.body.id));
      if (i === 0) expect((await apiCall(server.url, 'POST', '/test/balance/settle', keys)).status).toBe(200);
    }
  });

  it('shows available and pending money, the statement by type and period, and downloads it as CSV', async () => {
    await page.goto(`${server.url}/dashboard`);
    await page.getByLabel('E-mail address').fill(server.merchant.dashboard.email);
    await page.getByLabel('Password').fill(server.merchant.dashboard.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Home');

    await page.getByRole('link', { name: 'Balance' }).click();
    await heading('Balance');
    const perCurrency = page.getByRole('region', { name: 'Balance per currency' });
    const xaf = perCurrency.getByRole('row', { name: /^XAF/ });
    await expect.poll(() => xaf.textContent()).toBe('XAFFCFA\u00a04,925FCFA\u00a01,970FCFA\u00a00');

    // Newest first: the pending payment and its fee, then the settled one and its fee.
    const statement = page.getByRole('region', { name: 'Balance transactions' });
    const rows = statement.getByRole('row');
    await expect.poll(() => rows.count()).toBe(5);
    expect(await rows.nth(1).textContent()).toMatch(/Fee-FCFA\u00a030FCFA\u00a06,895pending/);
    expect(await rows.nth(2).textContent()).toMatch(/PaymentFCFA\u00a02,000FCFA\u00a06,925pending/);
    expect(await rows.nth(4).textContent()).toMatch(/PaymentFCFA\u00a05,000FCFA\u00a05,000available/);
    await accessible('m01-balance');

    // Fees of today only (UTC days): the URL keeps the filter, the CSV link follows it.
    await page.getByLabel('Type').selectOption('fee');
    await page.getByLabel('From', { exact: true }).fill(today());
    await page.getByLabel('To', { exact: true }).fill(today());
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => rows.count()).toBe(3);
    expect(page.url()).toBe(`${server.url}/dashboard/test/balance?type=fee&from=${today()}&to=${today()}`);
    const [fees] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(fees.suggestedFilename()).toBe(`caisse-balance-test-${today()}-${today()}.csv`);
    expect(
      (await downloadedText(fees))
        .trimEnd()
        .split('\r\n')
        .map((line) => line.split(',')[6]),
    ).toEqual(['amount', '-75', '-30']);
    await page.getByLabel('From', { exact: true }).fill('2001-01-01');
    await page.getByLabel('To', { exact: true }).fill('2001-01-31');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => statement.textContent()).toContain('No balance transactions match');
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => rows.count()).toBe(5);

    // The whole statement: a header and four lines whose balances add up, oldest first.
    const [all] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(all.suggestedFilename()).toBe('caisse-balance-test-start-now.csv');
    const csv = await downloadedText(all);
    expect(csv.startsWith('id,created_at,type,source,description,currency,amount,balance_after,status,available_on,connector,provider_account\r\n')).toBe(true);
    expect(
      csv
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',').slice(6, 9).join(' ')),
    ).toEqual(['5000 5000 available', '-75 4925 available', '2000 6925 pending', '-30 6895 pending']);
    await accessible('m02-balance-filtered');
  });

  it('refuses a payout above the available balance with the reason, shows a refused one FAILED, and one to the sandbox number PAID', async () => {
    await page.getByRole('link', { name: 'Payouts' }).click();
    await heading('Payouts');
    expect(await page.getByRole('link', { name: 'Payouts' }).getAttribute('aria-current')).toBe('page');
    await expect.poll(() => page.getByRole('region', { name: 'Available now' }).textContent()).toContain('FCFA\u00a04,925');
    await expect.poll(() => page.getByRole('region', { name: 'Payouts', exact: true }).textContent()).toContain('No payouts yet');
    await accessible('m03-payouts-empty');

    // The providers come from the server: in Cameroon MTN MoMo pays out; Orange Money only
    // collects, so it is shown disabled and the page says so before any payout is tried.
    const providers = page.getByLabel('Provider');
    await expect.poll(() => providers.locator('option').allTextContents()).toEqual(['MTN MoMo', 'Orange Money (cannot receive payouts)']);
    expect(await providers.inputValue()).toBe('mtn_momo');
    expect(await providers.locator('option', { hasText: 'Orange Money' }).isDisabled()).toBe(true);
    expect(await page.locator('#po-provider-note').textContent()).toBe('Orange Money only takes payments: it cannot receive payouts.');

    // Pending money cannot be paid out: the API's refusal in the page's words and with its code,
    // never the API's English detail (issue 36).
    await page.getByLabel(/^Amount/).fill('6000');
    await page.getByLabel(/^Mobile-money number/).fill('+237 670 00 00 01');
    await page.getByRole('button', { name: 'Pay out' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('Not enough available balance');
    expect(await alert.textContent()).not.toContain('The available balance is');
    expect(await alert.textContent()).toContain('balance_insufficient');
    // The focus moved from the button to the refusal (issue 58).
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
    await accessible('m04-payout-refused');

    // A number the sandbox refuses: FAILED with the provider's reason, the money back.
    await page.getByLabel(/^Amount/).fill('1000');
    await page.getByLabel(/^Mobile-money number/).fill(REFUSED);
    await page.getByRole('button', { name: 'Pay out' }).click();
    await page.getByRole('link', { name: 'Open the payout' }).click();
    await heading(/Payout FCFA.1,000/);
    await expect.poll(() => page.locator('dl.summary').textContent(), { timeout: 30_000 }).toContain('Statusfailed');
    expect(await page.locator('dl.summary').textContent()).toContain('Failure reasonThe number has no mobile-money account PAYEE_NOT_FOUND');
    expect(await page.locator('.notice.warning').textContent()).toContain('The money is back in your available balance.');
    await accessible('m05-payout-failed');
    await page.getByRole('link', { name: '← All payouts' }).click();
    await heading('Payouts');
    await expect.poll(() => page.getByRole('region', { name: 'Available now' }).textContent()).toContain('FCFA\u00a04,925');

    // The number as the merchant writes it, read in its country (Cameroon); a short one is refused.
    await page.getByLabel(/^Amount/).fill('4925');
    await page.getByLabel(/^Mobile-money number/).fill('6 70 00');
    await page.getByRole('button', { name: 'Pay out' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('This is not a mobile number of your country');
    await page.getByLabel(/^Mobile-money number/).fill('6 70 00 00 01');
    await page.getByLabel(/^Description/).fill('Week 47');
    await page.getByRole('button', { name: 'Pay out' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain(`Payout of FCFA\u00a04,925 to ${PAYEE} created`);
    expect(await page.getByRole('alert').count()).toBe(0);
    await expect.poll(() => page.getByRole('region', { name: 'Available now' }).textContent()).toContain('FCFA\u00a00');
    const row = page.getByRole('region', { name: 'Payouts', exact: true }).getByRole('row', { name: /FCFA.4,925/ });
    await expect.poll(() => row.textContent()).toContain(PAYEE);

    // The detail page looks again while the payout is pending: the server's poller and the
    // sandbox (which approves this number after a second) make it PAID.
    await page.getByRole('link', { name: 'Open the payout' }).click();
    await heading(/Payout FCFA.4,925/);
    const summary = page.locator('dl.summary');
    await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toContain('Statuspaid');
    const text = await summary.textContent();
    expect(text).toContain(`MTN MoMo ${PAYEE}`);
    // How Caisse reached the provider: the connector and its account (test mode's sandbox account).
    expect(text).toContain('Connector and accountmtn_momo pac_sandbox_mtn_momo');
    expect(text).toContain('Week 47');
    expect(text).not.toContain('Failure reason');
    expect(text).toMatch(/Completed[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await accessible('m06-payout-paid');
    const id = /po_[0-9a-z]+/.exec(page.url())?.[0] ?? '';
    expect((await apiCall(server.url, 'GET', `/payouts/${id}`, server.merchant.test)).body).toMatchObject({ status: 'PAID', amount: '4925', method: 'manual' });

    await page.getByRole('link', { name: '← All payouts' }).click();
    await heading('Payouts');
    const history = page.getByRole('region', { name: 'Payouts', exact: true });
    await expect.poll(() => history.getByRole('row', { name: /FCFA.4,925/ }).textContent()).toContain('paid');
    expect(await history.getByRole('row', { name: /FCFA.1,000/ }).textContent()).toContain('failed');
    // The statement shows the payout, linking to it.
    await page.getByRole('link', { name: 'Balance' }).click();
    await heading('Balance');
    const first = page.getByRole('region', { name: 'Balance transactions' }).getByRole('row').nth(1);
    await expect.poll(() => first.textContent()).toMatch(/Payout-FCFA\u00a04,925FCFA\u00a01,970available/);
    expect(await first.getByRole('link', { name: id }).count()).toBe(1);
  });

  it('sets a weekly payout schedule with a minimum', async () => {
    await page.getByRole('link', { name: 'Payouts' }).click();
    await heading('Payouts');
    const schedule = page.getByRole('form', { name: 'Automatic payouts' });
    await expect.poll(() => schedule.textContent()).toContain('None: payouts are manual');
    await schedule.getByLabel(/^Weekly/).check();
    await schedule.getByLabel('Day of the week').selectOption('friday');
    await schedule.getByLabel(/^Pay out to/).fill(PAYEE);
    await schedule.getByLabel('Minimum in XAF').fill('10000');
    await schedule.getByRole('button', { name: 'Save schedule' }).click();
    await expect.poll(() => schedule.getByRole('status').textContent()).toContain('The payout schedule was saved.');
    expect(await schedule.textContent()).not.toContain('None: payouts are manual');
    await accessible('m07-payout-schedule');
    expect((await apiCall(server.url, 'GET', '/payout-schedule', server.merchant.test)).body).toMatchObject({
      interval: 'weekly',
      weeklyAnchor: 'friday',
      destination: { provider: 'mtn_momo', phoneNumber: PAYEE },
      minimumAmount: { XAF: '10000' },
    });
    // A reload shows what was saved.
    await page.reload();
    await heading('Payouts');
    await expect.poll(() => page.getByLabel('Day of the week').inputValue()).toBe('friday');
    expect(await page.getByLabel('Minimum in XAF').inputValue()).toBe('10000');

    // Live mode has its own (empty) payouts and a manual schedule. It needs two-factor sign-in
    // (account.e2e.test.ts enrols in the page): the owner is marked enrolled in the database.
    await server.sql('update dashboard_users set totp_enabled_at = now() where merchant_id = $1', [server.merchant.merchantId]);
    await page.getByRole('button', { name: 'Live mode' }).click();
    await heading('Payouts');
    expect(page.url()).toBe(`${server.url}/dashboard/live/payouts`);
    await expect.poll(() => page.getByRole('region', { name: 'Payouts', exact: true }).textContent()).toContain('No payouts yet');
    await expect.poll(() => page.getByRole('form', { name: 'Automatic payouts' }).textContent()).toContain('None: payouts are manual');
    await page.getByRole('button', { name: 'Test mode' }).click();
    await heading('Payouts');
  });

  it('works on a phone-sized screen', async () => {
    const phone = await browser.newContext({ ...PHONE, storageState: await context.storageState() });
    const small = await phone.newPage();
    watchConsole(small, errors);
    for (const path of ['balance', 'payouts']) {
      await small.goto(`${server.url}/dashboard/test/${path}`);
      await small.getByRole('heading', { level: 1 }).waitFor();
      await small.getByRole('region', { name: path === 'balance' ? 'Balance transactions' : 'Payouts', exact: true }).waitFor();
      expect(await small.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(true);
      await screenshot(small, `m08-${path}-phone`);
      expect(await seriousViolations(small)).toEqual([]);
    }
    await phone.close();
    expect(errors).toEqual([]);
  });
});
