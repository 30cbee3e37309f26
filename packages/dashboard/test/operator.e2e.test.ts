import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type Browser,
  type BrowserContext,
  DESKTOP,
  expectAccessible,
  launchChromium,
  type Page,
  type RunningServer,
  startServer,
  watchConsole,
} from './support.ts';

/**
 * Issue 34, the operator console, in Debian's Chromium against a real server process: the
 * operator `caisse operators create` made signs in, must enrol an authenticator app first (the
 * test reads the secret from the page and computes codes with otpauth, as the app would), signs in
 * again with a code, finds the merchant, freezes it, and the merchant's next API call is refused.
 * axe-core on every page, in English and French.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];
const OPERATOR = 'ops@platform.example';

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ operatorEmail: OPERATOR }), launchChromium()]);
  context = await browser.newContext({ ...DESKTOP, locale: 'en' });
  page = await context.newPage();
  watchConsole(page, errors);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();

function code(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });
}

describe('operator console', () => {
  it('signs in with TOTP, finds a merchant, freezes it, and the merchant API refuses it', async () => {
    const operator = server.operator as { email: string; password: string; role: string };
    expect(operator).toMatchObject({ email: OPERATOR, role: 'admin' });

    await page.goto(`${server.url}/operator`);
    await heading('Operator console');
    await expectAccessible(page, errors, 'o01-sign-in');
    await page.getByLabel('E-mail address').fill(operator.email);
    await page.getByLabel('Password').fill(operator.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Nothing opens before the authenticator app is enrolled.
    await heading('Set up two-factor sign-in');
    await page.getByRole('button', { name: 'Set up the authenticator app' }).click();
    // The QR code the dashboard's enrolment shows, for the same authenticator apps.
    const qr = page.getByRole('img', { name: 'QR code to add Caisse to your authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    const secretField = page.getByLabel('Secret key');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible(page, errors, 'o02-enrol');
    await page.getByLabel(/^Code/).fill(code(secret));
    await page.getByRole('button', { name: 'Confirm with the code' }).click();
    await heading('Merchants');

    // Signed out, the next sign-in needs the code (of the next step: each code works once).
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading('Operator console');
    await page.getByLabel('E-mail address').fill(operator.email);
    await page.getByLabel('Password').fill(operator.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Type the current code');
    await page.getByLabel(/^Code/).fill(code(secret, 1));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Merchants');

    await page.getByLabel('Search merchants').fill('akwa');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const link = page.getByRole('link', { name: 'Boutique Akwa' });
    await link.waitFor();
    await expectAccessible(page, errors, 'o03-merchants');
    await link.click();
    await heading('Boutique Akwa');
    // The merchant's page has more than one summary now: the one that names the merchant.
    await page.locator('dl.summary', { hasText: server.merchant.merchantId }).first().waitFor();
    await expectAccessible(page, errors, 'o04-merchant');

    // Before the freeze the merchant's key works; after it, 403 merchant_frozen at once.
    const body = { amount: '1000', currency: 'XAF' };
    expect((await apiCall(server.url, 'POST', '/gateway', server.merchant.test, body)).status).toBe(201);
    await page.getByLabel('Reason').fill('Chargebacks reported by the provider');
    await page.getByRole('button', { name: 'Freeze', exact: true }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('The merchant is frozen.');
    expect(await page.getByText('Frozen since').textContent()).toContain('Chargebacks reported by the provider');
    await page.getByRole('button', { name: 'Unfreeze' }).waitFor();
    await expectAccessible(page, errors, 'o05-frozen');
    const refused = await apiCall(server.url, 'POST', '/gateway', server.merchant.test, body);
    expect(refused).toMatchObject({ status: 403, body: { code: 'merchant_frozen' } });

    await page.getByRole('link', { name: 'Money' }).click();
    await heading('Money');
    await page.getByRole('button', { name: 'Run the ledger check' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('The ledger is consistent');
    await expectAccessible(page, errors, 'o06-money');

    await page.getByRole('link', { name: 'Audit log' }).click();
    await heading('Audit log');
    await expect.poll(() => page.locator('table').textContent()).toContain('merchant.frozen');
    expect(await page.locator('table').textContent()).toContain('Chargebacks reported by the provider');
    await expectAccessible(page, errors, 'o07-audit');

    await page.getByRole('link', { name: 'Operators' }).click();
    await heading('Operators');
    await expectAccessible(page, errors, 'o08-operators');

    // In French too.
    await page.getByLabel('Language').selectOption('fr');
    await heading('Opérateurs');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await page.getByRole('link', { name: 'Marchands' }).click();
    await heading('Marchands');
    await expectAccessible(page, errors, 'o09-merchants-fr');
  });
});
