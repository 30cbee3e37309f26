import { existsSync } from 'node:fs';
import { join } from 'node:path';
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
 * Team members with roles in Debian's Chromium against a real server (issue 22): the owner
 * invites an analyst, the invitation link (read from the outbox, as the analyst reads their
 * e-mail) opens in a second browser, the analyst chooses a password and is signed in; they see no
 * "Create key" button and the server refuses the key anyway (403); the owner removes them and
 * their next request is 401. axe-core on the Team, Audit log and invitation pages; screenshots.
 */
let server: RunningServer;
let browser: Browser;
let ownerContext: BrowserContext;
let analystContext: BrowserContext;
let owner: Page;
let analyst: Page;
const ownerErrors: string[] = [];
const analystErrors: string[] = [];
const ANALYST = 'analyste@akwa.example';
const PASSWORD = 'une phrase assez longue';
let invitationLink = '';

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'dashboard.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
  ownerContext = await browser.newContext(DESKTOP);
  analystContext = await browser.newContext(DESKTOP);
  owner = await ownerContext.newPage();
  analyst = await analystContext.newPage();
  watchConsole(owner, ownerErrors);
  watchConsole(analyst, analystErrors);
});

afterAll(async () => {
  await ownerContext?.close();
  await analystContext?.close();
  await browser?.close();
  await server?.stop();
});

