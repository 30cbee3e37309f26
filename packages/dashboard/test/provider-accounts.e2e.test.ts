import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, DESKTOP, expectAccessible, launchChromium, type Page, type RunningServer, startServer, watchConsole } from './support.ts';

/**
 * The operator console's Provider accounts page in Debian's Chromium against a real server: an
 * admin adds two pawaPay test accounts for Cameroon from the form; each shows the callback URLs to
 * paste into pawaPay's dashboard (one per operation type, naming the account) and its credential
 * masked; the older one says the newer is used instead. A check that fails says why, a disabled
 * account is shown so, and every change is in the audit log with the secret masked. A live MTN
 * account with the sandbox's target environment is refused naming the setting.
 */
let server: RunningServer;
let browser: Browser;
let page: Page;
const errors: string[] = [];
const ADMIN = 'admin@platform.example';
const TOKENS = ['pawapay-first-token-0001', 'pawapay-second-token-0002'];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ operatorEmail: ADMIN }), launchChromium()]);
  const context = await browser.newContext({ ...DESKTOP, locale: 'en' });
  page = await context.newPage();
  watchConsole(page, errors);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const code = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() });

/** The row of an account in the accounts table. */
const row = (id: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader').filter({ hasText: id }) });

async function addAccount(fields: { connector: string; mode: 'test' | 'live'; countries: string; settings: string; credentials: object }) {
  await page.getByLabel('Connector').selectOption(fields.connector);
  await page.getByLabel('Mode', { exact: true }).selectOption(fields.mode);
  await page.getByLabel(/^Countries/).fill(fields.countries);
  await page.getByLabel(/^Settings/).fill(fields.settings);
  await page.getByLabel(/^Credentials/).fill(JSON.stringify(fields.credentials));
  await page.getByRole('button', { name: 'Add the account' }).click();
}

describe('the provider accounts page', () => {
  const added: string[] = [];

  it('adds two pawaPay accounts: the callback URLs to paste, the secret masked, the newest used', async () => {
    await page.goto(`${server.url}/operator`);
    await page.getByLabel('E-mail address').fill(ADMIN);
    await page.getByLabel('Password').fill((server.operator as { password: string }).password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Set up the authenticator app' }).click();
    const secretField = page.getByLabel('Secret key');
    await secretField.waitFor();
    await page.getByLabel(/^Code/).fill(code(await secretField.inputValue()));
    await page.getByRole('button', { name: 'Confirm with the code' }).click();
    await page.getByRole('heading', { level: 1, name: 'Merchants' }).waitFor();
    await page.getByRole('link', { name: 'Provider accounts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Provider accounts' }).waitFor();
    await row('pac_sandbox_pawapay').waitFor();

    for (const token of TOKENS) {
      await addAccount({ connector: 'pawapay', mode: 'test', countries: 'cm', settings: 'baseUrl=http://127.0.0.1:9', credentials: { apiToken: token } });
      const notice = page.getByRole('status').filter({ hasText: /^Account pac_\w+ added\.$/ });
      // The notice of the account added before stays until this one's replaces it.
      const shown = async () => /^Account (pac_\w+) added\.$/.exec((await notice.textContent()) ?? '')?.[1] ?? '';
      await expect
        .poll(async () => {
          const id = await shown();
          return added.includes(id) ? '' : id;
        })
        .toMatch(/^pac_(?!sandbox)/);
      const id = await shown();
      expect(added).not.toContain(id);
      added.push(id);
      // The credentials leave the form once sent.
      expect(await page.getByLabel(/^Credentials/).inputValue()).toBe('');
    }
    const [older, newer] = added as [string, string];
    for (const [i, id] of added.entries()) {
      await row(id).waitFor();
      const text = (await row(id).textContent()) ?? '';
      for (const purpose of ['Deposits', 'Payouts', 'Refunds'])
        expect(text).toContain(`${purpose} callback URL to set in the provider's dashboard: ${server.url}/callbacks/pawapay/${id}`);
      expect(text).toContain(`apiToken …${(TOKENS[i] as string).slice(-4)}`);
      expect(text).not.toContain(TOKENS[i] as string);
    }
    await expect.poll(() => row(older).textContent()).toContain(`CM: ${newer} is used instead`);
    expect(await row(newer).textContent()).not.toContain('is used instead');
    await expectAccessible(page, errors, 'op-provider-accounts');
  });

  it('a check that fails says why; a disabled account says so and loses its Disable button', async () => {
    const [older] = added as [string, string];
    await page.getByRole('button', { name: `Check ${older}` }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'failed its check' }).textContent())
      .toMatch(new RegExp(`^${older} failed its check: .+`));
    await expect.poll(() => row(older).textContent()).toContain('Failed');
    await page.getByRole('button', { name: `Disable ${older}` }).click();
    await expect.poll(() => row(older).textContent()).toContain('Disabled');
    expect(await page.getByRole('button', { name: `Disable ${older}` }).count()).toBe(0);
  });

  it('refuses a live MTN account with the sandbox target environment, naming the setting', async () => {
    const before = await page.getByRole('row').count();
    await addAccount({
      connector: 'mtn_momo',
      mode: 'live',
      countries: 'CM',
      settings: 'baseUrl=https://momo.example\ntargetEnvironment=sandbox',
      credentials: { collectionUserId: 'c0ffee00-0000-4000-8000-000000000001', collectionApiKey: 'k'.repeat(32), collectionSubscriptionKey: 's'.repeat(32) },
    });
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('The setting targetEnvironment is not valid for this account: check it against its connector, mode and countries.');
    expect(await page.getByRole('row').count()).toBe(before);
  });

  it('the audit log has each change, the secrets masked', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const log = (await page.getByRole('table').textContent()) ?? '';
    const [older, newer] = added as [string, string];
    for (const [action, id] of [
      ['provider_account.added', older],
      ['provider_account.added', newer],
      ['provider_account.checked', older],
      ['provider_account.disabled', older],
    ])
      expect(log).toContain(`${action}${id}`);
    for (const token of TOKENS) expect(log).not.toContain(token);
    expect(errors).toEqual([]);
  });
});
