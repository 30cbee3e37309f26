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
 * Issue 34, merchant sign-up, in Debian's Chromium against a real server process: a business
 * signs up from the sign-in page, is told where the e-mail went (issue 52: the operator outbox,
 * which the console reads), verifies it with the link, signs in, submits its
 * profile with a PDF, is refused a live key; an operator approves it in the console (after opening
 * the document); the merchant then creates a live key. axe-core on the new pages.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];
const OPERATOR = 'compliance@platform.example';
const EMAIL = 'owner@ndiaye.example';
const PASSWORD = 'correct horse battery';
const PDF = onePagePdf();

/** A one-page PDF a reader opens (the upload is parsed, not only sniffed): three objects and their cross-reference table. */
function onePagePdf(): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>'];
  let text = '%PDF-1.7\n';
  const offsets = objects.map((body, i) => {
    const at = text.length;
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

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
const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

/** A dashboard API call from the signed-in page (its cookie, its CSRF token). */
async function inPage<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ([m, p, b]) => {
      const session = (await (await fetch('/dashboard/api/session')).json()) as { csrfToken: string };
      const res = await fetch(`/dashboard/api${p}`, {
        method: m,
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        ...(b === undefined ? {} : { body: JSON.stringify(b) }),
      });
      if (!res.ok) throw new Error(`${m} ${p}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    [method, path, body] as const,
  ) as Promise<T>;
}

async function createLiveKey(name: string) {
  await page.goto(`${server.url}/dashboard/live/settings/api-keys`);
  await heading('API keys');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Kind').selectOption('publishable');
  await page.getByRole('button', { name: 'Create key' }).click();
}

describe('merchant sign-up', () => {
  it('signs up, verifies the e-mail, submits the profile, and gets live keys once an operator approves', async () => {
    await page.goto(`${server.url}/dashboard`);
    await heading('Sign in to your dashboard');
    await page.getByRole('link', { name: 'New business? Sign up' }).click();
    await heading('Sign your business up');
    await page.getByLabel('Business name').fill('Boulangerie Ndiaye');
    await page.getByLabel('Country').selectOption('SN');
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await expectAccessible(page, errors, 'signup-01-form');
    await page.getByRole('button', { name: 'Sign up' }).click();
    // Nothing exists until the link is opened; in development the page says where the e-mail went.
    await heading('Check your e-mail');
    expect(await page.getByRole('status').first().textContent()).toContain(`We sent an e-mail to ${EMAIL}`);
    expect(await page.locator('code').textContent()).toBe(`npx caisse messages list --to ${EMAIL}`);
    await expectAccessible(page, errors, 'signup-01b-check-email');
    // A new link may be asked for; the one before stops working (the outbox lists the newest first).
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await expect.poll(() => page.getByRole('status').nth(1).textContent()).toContain('a new link is on its way');

    // The operator signs in to the console (enrolling its authenticator app) and reads the link in
    // its outbox: a merchant never sees that e-mail.
    const operator = server.operator as { email: string; password: string };
    const opsContext = await browser.newContext({ ...DESKTOP, locale: 'en' });
    const ops = await opsContext.newPage();
    watchConsole(ops, errors);
    await ops.goto(`${server.url}/operator`);
    await ops.getByLabel('E-mail address').fill(operator.email);
    await ops.getByLabel('Password').fill(operator.password);
    await ops.getByRole('button', { name: 'Sign in' }).click();
    await ops.getByRole('button', { name: 'Set up the authenticator app' }).click();
    const secretField = ops.getByLabel('Secret key');
    await secretField.waitFor();
    await ops.getByLabel(/^Code/).fill(totp(await secretField.inputValue()));
    await ops.getByRole('button', { name: 'Confirm with the code' }).click();
    await ops.getByRole('heading', { level: 1, name: 'Merchants' }).waitFor();
    await ops.getByRole('link', { name: 'Outbox' }).click();
    await ops.getByRole('heading', { level: 1, name: 'Outbox' }).waitFor();
    await ops.getByLabel('Recipient').fill(EMAIL);
    await ops.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => ops.getByRole('cell', { name: /verify-email\?token=ver_/ }).count()).toBe(2);
    const cell = ops.getByRole('cell', { name: /verify-email\?token=ver_/ }).first();
    await expectAccessible(ops, errors, 'signup-01c-operator-outbox');
    const link = /https?:\/\/\S+\/dashboard\/verify-email\?token=ver_[0-9A-Za-z]+/.exec((await cell.textContent()) ?? '')?.[0] ?? '';
    expect(link).not.toBe('');
    // The CLI's path (the server's admin endpoint) reads the same e-mail.
    expect((await server.outbox(EMAIL))[0]?.body).toContain(link);

    await page.goto(link);
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain(`${EMAIL} is verified`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await heading('Sign in to your dashboard');
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Home');
    // The merchant's own test outbox never held the link.
    const mails = await inPage<{ data: { to: string; body: string }[] }>('GET', '/test/messages?limit=100');
    expect(mails.data.some((m) => /verify-email/.test(m.body))).toBe(false);

    await page.goto(`${server.url}/dashboard/test/settings/profile`);
    await heading('Business profile');
    await page.getByLabel('Legal name').fill('Boulangerie Ndiaye SARL');
    await page.getByLabel('Registration number (RCCM)').fill('SN-DKR-2024-B-12345');
    await page.getByLabel('Tax number (NINEA)').fill('0123456 2G3');
    await page.getByLabel('Address').fill('12 rue Carnot, Dakar');
    await page.getByLabel('Activity').fill('Bakery');
    await page.getByLabel('Website or social page').fill('https://facebook.com/ndiaye');
    await page.getByLabel('Owner’s full name').fill('Awa Ndiaye');
    await page.getByLabel('Owner’s identity document').setInputFiles({ name: 'id.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expectAccessible(page, errors, 'signup-02-profile');
    await page.getByRole('button', { name: 'Save and submit for review' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Submitted');

    // Live mode takes two-factor sign-in (account.e2e.test.ts enrols in the page): enrolled here by the API.
    const { secret } = await inPage<{ secret: string }>('POST', '/account/totp', {});
    await inPage('POST', '/account/totp/confirm', { code: totp(secret) });
    await createLiveKey('Live shop');
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Live mode opens once your business profile is approved');

    // The operator opens the profile (the address verified through the outbox only) and approves it.
    await ops.getByRole('link', { name: 'Profiles to review' }).click();
    await ops.getByRole('heading', { level: 1, name: 'Profiles to review' }).waitFor();
    await ops.getByRole('link', { name: 'Boulangerie Ndiaye' }).click();
    await ops.getByRole('heading', { level: 2, name: 'Business profile' }).waitFor();
    await ops.getByText('Verified only through the development outbox: this proves nothing of the address').waitFor();
    await expectAccessible(ops, errors, 'signup-03-review');
    // The document opens for the signed-in operator only.
    const href = (await ops.getByRole('link', { name: /Open the owner’s identity document/ }).getAttribute('href')) ?? '';
    expect(Buffer.from(await (await ops.request.get(`${server.url}${href}`)).body()).equals(PDF)).toBe(true);
    expect((await fetch(`${server.url}${href}`)).status).toBe(401);
    await ops.getByRole('button', { name: 'Approve for live mode' }).click();
    await expect.poll(() => ops.getByText('Approved', { exact: true }).count()).toBe(1);
    await opsContext.close();

    await createLiveKey('Live shop');
    expect(await page.getByLabel('Live shop (API key)').inputValue()).toMatch(/^pk_live_/);
  });
});
