import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type Browser,
  type BrowserContext,
  DESKTOP,
  expectAccessible,
  launchChromium,
  type Page,
  PHONE,
  type RunningServer,
  startServer,
  watchConsole,
} from './support.ts';

/**
 * Payment links (issue 22) in Debian's Chromium against a real server process: the owner creates
 * a link on the dashboard's Payment links page and copies it; a customer opens it in a fresh
 * browser context, lands on the hosted checkout (the visit made an intent and redirected) and pays
 * with the code read from the test outbox; the link's page then lists the succeeded payment.
 * An inactive link shows its unavailable page. axe-core and screenshots on every page.
 */
let server: RunningServer;
let browser: Browser;
let owner: BrowserContext;
let page: Page;
const errors: string[] = [];
const CUSTOMER = { phoneNumber: '+237650007777', password: 'link-customer-pw', balance: '50000' };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
  owner = await browser.newContext({ ...DESKTOP, locale: 'en' });
  await owner.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page = await owner.newPage();
  watchConsole(page, errors);
});

afterAll(async () => {
  await owner?.close();
  await browser?.close();
  await server?.stop();
});

describe('payment links', () => {
  it("the owner creates a link, a customer pays through it, the link's page lists the payment", async () => {
    const keys = server.merchant.test;
    const created = await apiCall(server.url, 'POST', '/test/users', keys, CUSTOMER);
    expect(created.status).toBe(201);
    const userId = created.body.id as string;

    await page.goto(`${server.url}/dashboard`);
    await page.getByLabel('E-mail address').fill(server.merchant.dashboard.email);
    await page.getByLabel('Password').fill(server.merchant.dashboard.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await page.getByRole('link', { name: 'Payment links' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payment links' }).waitFor();
    await expectAccessible(page, errors, 'l01-links-empty');
    // A Cameroonian merchant is offered its country's currency only, not XOF, EUR or USD (issue 58).
    await expect.poll(() => page.getByLabel('Currency').locator('option').allTextContents()).toEqual(['XAF']);

    // A bad amount is refused with the API's message; then a good one.
    await page.getByLabel(/^Amount/).fill('5000.5');
    await page.getByLabel(/^Description/).fill('Tissu wax, 6 yards');
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel(/^Amount/).fill('7500');
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByRole('heading', { name: 'Your payment link is ready' }).waitFor();
    const url = await page.getByLabel(/^Link address/).inputValue();
    expect(url).toMatch(new RegExp(`^${server.url}/pay/plink_[0-9a-z]{26}$`));
    await expectAccessible(page, errors, 'l02-link-created');

    // The list's copy button puts the address on the clipboard.
    await page.getByRole('button', { name: 'Copy link: Tissu wax, 6 yards' }).click();
    await page.getByText('Link address copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // A customer opens the link in a fresh browser: the visit lands on the hosted checkout.
    const customer = await browser.newContext({ ...PHONE, locale: 'en' });
    const shop = await customer.newPage();
    const customerErrors: string[] = [];
    watchConsole(shop, customerErrors);
    await shop.goto(url);
    expect(shop.url()).toMatch(/\/checkout\/ps_/);
    // Mobile money comes first; this customer pays from their Caisse wallet.
    await shop.getByRole('button', { name: 'Pay with my Caisse wallet' }).click();
    await shop.getByRole('heading', { name: 'Sign in to pay' }).waitFor();
    expect(await shop.locator('header').textContent()).toContain('Tissu wax, 6 yards');
    await expectAccessible(shop, customerErrors, 'l03-checkout-from-link');
    await shop.getByLabel(/Phone number/).fill(CUSTOMER.phoneNumber);
    await shop.getByLabel('Password').fill(CUSTOMER.password);
    await shop.getByRole('radio', { name: 'SMS' }).check();
    await shop.getByRole('button', { name: 'Continue' }).click();
    await shop.getByRole('heading', { name: 'Enter your code' }).waitFor();
    let code = '';
    await expect
      .poll(async () => {
        const res = await apiCall(server.url, 'GET', `/test/messages?userId=${userId}`, keys);
        code = /\b(\d{6})\b/.exec((res.body.data as { body: string }[])[0]?.body ?? '')?.[1] ?? '';
        return code;
      })
      .toMatch(/^\d{6}$/);
    await shop.getByLabel('Code').fill(code);
    await shop.getByRole('button', { name: 'Verify code' }).click();
    await shop.getByRole('heading', { name: 'Confirm the payment' }).waitFor();
    await shop.getByRole('button', { name: /^Pay FCFA.7,500$/ }).click();
    await shop.getByRole('heading', { name: 'Payment complete' }).waitFor();
    await expectAccessible(shop, customerErrors, 'l04-paid-through-link');
    await customer.close();

    // The link's page lists the succeeded payment, linking to the payment's own page.
    await page.getByRole('link', { name: 'Tissu wax, 6 yards' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tissu wax, 6 yards' }).waitFor();
    const payments = page.getByRole('region', { name: 'Payments' });
    await expect.poll(() => payments.getByRole('row').count()).toBe(2);
    expect(await payments.textContent()).toMatch(/succeeded/i);
    await expectAccessible(page, errors, 'l05-link-with-payment');

    // Deactivated, the link answers its unavailable page (410) and makes no intent.
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('button', { name: 'Activate again' }).waitFor();
    await expectAccessible(page, errors, 'l06-link-inactive');
    const visitor = await browser.newContext({ ...PHONE, locale: 'fr-FR' });
    const closed = await visitor.newPage();
    const answer = await closed.goto(url);
    expect(answer?.status()).toBe(410);
    await closed.getByRole('heading', { name: 'Lien de paiement indisponible' }).waitFor();
    await expectAccessible(closed, [], 'l07-link-unavailable');
    await visitor.close();
    const list = await apiCall(server.url, 'GET', `/payment-links/${url.split('/pay/')[1]}/payments`, keys);
    expect((list.body.data as { status: string }[]).map((p) => p.status)).toEqual(['SUCCEEDED']);

    await page.getByRole('link', { name: /^pi_/ }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/payments\/pi_/);
  });
});
