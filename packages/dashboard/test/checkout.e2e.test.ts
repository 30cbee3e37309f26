import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  axeViolations,
  type Browser,
  type BrowserContext,
  launchChromium,
  type Page,
  PHONE,
  type RunningServer,
  screenshot,
  seriousViolations,
  startServer,
  watchConsole,
} from './support.ts';
import { loadThrottled, PAY_BUTTON, SLOW_3G } from './throttled.ts';

/**
 * The hosted checkout page (/checkout/{sessionToken}) on a phone-sized screen in Debian's
 * Chromium, against a real server: the customer signs in with phone number and password, gets a
 * code by SMS or e-mail (read back from the test outbox, as a customer reads their phone), and
 * pays; a customer whose wallet is short tops it up by MTN MoMo (the server's MoMo sandbox: one
 * number declines, the next approves) and then pays; and the clear screens for an expired intent
 * (before and during the flow), a canceled intent and a link that is not valid. Screenshots and
 * axe-core on each screen.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];
let keys: { apiKey: string; secretKey: string };

const RICH = { phoneNumber: '+237650001111', password: 'rich-customer-pw', email: 'rich@customer.example', balance: '20000' };
const POOR = { phoneNumber: '+237650002222', password: 'poor-customer-pw', email: 'poor@customer.example', balance: '1000' };
/** The MoMo sandbox declines this number's requests (APPROVAL_REJECTED) after about a second. */
const DECLINING_NUMBER = '+237650000105';
/** Codes go out at most once per 30 s per user: each flow below has its own customer. */
const LATE = { phoneNumber: '+237650003333', password: 'late-customer-pw', email: 'late@customer.example', balance: '20000' };
/** Forgot their password: resets it on the page. */
const FORGETFUL = { phoneNumber: '+237650004444', password: 'forgotten-pw-2026', email: 'forgetful@customer.example', balance: '20000' };
const NEW_PASSWORD = 'baobab-at-dusk-77';
/** Signs in twice within the resend wait (issue 36). */
const AGAIN = { phoneNumber: '+237650005555', password: 'twice-signed-in-pw', email: 'again@customer.example', balance: '20000' };
const users: Record<string, string> = {};

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'checkout.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
  keys = server.merchant.test;
  for (const u of [RICH, POOR, LATE, FORGETFUL, AGAIN]) {
    const res = await apiCall(server.url, 'POST', '/test/users', keys, u);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    users[u.phoneNumber] = res.body.id as string;
  }
  context = await browser.newContext(PHONE);
  page = await context.newPage();
  watchConsole(page, errors);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

async function accessible(name: string) {
  await screenshot(page, name);
  const violations = await seriousViolations(page);
  expect(violations, `${name}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
  expect(errors, `${name}: errors in the page`).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${name}: no sideways scrolling`).toBe(true);
}

