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
  payAsCustomer,
  type RunningServer,
  startServer,
  watchConsole,
} from './support.ts';

/**
 * Issue 34, the console's later pages in Chromium against a real server: an admin invites two
 * finance operators; the first sets a payout review threshold, cannot approve the payout it holds
 * (four eyes), the second approves it; the admin looks a customer up, locks the account and sends
 * the password reset code, sets customer limits, reads the providers, the profiles to review and
 * the fee revenue. axe-core
 * on every page, in English, and one in French.
 */
let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const errors: string[] = [];
const ADMIN = 'admin@platform.example';
const FINANCE_A = 'finance-a@platform.example';
const FINANCE_B = 'finance-b@platform.example';
const CUSTOMER = { phoneNumber: '+237650004401', password: 'customer-pw-4401' };

let admin: Page;
let financeA: Page;
let financeB: Page;
const invited: Record<string, string> = {};

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ operatorEmail: ADMIN, env: { CAISSE_FEE_PERCENT: '1.5' } }), launchChromium()]);
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.stop();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ ...DESKTOP, locale: 'en' });
  contexts.push(context);
  const page = await context.newPage();
  watchConsole(page, errors);
  return page;
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();

function code(secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() });
}

/** A first sign-in: the password, then the authenticator app's enrolment; the console opens on Merchants. */
async function firstSignIn(page: Page, email: string, password: string) {
  await page.goto(`${server.url}/operator`);
  await heading(page, 'Operator console');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Set up the authenticator app' }).click();
  const secretField = page.getByLabel('Secret key');
  await secretField.waitFor();
  await page.getByLabel(/^Code/).fill(code(await secretField.inputValue()));
  await page.getByRole('button', { name: 'Confirm with the code' }).click();
  await heading(page, 'Merchants');
}

/** The navigation's links, in order: what the session's permissions open. */
const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Operator console' }).getByRole('link').allTextContents();

