import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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
 * Issue 22, account security, in Debian's Chromium against a real server process: live mode says
 * two-factor sign-in is required; the Account page enrols an authenticator app (the test reads the
 * setup key from the page and computes codes with otpauth, as the app would) and shows the
 * recovery codes once; sign-in then asks for a code; a recovery code works; "Forgot password?"
 * sends a link (read from the development outbox) whose page sets a new password. axe-core on
 * every page, screenshots into test-results/.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
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

/** The authenticator app: the code of `steps` 30-second steps from now. */
function code(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });
}

async function signInWithPassword(password: string) {
  await page.getByLabel('E-mail address').fill(server.merchant.dashboard.email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut() {
  await page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
  await heading('Sign in to your dashboard');
}

describe('account security', () => {
  let secret = '';
  let recoveryCodes: string[] = [];

  it('live mode asks for two-factor sign-in; the Account page enrols an app and shows the recovery codes once', async () => {
    await page.goto(`${server.url}/dashboard`);
    await signInWithPassword(server.merchant.dashboard.password);
    await heading('Home');
    await page.getByRole('button', { name: 'Live mode' }).click();
    await heading('Home');
    const banner = page.locator('.totp-banner');
    expect(await banner.textContent()).toContain('Live mode needs two-factor sign-in');
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Set it up on the Account page');
    await expectAccessible(page, errors, 'a01-live-totp-required');

    await banner.getByRole('link', { name: 'Set it up now' }).click();
    await heading('Account');
    await expectAccessible(page, errors, 'a02-account');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const qr = page.getByRole('img', { name: 'QR code to add Caisse to your authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    secret = await page.getByLabel('Setup key').inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible(page, errors, 'a03-account-enrol');

    // A wrong code first: refused, still pending.
    await page.getByLabel('Code from the app').fill(code(secret, 3));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('not the current code');
    await page.getByLabel('Code from the app').fill(code(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const shown = page.getByRole('region', { name: 'Recovery codes.' });
    await shown.waitFor();
    recoveryCodes = (await shown.getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    for (const c of recoveryCodes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await expect.poll(() => page.locator('.totp-banner').count()).toBe(0);
    await expectAccessible(page, errors, 'a04-account-recovery-codes');

    // Live mode opens.
    await page.getByRole('link', { name: 'Payments' }).click();
    await heading('Payments');
    await expect.poll(() => page.getByRole('region', { name: 'Payments' }).textContent()).toMatch(/No payments/);
  });

  it('sign-in then asks for a code computed from the secret; a recovery code works once', async () => {
    await signOut();
    await signInWithPassword(server.merchant.dashboard.password);
    await heading('Two-factor sign-in');
    await expectAccessible(page, errors, 'a05-login-second-step');
    // One step ahead: always after the step the enrolment used, and within the ±1 window.
    await page.getByLabel('Code').fill(code(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await heading('Home');

    await signOut();
    await signInWithPassword(server.merchant.dashboard.password);
    await heading('Two-factor sign-in');
    await page.getByLabel('Code').fill(recoveryCodes[0] as string);
    await page.getByRole('button', { name: 'Verify' }).click();
    await heading('Home');
    await page.getByRole('link', { name: 'Account' }).click();
    await heading('Account');
    await expect.poll(() => page.getByText(/recovery codes left/).textContent()).toContain('9 recovery codes left');
    const sessions = page.getByRole('region', { name: 'Your open sessions' });
    await expect.poll(() => sessions.textContent()).toContain('This session');
    expect(await sessions.textContent()).toContain('127.0.0.1');

    await signOut();
    await signInWithPassword(server.merchant.dashboard.password);
    await page.getByLabel('Code').fill(recoveryCodes[0] as string);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('The code is not valid');
  });

  it('"Forgot password?" sends a link whose page sets a new password', async () => {
    await page.goto(`${server.url}/dashboard`);
    await heading('Sign in to your dashboard');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await heading('Reset your password');
    await page.getByLabel('E-mail address').fill(server.merchant.dashboard.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('It works once, for one hour');

    // Development has no SMTP: the e-mail is in the outbox.
    const { rows } = await server.sql("select body from messages where recipient = $1 and channel = 'email' order by id desc limit 1", [
      server.merchant.dashboard.email,
    ]);
    const link = /(http:\/\/\S+\/dashboard\/reset-password\/dr_[0-9A-Za-z]+)/.exec(String(rows[0]?.body))?.[1];
    expect(link).toBeDefined();
    await page.goto(link as string);
    await heading('Choose a new password');
    await expectAccessible(page, errors, 'a06-reset-password');
    await page.locator('#new-password').fill('a-brand-new-password-22');
    await page.getByLabel('New password again').fill('a-brand-new-password-22');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Your password is set');
    await expectAccessible(page, errors, 'a07-reset-done');

    // The link works once.
    await page.goto(link as string);
    await page.locator('#new-password').fill('another-password-33');
    await page.getByLabel('New password again').fill('another-password-33');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('already used or has expired');

    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await signInWithPassword('a-brand-new-password-22');
    await heading('Two-factor sign-in');
    await page.getByLabel('Code').fill(recoveryCodes[1] as string);
    await page.getByRole('button', { name: 'Verify' }).click();
    await heading('Home');
  });
});