async function newIntent(body: Record<string, unknown>) {
  const res = await apiCall(server.url, 'POST', '/gateway', keys, { currency: 'XAF', ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; sessionToken: string };
}

/** The newest code sent to a user (in a message matching `about`), read from the test outbox. */
async function latestCode(userId: string, channel: 'sms' | 'email', about = /./): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const res = await apiCall(server.url, 'GET', `/test/messages?userId=${userId}`, keys);
      const message = (res.body.data as { channel: string; body: string }[]).find((m) => m.channel === channel && about.test(m.body));
      code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

async function signIn(user: typeof RICH, channel: 'SMS' | 'E-mail') {
  await page.getByLabel(/Phone number/).fill(user.phoneNumber.replace(/^(\+237)(\d{3})(\d{2})(\d{2})(\d{2})$/, '$1 $2 $3 $4 $5'));
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('radio', { name: channel }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
}

async function outcome(title: string) {
  await page.getByRole('heading', { name: title }).waitFor();
}

describe('the hosted checkout page', () => {
  it('pays an intent: phone and password, a code by SMS, pay, success', async () => {
    const intent = await newIntent({ amount: '5000', description: '2 × Ndolé, 1 × jus de bissap', metadata: { orderId: 'A-77' } });
    await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
    // Mobile money comes first; this customer pays from their Caisse wallet.
    await page.getByRole('button', { name: 'Pay with my Caisse wallet' }).click();
    await page.getByRole('heading', { name: 'Sign in to pay' }).waitFor();
    const header = await page.locator('header').textContent();
    expect(header).toContain('Pay Boutique Akwa');
    expect(header).toMatch(/FCFA.5,000/);
    expect(header).toContain('2 × Ndolé, 1 × jus de bissap');
    expect(await page.getByRole('note').textContent()).toContain('Test mode');
    // The page carries a publishable key of the intent's mode, never a secret key.
    const html = await page.content();
    expect(html).toMatch(/pk_test_/);
    expect(html).not.toMatch(/sk_(test|live)_/);
    await accessible('checkout-01-sign-in');

    // A wrong password first: one clear message, and the form stays.
    await page.getByLabel(/Phone number/).fill(RICH.phoneNumber);
    await page.getByLabel('Password').fill('not-my-password');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('phone number or password is not right');
    await accessible('checkout-02-wrong-password');

    await signIn(RICH, 'SMS');
    expect(await page.textContent('body')).toMatch(/by SMS to/);
    // Nothing typed in the sign-in step lingers in the next one.
    expect(await page.getByLabel('Code').inputValue()).toBe('');
    await accessible('checkout-03-code');
    const code = await latestCode(users[RICH.phoneNumber] as string, 'sms');
    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByLabel('Code').fill(wrong);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not right\. 4 tries left/);
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByRole('heading', { name: 'Confirm the payment' }).waitFor();
    await accessible('checkout-04-confirm');
    await page.getByRole('button', { name: /^Pay FCFA.5,000$/ }).click();
    await outcome('Payment complete');
    expect(await page.textContent('body')).toContain(intent.id);
    await accessible('checkout-05-success');

    const after = await apiCall(server.url, 'GET', `/gateway/${intent.id}`, keys);
    expect(after.body).toMatchObject({ status: 'SUCCEEDED', metadata: { orderId: 'A-77' } });
    // Opening the link again shows the payment as done.
    await page.reload();
    await outcome('Payment complete');
  });

  it('links to My Caisse account, where the customer signs in with password and SMS code and sees the payment', async () => {
    const intent = await newIntent({ amount: '700' });
    await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
    await page.getByRole('link', { name: 'My Caisse account: my wallet and history' }).click();
    await page.waitForURL(`${server.url}/account/test`);
    await page.getByRole('heading', { level: 1, name: 'My Caisse account' }).waitFor();
    await accessible('account-01-sign-in');
    await page.getByLabel('Phone number').fill(RICH.phoneNumber);
    await page.getByLabel('Password').fill(RICH.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Code').waitFor();
    // The sign-in code belongs to no merchant: read from the server's own outbox.
    let code = '';
    await expect
      .poll(async () => {
        const rows = await server.sql('select body from messages where user_id = $1 and merchant_id is null order by id desc limit 1', [
          users[RICH.phoneNumber],
        ]);
        code = /\b(\d{6})\b/.exec(String(rows.rows[0]?.body ?? ''))?.[1] ?? '';
        return code;
      })
      .toMatch(/^\d{6}$/);
    await accessible('account-02-code');
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 2, name: 'History' }).waitFor();
    const history = await page.textContent('body');
    // 20 000 − the 5 000 paid above.
    expect(history).toMatch(/FCFA.15,000/);
    expect(history).toContain('Boutique Akwa');
    expect(history).toMatch(/Payment/);
    await accessible('account-03-history');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Continue' }).waitFor();
  });

  it('tops up a short wallet with MTN MoMo (declined once, then approved), then sends the code by e-mail and pays', async () => {
    const userId = users[POOR.phoneNumber] as string;
    const intent = await newIntent({ amount: '7500', description: 'Pagne wax' });
    await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
    // Mobile money comes first; this customer pays from their Caisse wallet.
    await page.getByRole('button', { name: 'Pay with my Caisse wallet' }).click();
    await page.getByRole('heading', { name: 'Sign in to pay' }).waitFor();
    await page.getByLabel(/Phone number/).fill(POOR.phoneNumber);
    await page.getByLabel('Password').fill(POOR.password);
    await page.getByRole('radio', { name: 'E-mail' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();

    // The wallet holds 1 000 XAF of the 7 500: the page offers the 6 500 missing, before any code is sent.
    await page.getByRole('heading', { name: 'Top up your wallet' }).waitFor();
    expect(await page.locator('#topup-intro').textContent()).toMatch(/^Your wallet holds less than FCFA.7,500: FCFA.6,500 is missing\./);
    expect(await page.getByLabel(/MTN MoMo number/).inputValue()).toBe(POOR.phoneNumber);
    expect(await page.locator('.steps li').allTextContents()).toEqual(['Sign in', 'Top up', 'Code', 'Pay']);
    expect(await page.locator('.steps [aria-current="step"]').textContent()).toBe('Top up');
    await accessible('checkout-14-topup-offer');
    const messages = await apiCall(server.url, 'GET', `/test/messages?userId=${userId}`, keys);
    expect(messages.body.data).toEqual([]);

    // A number that declines first. The answers about the top-up are held back a moment, to look
    // at the wait for approval.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/wallet/topups/top_*', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel(/MTN MoMo number/).fill(DECLINING_NUMBER);
    await page.getByRole('button', { name: /^Top up FCFA.6,500 with MTN MoMo$/ }).click();
    await page.getByRole('heading', { name: 'Approve on your phone' }).waitFor();
    const news = page.locator('#topup-news');
    expect(await news.getAttribute('role')).toBe('status');
    expect(await news.textContent()).toBe(`Waiting for your approval on ${DECLINING_NUMBER}…`);
    expect(await page.locator('main').textContent()).toMatch(/MTN MoMo asked \+237650000105 for FCFA.6,500/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Approve on your phone');
    await accessible('checkout-15-topup-pending');
    release();
    // Waits for the held answers to go through before the handler is removed.
    await page.unrouteAll({ behavior: 'wait' });

    await page.getByRole('heading', { name: 'The top-up did not go through' }).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('alert').textContent()).toBe('The top-up was declined on the phone.');
    expect(await news.textContent()).toBe('');
    await accessible('checkout-16-topup-failed');

    // Try again from the customer's own number: the sandbox approves it about a second later.
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Top up your wallet' }).waitFor();
    expect(await page.getByLabel(/MTN MoMo number/).inputValue()).toBe(DECLINING_NUMBER);
    await page.getByLabel(/MTN MoMo number/).fill('+237 650 00 22 22');
    await page.getByRole('button', { name: /^Top up FCFA.6,500 with MTN MoMo$/ }).click();

    // Approved: the wallet holds 7 500 now, and the payment's code went out by e-mail as chosen.
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor({ timeout: 20_000 });
    expect(await news.textContent()).toBe('Your wallet was topped up with FCFA\u00a06,500.');
    expect(await page.textContent('body')).toMatch(/by e-mail to/);
    expect(await page.locator('.steps [aria-current="step"]').textContent()).toBe('Code');
    await accessible('checkout-17-topup-received');
    await page.getByLabel('Code', { exact: true }).fill(await latestCode(userId, 'email'));
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByRole('button', { name: /^Pay FCFA.7,500$/ }).click();
    await outcome('Payment complete');
    const after = await apiCall(server.url, 'GET', `/gateway/${intent.id}`, keys);
    expect(after.body).toMatchObject({ status: 'SUCCEEDED', attempts: 1, lastError: null });
  });

  it('shows an intent that expired before the page opened, and one that expires while the customer pays', async () => {
    const before = await newIntent({ amount: '3000', description: 'Expired before' });
    await server.sql(`update intents set expires_at = now() - interval '1 minute' where id = $1`, [before.id]);
    await page.goto(`${server.url}/checkout/${before.sessionToken}`);
    await outcome('This payment has expired');
    expect(await page.textContent('body')).toContain('no money was taken');
    await accessible('checkout-07-expired');

    const during = await newIntent({ amount: '3000', description: 'Expires during' });
    await page.goto(`${server.url}/checkout/${during.sessionToken}`);
    // Mobile money comes first; this customer pays from their Caisse wallet.
    await page.getByRole('button', { name: 'Pay with my Caisse wallet' }).click();
    await page.getByRole('heading', { name: 'Sign in to pay' }).waitFor();
    await signIn(LATE, 'SMS');
    await page.getByLabel('Code').fill(await latestCode(users[LATE.phoneNumber] as string, 'sms'));
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByRole('heading', { name: 'Confirm the payment' }).waitFor();
    await server.sql(`update intents set expires_at = now() - interval '1 second' where id = $1`, [during.id]);
    await page.getByRole('button', { name: /^Pay FCFA.3,000$/ }).click();
    await outcome('This payment has expired');
    const after = await apiCall(server.url, 'GET', `/gateway/${during.id}`, keys);
    expect(after.body.status).toBe('EXPIRED');
  });

  it('resets a forgotten password on the page with the code sent by SMS, signs in with the new one, and pays', async () => {
    const userId = users[FORGETFUL.phoneNumber] as string;
    const intent = await newIntent({ amount: '4000', description: 'Forgot my password' });
    await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
    // Mobile money comes first; this customer pays from their Caisse wallet.
    await page.getByRole('button', { name: 'Pay with my Caisse wallet' }).click();
    await page.getByRole('heading', { name: 'Sign in to pay' }).waitFor();
    // One account at every shop: the sign-in step says so.
    expect(await page.locator('form').textContent()).toContain('Your Caisse account works at every shop that uses Caisse.');
    await page.getByLabel(/Phone number/).fill('+237 650 00 44 44');
    await page.getByRole('button', { name: 'Forgot password?' }).click();

    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    // Focus follows the step; the number typed at sign-in is there already; still step 1 of 3.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Reset your password');
    expect(await page.getByLabel(/Phone number/).inputValue()).toBe('+237650004444');
    expect(await page.locator('.steps [aria-current="step"]').textContent()).toBe('Sign in');
    await accessible('checkout-10-forgot-password');
    await page.getByRole('button', { name: 'Send code' }).click();

    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(await page.textContent('body')).toContain('If +237650004444 has a Caisse account, we sent it a 6-digit code by SMS.');
    expect(await page.getByLabel('Code from the SMS').inputValue()).toBe('');
    expect(await page.getByLabel(/New password/).getAttribute('autocomplete')).toBe('new-password');
    await accessible('checkout-11-new-password');
    const resetCode = await latestCode(userId, 'sms', /password reset/);

    // A password the policy refuses first: the form stays, with the reason.
    await page.getByLabel('Code from the SMS').fill(resetCode);
    await page.getByLabel(/New password/).fill('password');
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Choose a stronger password');
    expect(await page.getByLabel(/New password/).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Code from the SMS').getAttribute('aria-invalid')).toBeNull();
    await accessible('checkout-12-weak-password');

    // By keyboard: the code field, Tab to the new password, Enter.
    await page.getByLabel('Code from the SMS').fill(resetCode);
    await page.getByLabel('Code from the SMS').press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(NEW_PASSWORD);
    await page.keyboard.press('Enter');

    // Signed in with the new password: the payment's code went out.
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe('Your new password is set and you are signed in.');
    expect(await page.locator('.steps [aria-current="step"]').textContent()).toBe('Code');
    await accessible('checkout-13-signed-in-after-reset');
    await page.getByLabel('Code', { exact: true }).fill(await latestCode(userId, 'sms', /Boutique Akwa/));
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByRole('button', { name: /^Pay FCFA.4,000$/ }).click();
    await outcome('Payment complete');
    expect((await apiCall(server.url, 'GET', `/gateway/${intent.id}`, keys)).body.status).toBe('SUCCEEDED');

    // The old password no longer signs in; the new one does.
    const signIn = (password: string) => apiCall(server.url, 'POST', '/auth/web', { apiKey: keys.apiKey }, { phoneNumber: FORGETFUL.phoneNumber, password });
    expect((await signIn(FORGETFUL.password)).status).toBe(401);
    expect((await signIn(NEW_PASSWORD)).status).toBe(200);
  });

  it('goes back from the password reset to sign-in with the number kept', async () => {
    const intent = await newIntent({ amount: '1000', description: 'Changed my mind' });
    await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
    // Mobile money comes first; this customer pays from their Caisse wallet.
    await page.getByRole('button', { name: 'Pay with my Caisse wallet' }).click();
    await page.getByRole('heading', { name: 'Sign in to pay' }).waitFor();
    await page.getByLabel(/Phone number/).fill('+237650009999');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByRole('button', { name: 'Back to sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in to pay' }).waitFor();
    // Focus moves to the heading once the step has rendered.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Sign in to pay');
    expect(await page.getByLabel(/Phone number/).inputValue()).toBe('+237650009999');
    expect(await page.getByLabel('Password').inputValue()).toBe('');
  });

  it('a customer signing in again within the resend wait goes to the code step, pays with the code sent, and is led back to the shop', async () => {
    const intent = await newIntent({ amount: '2000', description: 'Signed in twice', returnUrl: 'https://shop.example/orders/B-12' });
    const open = async () => {
      await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
      await page.getByRole('button', { name: 'Pay with my Caisse wallet' }).click();
      await page.getByRole('heading', { name: 'Sign in to pay' }).waitFor();
      await signIn(AGAIN, 'SMS');
    };
    await open();
    const code = await latestCode(users[AGAIN.phoneNumber] as string, 'sms');
    // The page opened again: the code just sent is still good, so the code step, not the sign-in, and it does not claim a new code went out.
    await open();
    expect(await page.locator('#code-hint').textContent()).toBe(
      'No new code was sent: one was sent to your phone a moment ago. Enter the last code you received; a code lasts 5 minutes.',
    );
    expect(await page.getByRole('alert').textContent()).toMatch(/^A code was sent a moment ago\. .* Wait \d+ seconds?\.$/);
    await accessible('checkout-18-code-still-valid');
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByRole('button', { name: /^Pay FCFA.2,000$/ }).click();
    await outcome('Payment complete');
    const text = await page.locator('main').textContent();
    expect(text).toMatch(/You paid FCFA.2,000 to Boutique Akwa\./);
    expect(text).toContain(intent.id);
    expect(await page.getByRole('link', { name: 'Return to Boutique Akwa' }).getAttribute('href')).toBe('https://shop.example/orders/B-12');
    await accessible('checkout-19-success-return');

    // The same success in French (fr-CM), opened again from the link.
    const french = await browser.newContext({ ...PHONE, locale: 'fr-CM' });
    try {
      const frPage = await french.newPage();
      const frErrors: string[] = [];
      watchConsole(frPage, frErrors);
      await frPage.goto(`${server.url}/checkout/${intent.sessionToken}`);
      await frPage.getByRole('heading', { name: 'Paiement effectué' }).waitFor();
      expect(await frPage.locator('main').textContent()).toMatch(/Vous avez payé 2.000.FCFA à Boutique Akwa\./);
      expect(await frPage.getByRole('link', { name: 'Retour à Boutique Akwa' }).getAttribute('href')).toBe('https://shop.example/orders/B-12');
      await screenshot(frPage, 'checkout-19-success-return-fr');
      expect(await seriousViolations(frPage)).toEqual([]);
      expect(frErrors).toEqual([]);
    } finally {
      await french.close();
    }
  });

  it('loads on slow 3G in at most 60 KiB, every script and style named by the HTML, none fetched by a script', async () => {
    // The time to the pay button on slow and fast 3G is bench/checkout-3g.ts's to measure.
    const intent = await newIntent({ amount: '5000', description: '2 × Ndolé' });
    const phone = await browser.newContext({ ...PHONE, locale: 'fr-FR' });
    try {
      const slow = await phone.newPage();
      const loaded = await loadThrottled(slow, `${server.url}/checkout/${intent.sessionToken}`, SLOW_3G, PAY_BUTTON);
      const assets = loaded.requests.filter((r) => new URL(r.url).pathname.startsWith('/dashboard/'));
      expect(assets.map((r) => r.type).sort()).toEqual(['Script', 'Stylesheet']);
      for (const r of assets) expect(r, 'discovered from the HTML, not by a script').toMatchObject({ initiator: 'parser', beforeReady: true });
      // The page's texts are in the HTML, in the payer's language only.
      expect(loaded.requests.filter((r) => /\.json$/.test(new URL(r.url).pathname))).toEqual([]);
      expect(await slow.locator('html').getAttribute('lang')).toBe('fr');
      expect(loaded.bytesBeforeReady, JSON.stringify(loaded.requests, null, 2)).toBeLessThanOrEqual(60 * 1024);
    } finally {
      await phone.close();
    }
  });

  it('shows a canceled intent and a link that is not valid', async () => {
    const intent = await newIntent({ amount: '1500', description: 'Canceled order' });
    expect((await apiCall(server.url, 'POST', `/gateway/${intent.id}/cancel`, keys, {})).status).toBe(200);
    await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
    await outcome('This payment was canceled');
    await accessible('checkout-08-canceled');

    // A 404 for the browser too, with the checkout's own page saying so.
    const unknown = await page.goto(`${server.url}/checkout/ps_thisLinkWasNeverIssued0000000000000000000`);
    expect(unknown?.status()).toBe(404);
    await outcome('This payment link is not valid');
    await accessible('checkout-09-not-valid');
  });
});

describe('the accessibility check', () => {
  it('reports every serious or critical violation that a run of all the rules reports', async () => {
    const probe = await context.newPage();
    try {
      // Critical (an unnamed button, an image without alt), serious (contrast), moderate (a skipped heading level, content outside landmarks).
      await probe.setContent(`<!doctype html><html lang="en"><head><title>Probe</title></head><body>
        <h1>Title</h1><h4>Skipped levels</h4><button></button><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
        <p style="color:#bbb;background:#fff">Pale text</p></body></html>`);
      const all = await axeViolations(probe, 'all');
      const serious = (await seriousViolations(probe)).map((v) => v.id).sort();
      expect(serious).toEqual(['button-name', 'color-contrast', 'image-alt']);
      expect(
        all
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => v.id)
          .sort(),
      ).toEqual(serious);
      // Found by the run of all the rules only: their impact never fails a test.
      expect(all.map((v) => v.id)).toEqual(expect.arrayContaining(['heading-order', 'region']));

      // Contrast is checked again wherever a text style appears that it has not passed: a page of
      // passed styles skips it, the same page with one pale line does not.
      const page = (extra: string) =>
        probe.setContent(`<!doctype html><html lang="en"><head><title>Probe</title></head><body><main>
          <h1>Title</h1><p style="color:#222;background:#fff">Dark text</p>${extra}</main></body></html>`);
      await page('');
      expect(await seriousViolations(probe)).toEqual([]);
      await page('<p style="color:#222;background:#fff">More dark text</p>');
      expect(await seriousViolations(probe)).toEqual([]);
      await page('<p style="color:#222;background:#fff">More dark text</p><p style="color:#222;background:#555">On grey</p>');
      expect((await seriousViolations(probe)).map((v) => v.id)).toEqual(['color-contrast']);
    } finally {
      await probe.close();
    }
  });
});
