import { existsSync } from 'node:fs';
import { join } from 'node:path';
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
  signInDashboard,
  startServer,
  watchConsole,
} from './support.ts';

/**
 * Restricted keys in Debian's Chromium against a real server (issue 30, finding 1): a developer,
 * invited by the owner, enrols two-factor sign-in, opens live mode's API keys page, creates a
 * restricted live key with read-only permissions from the permission table, confirming with a
 * fresh code of the authenticator app, sees its permissions in the list; with that key the
 * server reads the balance and refuses a payout (403 permission_denied).
 */
let server: RunningServer;
let browser: Browser;
let ownerContext: BrowserContext;
let developerContext: BrowserContext;
let owner: Page;
let developer: Page;
const errors: string[] = [];
const DEVELOPER = 'dev@akwa.example';
const PASSWORD = 'une phrase assez longue';

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'dashboard.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
  ownerContext = await browser.newContext(DESKTOP);
  developerContext = await browser.newContext(DESKTOP);
  owner = await ownerContext.newPage();
  developer = await developerContext.newPage();
  watchConsole(owner, errors);
  watchConsole(developer, errors);
});

afterAll(async () => {
  await ownerContext?.close();
  await developerContext?.close();
  await browser?.close();
  await server?.stop();
});

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();

/** The authenticator app: the code of `steps` 30-second steps from now. */
function code(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });
}

describe('a developer and a restricted live key', () => {
  let totpSecret = '';
  let livePk = '';
  let liveRk = '';

  it('the owner invites a developer, who joins and enrols two-factor sign-in', async () => {
    await signInDashboard(owner, server);
    const invited = await owner.evaluate(async (email) => {
      const session = (await (await fetch('/dashboard/api/session')).json()) as { csrfToken: string };
      const res = await fetch('/dashboard/api/team/invitations', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({ email, role: 'developer' }),
      });
      return res.status;
    }, DEVELOPER);
    expect(invited).toBe(201);
    // An invitation proves control of the address: the operator outbox has it, not the merchant's.
    const [mail] = await server.outbox(DEVELOPER);
    const link = /https?:\/\/\S+\/dashboard\/invitations\/inv_[0-9A-Za-z]+/.exec(mail?.body ?? '')?.[0] ?? '';
    await developer.goto(link);
    await heading(developer, 'Join the team');
    await developer.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await developer.getByLabel('Password again').fill(PASSWORD);
    await developer.getByRole('button', { name: 'Join the team' }).click();
    await heading(developer, 'Home');

    // Live mode is closed to a developer without two-factor sign-in.
    await developer.goto(`${server.url}/dashboard/live/settings/api-keys`);
    await expect.poll(() => developer.locator('.totp-banner').count()).toBe(1);
    await developer.goto(`${server.url}/dashboard/test/account`);
    await heading(developer, 'Account');
    await developer.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    totpSecret = await developer.getByLabel('Setup key').inputValue();
    await developer.getByLabel('Code from the app').fill(code(totpSecret));
    await developer.getByRole('button', { name: 'Turn on' }).click();
    await developer.getByRole('region', { name: 'Recovery codes.' }).waitFor();
  });

  it('creates a restricted live key with read-only permissions, confirmed with a fresh code', async () => {
    await developer.goto(`${server.url}/dashboard/live/settings/api-keys`);
    await heading(developer, 'API keys');
    await developer.getByRole('table').waitFor();
    // A live API key first (no code: it only starts customers' flows).
    await developer.getByLabel('Name').fill('Live shop');
    await developer.getByLabel('Kind').selectOption('publishable');
    await developer.getByRole('button', { name: 'Create key' }).click();
    livePk = await developer.getByLabel('Live shop (API key)').inputValue();
    expect(livePk).toMatch(/^pk_live_/);
    await developer.getByRole('button', { name: 'I have copied it' }).click();

    // A key revoked while its secret is still shown is no longer offered to copy.
    await developer.getByLabel('Name').fill('Short-lived');
    await developer.getByLabel('Kind').selectOption('publishable');
    await developer.getByRole('button', { name: 'Create key' }).click();
    await developer.getByLabel('Short-lived (API key)').waitFor();
    await developer.getByRole('button', { name: 'Revoke Short-lived', exact: true }).click();
    await developer.getByRole('button', { name: 'Revoke Short-lived now' }).click();
    await expect.poll(() => developer.getByRole('status').first().textContent()).toContain('Short-lived was revoked');
    expect(await developer.getByLabel('Short-lived (API key)').count()).toBe(0);

    await developer.getByLabel('Name').fill('Reporting');
    await developer.getByLabel('Kind').selectOption('restricted');
    await developer.getByRole('radio', { name: 'Payments: Read' }).check();
    await developer.getByRole('radio', { name: 'Balance: Read' }).check();
    const codeField = developer.getByLabel(/Code from your authenticator app/);
    await codeField.waitFor();
    await expectAccessible(developer, errors, 'keys-01-restricted-live-form');
    // One step ahead: after the step the enrolment used, within the ±1 window.
    await codeField.fill(code(totpSecret, 1));
    await developer.getByRole('button', { name: 'Create key' }).click();
    liveRk = await developer.getByLabel('Reporting (restricted key)').inputValue();
    expect(liveRk).toMatch(/^rk_live_/);
    await developer.getByRole('button', { name: 'I have copied it' }).click();

    const row = developer.getByRole('row', { name: /Reporting/ });
    await expect.poll(() => row.textContent()).toContain('restricted');
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Payments: Read');
    expect(text).toContain('Balance: Read');
    expect(text).not.toContain('Payouts');
    await expectAccessible(developer, errors, 'keys-02-restricted-live-listed');
  });

  it('with it the server reads the balance and refuses a payout (403)', async () => {
    const keys = { apiKey: livePk, secretKey: liveRk };
    expect((await apiCall(server.url, 'GET', '/balance', keys)).status).toBe(200);
    const payout = await apiCall(server.url, 'POST', '/payouts', keys, {
      amount: '1000',
      currency: 'XAF',
      destination: { provider: 'mtn_momo', phoneNumber: '+237650000000' },
    });
    expect(payout.status).toBe(403);
    expect(payout.body).toMatchObject({ code: 'permission_denied', permission: 'payouts:write' });
    expect(errors).toEqual([]);
  });
});