describe('operator console pages', () => {
  it('an admin invites two finance operators, who see only their pages', async () => {
    admin = await newPage();
    await firstSignIn(admin, ADMIN, (server.operator as { password: string }).password);
    expect(await navLinks(admin)).toEqual([
      'Merchants',
      'Profiles to review',
      'Outbox',
      'Payout review',
      'Customers',
      'Customer limits',
      'Providers',
      'Provider accounts',
      'Routes',
      'Late payments to return',
      'Money',
      'Audit log',
      'Operators',
    ]);
    await admin.getByRole('link', { name: 'Operators' }).click();
    await heading(admin, 'Operators');
    for (const email of [FINANCE_A, FINANCE_B]) {
      await admin.getByLabel('E-mail address').fill(email);
      await admin.getByLabel('Role').selectOption('finance');
      await admin.getByRole('button', { name: 'Invite' }).click();
      const password = admin.getByLabel(new RegExp(`^One-time password of ${email.replace(/[.]/g, '\\.')}`));
      await password.waitFor();
      invited[email] = await password.inputValue();
    }

    financeA = await newPage();
    financeB = await newPage();
    await firstSignIn(financeA, FINANCE_A, invited[FINANCE_A] as string);
    await firstSignIn(financeB, FINANCE_B, invited[FINANCE_B] as string);
    expect(await navLinks(financeA)).toEqual(['Merchants', 'Payout review', 'Providers', 'Routes', 'Late payments to return', 'Money']);
  });

  it('holds a payout above the threshold; its setter cannot approve it, a second finance operator does', async () => {
    // The merchant has money to pay out: a customer's 10 000 XAF payment, settled.
    const keys = server.merchant.test;
    expect((await apiCall(server.url, 'POST', '/test/users', keys, { ...CUSTOMER, balance: '20000' })).status).toBe(201);
    const intent = await apiCall(server.url, 'POST', '/gateway', keys, { amount: '10000', currency: 'XAF', description: 'Order 10000' });
    await payAsCustomer(server, CUSTOMER, String(intent.body.id));
    expect((await apiCall(server.url, 'POST', '/test/balance/settle', keys)).status).toBe(200);

    await financeA.getByRole('link', { name: 'Payout review' }).click();
    await heading(financeA, 'Payout review');
    await financeA.getByText('No payout is waiting for review.').waitFor();
    const form = financeA.getByRole('form', { name: 'Set a threshold' });
    await form.getByLabel('Mode').selectOption('test');
    await form.getByLabel('Currency', { exact: true }).fill('XAF');
    await form.getByLabel(/^Threshold/).fill('1000');
    await form.getByRole('button', { name: 'Save the threshold' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toContain('The threshold is saved.');
    await expect.poll(() => financeA.getByRole('region', { name: 'Payout review thresholds' }).textContent()).toContain(FINANCE_A);
    await expectAccessible(financeA, errors, 'op01-payout-thresholds');

    const payout = await apiCall(server.url, 'POST', '/payouts', keys, {
      amount: '5000',
      currency: 'XAF',
      destination: { provider: 'mtn_momo', phoneNumber: '+237670004101' },
    });
    expect(payout.status).toBe(202);
    expect(payout.body.status).toBe('REVIEW');
    const id = String(payout.body.id);

    // The operator whose threshold held it is told another must decide.
    await financeA.reload();
    const heldByA = financeA.getByRole('region', { name: new RegExp(`\\(${id}\\)`) });
    await heldByA.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => heldByA.getByRole('alert').textContent()).toContain('another operator must approve or reject it');
    await expectAccessible(financeA, errors, 'op02-payout-four-eyes');

    await financeB.getByRole('link', { name: 'Payout review' }).click();
    await heading(financeB, 'Payout review');
    const heldByB = financeB.getByRole('region', { name: new RegExp(`\\(${id}\\)`) });
    await heldByB.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => financeB.getByRole('status').first().textContent()).toContain(`Payout ${id} approved`);
    await financeB.getByText('No payout is waiting for review.').waitFor();
    await expectAccessible(financeB, errors, 'op03-payout-approved');
    expect(['PENDING', 'PAID']).toContain((await apiCall(server.url, 'GET', `/payouts/${id}`, keys)).body.status);
  });

  it('looks a customer up, locks the account and sends the password reset code', async () => {
    await admin.getByRole('link', { name: 'Customers' }).click();
    await heading(admin, 'Customers');
    await expectAccessible(admin, errors, 'op04-customers-empty');
    await admin.getByLabel(/^Customer.s phone number/).fill(CUSTOMER.phoneNumber);
    await admin.getByRole('button', { name: 'Look up' }).click();
    const account = admin.getByRole('region', { name: 'Account (Test mode)' });
    await expect.poll(() => account.getByRole('region', { name: 'Recent payments and top-ups, Test mode' }).textContent()).toContain('Payment');
    expect(await account.getByRole('region', { name: 'Wallet, Test mode' }).textContent()).toContain('10,000');
    await expectAccessible(admin, errors, 'op05-customer');

    await account.getByLabel('Reason for locking').fill('Phone reported stolen');
    await account.getByRole('button', { name: 'Lock the account' }).click();
    await expect.poll(() => account.getByRole('status').textContent()).toContain('The account is locked');
    await account.getByRole('button', { name: 'Unlock the account' }).waitFor();
    const signIn = await fetch(`${server.url}/auth/web`, {
      method: 'POST',
      headers: { 'x-api-key': server.merchant.test.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(CUSTOMER),
    });
    expect(signIn.status).toBe(403);
    expect(((await signIn.json()) as { code: string }).code).toBe('customer_locked');

    const userId = ((await account.locator('dd.mono').first().textContent()) ?? '').trim();
    const messages = async () => (await apiCall(server.url, 'GET', `/test/messages?userId=${userId}`, server.merchant.test)).body.data as { body: string }[];
    const before = (await messages()).length;
    await account.getByRole('button', { name: 'Send a password reset code' }).click();
    await expect.poll(() => account.getByRole('status').textContent()).toContain(`A password reset code was sent by SMS to ${CUSTOMER.phoneNumber}`);
    const after = await messages();
    expect(after.length).toBe(before + 1);
    expect(after[0]?.body).toMatch(/\b\d{6}\b/);
    await expectAccessible(admin, errors, 'op06-customer-locked');
  });

  it('sets customer limits, shows the providers, the profiles and the fee revenue with its CSV', async () => {
    await admin.getByRole('link', { name: 'Customer limits' }).click();
    await heading(admin, 'Customer limits');
    const form = admin.getByRole('form', { name: 'Set a tier’s limits' });
    await form.getByLabel('Mode').selectOption('test');
    await form.getByLabel(/^Wallet balance/).fill('500000');
    await form.getByLabel(/^One payment/).fill('100000');
    await form.getByRole('button', { name: 'Save the limits' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toContain('The limits are saved.');
    const table = admin.getByRole('region', { name: 'Customer limits' });
    await expect.poll(() => table.getByRole('row').nth(1).textContent()).toContain('500,000');
    expect(await table.getByRole('row').nth(1).textContent()).toContain('No cap');
    await expectAccessible(admin, errors, 'op07-customer-limits');

    await admin.getByRole('link', { name: 'Providers' }).click();
    await heading(admin, 'Providers');
    const providers = admin.getByRole('region', { name: 'Providers' });
    await expect
      .poll(() =>
        providers
          .getByRole('row', { name: /MTN MoMo/ })
          .first()
          .textContent(),
      )
      .toContain('Test mode');
    // In words, not the API's codes: what the provider does, and no health for one not set up.
    const mtnTest =
      (await providers
        .getByRole('row', { name: /MTN MoMo/ })
        .first()
        .textContent()) ?? '';
    expect(mtnTest).toContain('Collects, Pays out, Refunds');
    expect(mtnTest).not.toContain('collect');
    // The provider account test mode calls it with (health is that account's).
    expect(mtnTest).toContain('pac_sandbox_mtn_momo');
    const liveRow =
      (await providers
        .getByRole('row', { name: /Live mode/ })
        .first()
        .textContent()) ?? '';
    expect(liveRow).toContain('Not set up');
    expect(liveRow).not.toMatch(/\bAvailable\b/);
    await expectAccessible(admin, errors, 'op08-providers');

    // Routes: the defaults, one set from the form (audited by the server), and back.
    await admin.getByRole('link', { name: 'Routes' }).click();
    await heading(admin, 'Routes');
    const routes = admin.getByRole('region', { name: 'Routes' });
    const momoRoute = routes
      .getByRole('row', { name: /mtn_momo/ })
      .filter({ hasText: 'Test mode' })
      .filter({ hasText: 'Payments' })
      .first();
    await expect.poll(() => momoRoute.textContent()).toContain('Default');
    await admin.getByRole('button', { name: /^Change the route of mtn_momo \(Payments\) in CM, Test mode/ }).click();
    const routeForm = admin.getByRole('form', { name: 'Set a route' });
    await routeForm.getByLabel(/^Connectors/).fill('mtn_momo');
    await routeForm.getByRole('button', { name: 'Save the route' }).click();
    await expect.poll(() => routeForm.getByRole('status').textContent()).toContain('Route saved.');
    await expect.poll(() => momoRoute.textContent()).toContain(' by ');
    // Wave does not carry MTN MoMo: the page says why, not a bare error code.
    await routeForm.getByLabel(/^Connectors/).fill('wave');
    await routeForm.getByRole('button', { name: 'Save the route' }).click();
    await expect
      .poll(() => routeForm.getByRole('alert').textContent())
      .toBe('A connector of this list does not serve this method in this country (or cannot send money, for a payout route).');
    await expectAccessible(admin, errors, 'op08-routes');
    await routeForm.getByRole('button', { name: 'Back to the default' }).click();
    await expect.poll(() => momoRoute.textContent()).toContain('Default');

    await admin.getByRole('link', { name: 'Late payments to return' }).click();
    await heading(admin, 'Late payments to return');
    await admin.getByText('No late payment to return by hand.').waitFor();
    await expectAccessible(admin, errors, 'op08-late-payments');

    await admin.getByRole('link', { name: 'Profiles to review' }).click();
    await heading(admin, 'Profiles to review');
    await admin.getByText('No business profile is waiting for review.').waitFor();
    await expectAccessible(admin, errors, 'op09-profiles');

    await admin.getByRole('link', { name: 'Money' }).click();
    await heading(admin, 'Money');
    const fees = admin.getByRole('region', { name: 'Fee revenue', exact: true });
    await expect.poll(() => fees.getByRole('row', { name: new RegExp(server.merchant.merchantId) }).textContent()).toContain('150');
    const csvLink = fees.getByRole('link', { name: 'Download CSV' });
    const href = (await csvLink.getAttribute('href')) as string;
    expect(href).toBe('/operator/api/money/fees.csv');
    const csv = await admin.context().request.get(`${server.url}${href}`);
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain(`,test,XAF,${server.merchant.merchantId},150,150,1`);
    await admin
      .getByRole('region', { name: 'Last reconciliations' })
      .getByText(/^No reconciliation has been run yet/)
      .waitFor();
    await expectAccessible(admin, errors, 'op10-money-fees');

    // In French too.
    await admin.getByLabel('Language').selectOption('fr');
    await heading(admin, 'Argent');
    await admin.getByRole('link', { name: 'Revue des virements' }).click();
    await heading(admin, 'Revue des virements');
    await admin.getByText('Aucun virement n’attend de revue.').waitFor();
    await expectAccessible(admin, errors, 'op11-payouts-fr');
  });

  it("sets a merchant's terms and the payment methods it may offer; the merchant's checkout follows", async () => {
    await admin.getByLabel('Langue').selectOption('en');
    await admin.getByRole('link', { name: 'Merchants' }).click();
    await heading(admin, 'Merchants');
    await admin.getByRole('link', { name: 'Boutique Akwa' }).click();
    await heading(admin, 'Boutique Akwa');

    const terms = admin.getByRole('region', { name: 'Commercial terms' });
    await terms.getByLabel(/^Fee \(percent/).fill('2');
    await terms.getByLabel(/^Fixed fee/).fill('100');
    await terms.getByLabel('Why these terms change').fill('Negotiated rate');
    await terms.getByRole('button', { name: 'Save the terms' }).click();
    await expect.poll(() => terms.getByRole('status').textContent()).toContain('The terms are saved.');
    expect(await admin.locator('dl.summary', { hasText: server.merchant.merchantId }).first().textContent()).toContain('2 %');

    // The boxes are the methods of the merchant's country (Cameroon), never a connector such as
    // pawaPay or CinetPay: a cap naming one would be refused.
    const methods = admin.getByRole('region', { name: 'Payment methods allowed' });
    const boxes = () => methods.getByRole('checkbox').evaluateAll((els) => els.map((el) => el.closest('label')?.textContent?.trim()));
    const listed = ['Caisse wallet', 'MTN MoMo', 'Orange Money', 'Card (Visa / Mastercard)'];
    await expect.poll(boxes).toEqual(listed);
    // Live mode has no provider account here: each box says so, in its description rather than its name.
    expect(await methods.getByText('No provider account reaches it in this mode').count()).toBe(3);
    await methods.getByLabel('Mode', { exact: true }).selectOption('test');
    await expect.poll(boxes).toEqual(listed);
    expect(await methods.getByText('No provider account reaches it in this mode').count()).toBe(0);
    await methods.getByLabel('Caisse wallet').uncheck();
    await methods.getByLabel('Orange Money').uncheck();
    await methods.getByLabel('Why these methods').fill('Wallet and Orange Money under review');
    await methods.getByRole('button', { name: 'Save the methods' }).click();
    await expect.poll(() => methods.getByRole('status').textContent()).toContain('The payment methods are saved.');
    expect(await methods.getByRole('alert').count()).toBe(0);
    expect(await methods.getByLabel('Orange Money').isChecked()).toBe(false);
    expect(await methods.getByLabel('MTN MoMo').isChecked()).toBe(true);
    await expectAccessible(admin, errors, 'op12-merchant-terms');

    // The merchant's checkout no longer offers the wallet nor Orange Money in test mode.
    const intent = (await apiCall(server.url, 'POST', '/gateway', server.merchant.test, { amount: '5000', currency: 'XAF' })).body as { sessionToken: string };
    const offered = (await apiCall(server.url, 'GET', `/payment-methods?sessionToken=${intent.sessionToken}`, { apiKey: server.merchant.test.apiKey }))
      .body as {
      data: { type: string; provider?: string }[];
    };
    expect(offered.data.map((d) => d.provider ?? d.type)).toEqual(expect.arrayContaining(['mtn_momo']));
    expect(offered.data.map((d) => d.type)).not.toContain('wallet');
    expect(offered.data.map((d) => d.provider)).not.toContain('orange_money');
  });
});