async function heading(page: Page, name: string | RegExp) {
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** A call of the dashboard API from inside the page: its session cookie and its CSRF token. */
async function fromPage(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const session = await fetch('/dashboard/api/session');
      const csrf = session.ok ? ((await session.json()) as { csrfToken: string }).csrfToken : '';
      const res = await fetch(`/dashboard/api${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
    },
    { method, path, body },
  );
}

describe('team members with roles', () => {
  it('the owner invites an analyst from the Team page', async () => {
    await owner.goto(`${server.url}/dashboard`);
    await owner.getByLabel('E-mail address').fill(server.merchant.dashboard.email);
    await owner.getByLabel('Password').fill(server.merchant.dashboard.password);
    await owner.getByRole('button', { name: 'Sign in' }).click();
    await heading(owner, 'Home');
    await owner.getByRole('link', { name: 'Team' }).click();
    await heading(owner, 'Team');
    await owner.getByRole('row', { name: new RegExp(server.merchant.dashboard.email) }).waitFor();
    await expectAccessible(owner, ownerErrors, 'team-01-members');

    await owner.getByLabel('E-mail address').fill(ANALYST);
    await owner.getByLabel('Role', { exact: true }).selectOption('analyst');
    await owner.getByRole('button', { name: 'Send the invitation' }).click();
    await expect.poll(() => owner.getByRole('status').first().textContent()).toContain(`Invitation sent to ${ANALYST}`);
    await owner.getByRole('row', { name: new RegExp(`${ANALYST}.*Analyst`) }).waitFor();
    await expectAccessible(owner, ownerErrors, 'team-02-invitation-pending');

    // The e-mail, as the analyst receives it: in the operator outbox (`caisse messages list`),
    // never in the inviter's test outbox, or the inviter could accept it.
    const messages = await apiCall(server.url, 'GET', '/test/messages?limit=100', server.merchant.test);
    expect((messages.body.data as { to: string }[]).some((m) => m.to === ANALYST)).toBe(false);
    const [mail] = await server.outbox(ANALYST);
    expect(mail?.body).toContain('Boutique Akwa');
    invitationLink = /https?:\/\/\S+\/dashboard\/invitations\/inv_[0-9A-Za-z]+/.exec(mail?.body ?? '')?.[0] ?? '';
    expect(invitationLink.startsWith(server.url)).toBe(true);
  });

  it('the analyst opens the link in another browser, chooses a password and lands signed in', async () => {
    await analyst.goto(invitationLink);
    await heading(analyst, 'Join the team');
    await analyst.getByText('Boutique Akwa invites you').waitFor();
    await expectAccessible(analyst, analystErrors, 'team-03-invitation');
    await analyst.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await analyst.getByLabel('Password again').fill('something else entirely');
    await analyst.getByRole('button', { name: 'Join the team' }).click();
    await expect.poll(() => analyst.getByRole('alert').textContent()).toContain('different');
    await analyst.getByLabel('Password again').fill(PASSWORD);
    await analyst.getByRole('button', { name: 'Join the team' }).click();
    await heading(analyst, 'Home');
    expect(analyst.url()).toBe(`${server.url}/dashboard/test/home`);
    const session = await fromPage(analyst, 'GET', '/session');
    expect(session.body).toMatchObject({ email: ANALYST, role: 'analyst' });
    // What an analyst cannot use is not in the navigation.
    await expect.poll(() => analyst.getByRole('navigation', { name: 'Main' }).textContent()).not.toContain('Test data');
  });

  it('a used, or unknown, invitation link says so', async () => {
    const page = await analystContext.newPage();
    watchConsole(page, analystErrors);
    await page.goto(invitationLink);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('already used');
    await expectAccessible(page, analystErrors, 'team-04-invitation-used');
    await page.goto(`${server.url}/dashboard/invitations/inv_thisisnotaninvitationtokenatall0000000000`);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not valid');
    await page.close();
  });

  it('the analyst sees no Create key button, and the server refuses the key anyway (403)', async () => {
    await analyst.goto(`${server.url}/dashboard/test/settings/api-keys`);
    await heading(analyst, 'API keys');
    await analyst.getByRole('table').waitFor();
    expect(await analyst.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await analyst.getByRole('button', { name: /Revoke|Roll/ }).count()).toBe(0);
    await expectAccessible(analyst, analystErrors, 'team-05-analyst-api-keys');
    const refused = await fromPage(analyst, 'POST', '/test/keys', { name: 'not allowed', kind: 'secret' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'permission_denied' });
    expect(String(refused.body.detail)).toContain('analyst');
  });

  it('the owner refunds part of a payment with the Refund button; the analyst has none', async () => {
    const customer = { phoneNumber: '+237650004321', password: 'client-password-1' };
    expect((await apiCall(server.url, 'POST', '/test/users', server.merchant.test, { ...customer, balance: '20000' })).status).toBe(201);
    const intent = await apiCall(server.url, 'POST', '/gateway', server.merchant.test, { amount: '5000', currency: 'XAF', description: 'Panier 7' });
    const id = String(intent.body.id);
    await payAsCustomer(server, customer, id);

    await analyst.goto(`${server.url}/dashboard/test/payments/${id}`);
    await heading(analyst, /5,000/);
    expect(await analyst.getByRole('button', { name: 'Refund' }).count()).toBe(0);

    await owner.goto(`${server.url}/dashboard/test/payments/${id}`);
    await heading(owner, /5,000/);
    await owner.getByLabel('Amount to refund (XAF)').fill('1000');
    await owner.getByRole('button', { name: 'Refund', exact: true }).click();
    await owner.getByRole('button', { name: /^Refund .*1,000 now$/ }).click();
    await expect.poll(() => owner.getByRole('status').first().textContent()).toContain('Refund made');
    await owner.getByRole('heading', { level: 1, name: /Partially refunded/i }).waitFor();
    await expectAccessible(owner, ownerErrors, 'team-06-refunded');
    const after = await apiCall(server.url, 'GET', `/gateway/${id}`, server.merchant.test);
    expect(after.body).toMatchObject({ status: 'PARTIALLY_REFUNDED', amountRefunded: '1000' });
  });

  it('the audit log shows who did what', async () => {
    await owner.getByRole('link', { name: 'Audit log' }).click();
    await heading(owner, 'Audit log');
    await owner.getByRole('cell', { name: 'invitation.accepted' }).waitFor();
    await owner.getByRole('cell', { name: 'member.invited' }).waitFor();
    expect(await owner.getByRole('row', { name: /invitation\.accepted/ }).textContent()).toContain(ANALYST);
    expect(await owner.getByRole('row', { name: /payment\.refunded/ }).textContent()).toContain('1000');
    await expectAccessible(owner, ownerErrors, 'team-07-audit-log');
  });

  it("the owner removes the analyst: the analyst's next request is 401", async () => {
    await owner.getByRole('link', { name: 'Team' }).click();
    await heading(owner, 'Team');
    await owner.getByRole('button', { name: `Remove ${ANALYST}`, exact: true }).click();
    await owner.getByRole('button', { name: `Remove ${ANALYST} now` }).click();
    await expect.poll(() => owner.getByRole('status').first().textContent()).toContain(`${ANALYST} was removed`);
    await expect.poll(() => owner.getByRole('row', { name: new RegExp(ANALYST) }).count()).toBe(0);
    await expectAccessible(owner, ownerErrors, 'team-08-removed');

    const after = await fromPage(analyst, 'GET', '/test/payments');
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 'session_required' });
    // The page itself: back to sign-in.
    await analyst.reload();
    await heading(analyst, 'Sign in to your dashboard');
  });
});
