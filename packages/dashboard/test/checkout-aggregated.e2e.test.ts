import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type DashboardRun, expectAccessible, type Page, PHONE, type RunningServer, startDashboardRun, startSandboxProcess } from './support.ts';

/**
 * Methods reached through an aggregator, in the hosted checkout in Debian's Chromium and in French
 * (decision 0084): a Beninese merchant's checkout, the real server in development mode against
 * `caisse sandbox` in a process of the test's own, with Moov Money and MTN MoMo routed to pawaPay.
 * The payer types a Moov number, checkout suggests Moov Money (a method no connector of its own
 * name reaches), the payment goes through pawaPay; the merchant refunds it and pawaPay's refund
 * reaches the phone. Then MTN MoMo, whose own connector serves Cameroon only, through pawaPay too.
 * (pawaPay has no Moov in Côte d'Ivoire: there Moov Money goes through CinetPay's page.)
 */
let run: DashboardRun;
let server: RunningServer;
let page: Page;
let sandbox: Awaited<ReturnType<typeof startSandboxProcess>>;

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'checkout.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  sandbox = await startSandboxProcess();
  const routed = (method: string) => ['routes', 'set', '--mode', 'test', '--country', 'BJ', '--method', method, '--connectors', 'pawapay'];
  run = await startDashboardRun(
    { ...PHONE, locale: 'fr-BJ' },
    { sandboxUrl: sandbox.url, country: 'BJ', commands: [routed('moov_money'), routed('mtn_momo')] },
  );
  ({ server, page } = run);
  // Three `caisse` commands and two processes to start: long on a machine busy with the suite.
}, 300_000);

afterAll(async () => {
  await run?.stop();
  await sandbox?.stop();
});

type Attempt = { provider: string; connector: string; status: string };
type Intent = { id: string; sessionToken: string; status: string; amountRefunded: string; attempts: Attempt[] };

async function newIntent(amount: string) {
  const res = await apiCall(server.url, 'POST', '/gateway', server.merchant.test, { amount, currency: 'XOF', description: 'Commande 42' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Intent;
}
const read = async (id: string) => (await apiCall(server.url, 'GET', `/gateway/${id}`, server.merchant.test)).body as Intent;

/** pawaPay's own record of the requests the sandbox received (`deposit`, `refund`). */
async function pawapayPayments(operation: string) {
  const res = await fetch(`${sandbox.url}/pawapay/_sandbox/payments`);
  const { data } = (await res.json()) as { data: { operation: string; status: string; amount: string; phoneNumber: string }[] };
  return data.filter((p) => p.operation === operation);
}

/** Types the number, checks the method checkout suggests from it, pays, and waits for the success screen. */
async function payInCheckout(intent: Intent, typed: string, method: string) {
  await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
  await page.getByRole('heading', { name: 'Payer par mobile money' }).waitFor();
  await page.getByLabel('Numéro mobile money').fill(typed);
  expect(await page.getByRole('radio', { name: method }).isChecked()).toBe(true);
  await page.getByRole('button', { name: new RegExp(`avec ${method}$`) }).click();
  await page.getByRole('heading', { name: 'Paiement effectué' }).waitFor({ timeout: 60_000 });
}

describe('a Beninese checkout pays through pawaPay', () => {
  it('lists Moov Money in French, suggests it from a Moov number, pays it through pawaPay; the refund reaches the phone', async () => {
    const intent = await newIntent('4000');
    await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
    await page.getByRole('heading', { name: 'Payer par mobile money' }).waitFor();
    // Each method once, never an aggregator by its own name.
    expect(await page.getByRole('radio', { name: 'MTN MoMo' }).count()).toBe(1);
    expect(await page.getByRole('radio', { name: 'Moov Money' }).count()).toBe(1);
    expect(await page.getByRole('radio', { name: /pawaPay|CinetPay/i }).count()).toBe(0);
    await page.getByLabel('Numéro mobile money').fill('01 45 11 22 33');
    expect(await page.getByRole('radio', { name: 'Moov Money' }).isChecked()).toBe(true);
    await expectAccessible(page, run.errors, 'aggregated-01-moov-suggested-fr');

    await page.getByRole('button', { name: /avec Moov Money$/ }).click();
    await page.getByRole('heading', { name: 'Paiement effectué' }).waitFor({ timeout: 60_000 });
    const paid = await read(intent.id);
    expect(paid.status).toBe('SUCCEEDED');
    expect(paid.attempts).toEqual([expect.objectContaining({ provider: 'moov_money', connector: 'pawapay', status: 'SUCCEEDED' })]);
    expect(await pawapayPayments('deposit')).toContainEqual(
      expect.objectContaining({ phoneNumber: expect.stringContaining('0145112233'), amount: '4000', status: 'COMPLETED' }),
    );

    // The merchant refunds it: pawaPay's refund operation, back to the same phone.
    const refund = await apiCall(server.url, 'POST', `/gateway/${intent.id}/refunds`, server.merchant.test, {});
    expect(refund.status, JSON.stringify(refund.body)).toBe(202);
    await expect.poll(async () => (await read(intent.id)).status, { timeout: 60_000, interval: 500 }).toBe('REFUNDED');
    expect((await read(intent.id)).amountRefunded).toBe('4000');
    expect(await pawapayPayments('refund')).toEqual([expect.objectContaining({ amount: '4000', status: 'COMPLETED' })]);
  }, 180_000);

  it('pays MTN MoMo through pawaPay, MTN’s own connector serving Cameroon only', async () => {
    const intent = await newIntent('2500');
    await payInCheckout(intent, '+229 01 97 12 34 56', 'MTN MoMo');
    expect((await read(intent.id)).attempts).toEqual([expect.objectContaining({ provider: 'mtn_momo', connector: 'pawapay', status: 'SUCCEEDED' })]);
  }, 180_000);
});
