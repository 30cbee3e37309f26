import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, customerPost, type DashboardRun, DESKTOP, expectAccessible, signInDashboard, startDashboardRun } from './support.ts';

/**
 * A payment paid by mobile money, in the dashboard (Debian's Chromium, a real server whose MoMo
 * sandbox runs in its process): its method with the masked number, fee and net, each attempt
 * (provider, masked number, provider reference, how it ended) and its refunds with their state.
 * Declined on the phone first (a number ending in 105), then paid, then refunded in part. An
 * Orange Money payment, which Caisse cannot refund, gets a refund recorded as made outside Caisse.
 */
let run: DashboardRun;

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'dashboard.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  run = await startDashboardRun(DESKTOP);
});

afterAll(() => run?.stop());

describe('a payment paid by mobile money', () => {
  it('shows its method, fee and net, its attempts with the provider reference, and its refunds with their state', async () => {
    const { server, page, errors } = run;
    const merchant = server.merchant.test;
    const created = await apiCall(server.url, 'POST', '/gateway', merchant, { amount: '5000', currency: 'XAF', description: 'Commande 77' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const sessionToken = created.body.sessionToken as string;
    const read = async () =>
      (await apiCall(server.url, 'GET', `/gateway/${id}`, merchant)).body as { status: string; attempts: { providerReference: string | null }[] };
    const payFrom = (phoneNumber: string) =>
      customerPost(
        server,
        '/charge',
        { intentionId: id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber } },
        { 'x-session-token': sessionToken },
        202,
      );

    // The sandbox's payer declines on the phone; the intent takes another attempt.
    await payFrom('+237670001105');
    await expect.poll(async () => (await read()).status, { timeout: 20_000, interval: 250 }).toBe('PENDING');
    await payFrom('+237670002000');
    await expect.poll(async () => (await read()).status, { timeout: 20_000, interval: 250 }).toBe('SUCCEEDED');
    const reference = (await read()).attempts[1]?.providerReference;
    expect(reference).toMatch(/^\d+$/);
    // Back to the payer's number through the provider.
    const refund = await apiCall(server.url, 'POST', `/gateway/${id}/refunds`, merchant, { amount: '1000' });
    expect(refund).toMatchObject({ status: 202, body: { status: 'PENDING' } });
    await expect.poll(async () => (await read()).status, { timeout: 20_000, interval: 250 }).toBe('PARTIALLY_REFUNDED');

    await signInDashboard(page, server);
    await page.goto(`${server.url}/dashboard/test/payments/${id}`);
    await page.getByRole('heading', { level: 2, name: 'Attempts' }).waitFor();
    // The provider's name arrives with the payment methods, a query of its own: until then the id.
    await expect.poll(() => page.locator('dl.summary').textContent()).toContain('MTN MoMo +237•••••••00');
    const summary = await page.locator('dl.summary').textContent();
    expect(summary).not.toContain('670002000');
    expect(summary).toMatch(/FeeFCFA.75/);
    expect(summary).toMatch(/NetFCFA.4,925/);

    const attempts = page.getByRole('region', { name: 'Attempts' });
    expect(await attempts.getByRole('row').count()).toBe(3);
    const rows = await attempts.getByRole('row').allTextContents();
    expect(rows[1]).toMatch(/failed.*approval_rejected/);
    expect(rows[2]).toContain(reference as string);

    const refunds = page.getByRole('region', { name: 'Refunds' });
    expect(await refunds.getByRole('row', { name: new RegExp(String(refund.body.id)) }).textContent()).toMatch(/succeeded/i);
    await expectAccessible(page, errors, 'payment-attempts');
  });

  it('paid with Orange Money, which cannot refund: the merchant records a refund made outside Caisse', async () => {
    const { server, page, errors } = run;
    const merchant = server.merchant.test;
    const created = await apiCall(server.url, 'POST', '/gateway', merchant, { amount: '5000', currency: 'XAF', description: 'Commande 78' });
    const id = created.body.id as string;
    const phoneNumber = '+237690003000';
    const started = await customerPost(
      server,
      '/charge',
      { intentionId: id, paymentMethod: { type: 'mobile_money', provider: 'orange_money', phoneNumber } },
      { 'x-session-token': created.body.sessionToken as string },
      202,
    );
    // The payer approves on the sandbox's page (its form's POST).
    const url = (started.nextAction as { url: string }).url;
    const approved = await fetch(url, { method: 'POST', body: new URLSearchParams({ action: 'approve', lang: 'en', phoneNumber }), redirect: 'manual' });
    expect(approved.status).toBeLessThan(400);
    const read = async () => (await apiCall(server.url, 'GET', `/gateway/${id}`, merchant)).body as { status: string; amountRefunded: string };
    await expect.poll(async () => (await read()).status, { timeout: 20_000, interval: 250 }).toBe('SUCCEEDED');
    const balance = async () => (await apiCall(server.url, 'GET', '/balance', merchant)).body;
    const before = await balance();

    // Signed in already when the test above ran.
    await page.goto(`${server.url}/dashboard`);
    const signIn = page.getByLabel('E-mail address');
    await signIn.or(page.getByRole('heading', { level: 1, name: 'Home' })).waitFor();
    if (await signIn.isVisible()) await signInDashboard(page, server);
    await page.goto(`${server.url}/dashboard/test/payments/${id}`);
    await page.getByRole('heading', { level: 2, name: 'Record a refund made outside Caisse' }).waitFor();
    // Caisse cannot send this money back: no refund button, the form in its place.
    expect(await page.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(0);
    await page.getByLabel('Amount paid back (XAF)').fill('2000');
    await page.getByLabel('How you paid it back').selectOption('bank_transfer');
    await page.getByLabel(/^Reference/).fill('VIR-2026-118');
    await page.getByRole('button', { name: 'Record the refund' }).click();
    await page.getByText('Refund recorded: the payment shows it; your balance did not change.').waitFor();

    const refunds = page.getByRole('region', { name: 'Refunds' }).first();
    await expect.poll(() => refunds.textContent()).toContain('Made outside Caisse: Bank transfer · ref. VIR-2026-118');
    expect(await read()).toMatchObject({ status: 'PARTIALLY_REFUNDED', amountRefunded: '2000' });
    expect(await balance()).toEqual(before);
    await expectAccessible(page, errors, 'payment-recorded-refund');
  });
});
