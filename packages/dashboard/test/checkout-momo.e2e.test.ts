import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type DashboardRun, expectAccessible, type Page, PHONE, type RunningServer, startDashboardRun } from './support.ts';

/**
 * The hosted checkout's mobile-money screens in Debian's Chromium, in French (fr-CM): the
 * methods with the operator suggested from the number, the wait for the approval with the USSD
 * code and the time left, a decline with "send again" and "pay another way" (on to the wallet),
 * and the success with the way back to the shop. The page and the intent are the real server's;
 * the direct-payment answers of docs/spec/mobile-money-payments.md (`GET /payment-methods`, `POST /charge` with a
 * method, the intent PROCESSING then settled) are played by the browser's network layer, so
 * these screens are checked (axe-core, screenshots) whatever the server's charge path does. The
 * example shop's end-to-end test pays through the real one.
 */
let run: DashboardRun;
let server: RunningServer;
let page: Page;

const RETURN_URL = 'https://shop.example/orders/42/done';
const METHODS = [
  {
    type: 'mobile_money',
    provider: 'mtn_momo',
    name: 'MTN MoMo',
    approval: 'phone_prompt',
    available: true,
    minAmount: '100',
    maxAmount: '500000',
    prefixes: ['+237650', '+237651', '+23767'],
    ussd: '*126#',
  },
  {
    type: 'mobile_money',
    provider: 'orange_money',
    name: 'Orange Money',
    approval: 'redirect',
    available: false,
    minAmount: '100',
    maxAmount: '500000',
    prefixes: ['+23769'],
    ussd: '#150#',
  },
  { type: 'wallet' },
];

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'checkout.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  run = await startDashboardRun({ ...PHONE, locale: 'fr-CM' });
  ({ server, page } = run);
});

afterAll(() => run?.stop());

const accessible = (name: string) => expectAccessible(page, run.errors, name);

/**
 * A real intent, and the docs/spec/mobile-money-payments.md answers around it: the attempt is PENDING for `readsToSettle`
 * reads of the intent, then SUCCEEDED, or FAILED with `failureCode` (the intent PENDING again).
 * With `untilSettled`, it stays PENDING until the test calls `settle()`, the page's waits held
 * meanwhile as the server holds them: the real intent is PENDING, so the server answers a wait on
 * PROCESSING at once and the page reads again at once, and a count of reads would end the wait
 * screen before a loaded machine's test had looked at it.
 */
async function intentWithDirectPayment(outcome: { failureCode?: string; readsToSettle?: number; untilSettled?: boolean }) {
  const res = await apiCall(server.url, 'POST', '/gateway', server.merchant.test, { amount: '5000', currency: 'XAF', description: 'Commande 42' });
  expect(res.status).toBe(201);
  const { sessionToken } = res.body as { sessionToken: string };
  const charges: unknown[] = [];
  let attempt: { status: string; reads: number } | undefined;
  let told = false;
  let release = () => {};
  const settled = new Promise<void>((resolve) => {
    release = resolve;
  });
  const settle = () => {
    told = true;
    release();
  };
  await page.route('**/payment-methods?*', (route) => route.fulfill({ json: { data: METHODS } }));
  await page.route('**/charge', async (route) => {
    charges.push(route.request().postDataJSON());
    attempt = { status: 'PENDING', reads: 0 };
    const intent = await (
      await route.fetch({ url: `${server.url}/gateway/sessions/${sessionToken}`, method: 'GET', headers: { 'x-api-key': server.merchant.test.apiKey } })
    ).json();
    const nextAction = {
      type: 'approve_on_phone',
      provider: 'mtn_momo',
      phoneNumber: '+237670000000',
      expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
      message: 'Approuvez',
      ussd: '*126#',
    };
    await route.fulfill({ status: 202, json: { ...intent, status: 'PROCESSING', returnUrl: RETURN_URL, nextAction } });
  });
  // With or without the long-poll's query (`?status=…&wait=…`): the read the page waits on.
  await page.route(new RegExp(`/gateway/sessions/${sessionToken}(\\?.*)?$`), async (route) => {
    const response = await route.fetch();
    const intent = { ...(await response.json()), returnUrl: RETURN_URL };
    if (outcome.untilSettled) {
      // A wait is held until the test settles the attempt; a plain read answers at once.
      if (attempt?.status === 'PENDING' && new URL(route.request().url()).searchParams.has('wait')) await settled;
      if (attempt?.status === 'PENDING' && told) attempt.status = outcome.failureCode ? 'FAILED' : 'SUCCEEDED';
    } else if (attempt?.status === 'PENDING' && ++attempt.reads >= (outcome.readsToSettle ?? 2)) attempt.status = outcome.failureCode ? 'FAILED' : 'SUCCEEDED';
    const status = attempt === undefined ? intent.status : { PENDING: 'PROCESSING', SUCCEEDED: 'SUCCEEDED', FAILED: 'PENDING' }[attempt.status];
    const attempts = attempt
      ? [
          {
            id: 'att_1',
            provider: 'mtn_momo',
            status: attempt.status,
            ...(attempt.status === 'FAILED' ? { failureCode: outcome.failureCode } : {}),
            createdAt: intent.createdAt,
          },
        ]
      : [];
    await route.fulfill({ response, json: { ...intent, status, attempts } });
  });
  return { sessionToken, charges, settle };
}

describe('the hosted checkout pays with mobile money', () => {
  it('in French: MTN suggested from the number, the wait says to dial *126# and counts down, then paid with the way back to the shop', async () => {
    const { sessionToken, charges, settle } = await intentWithDirectPayment({ untilSettled: true });
    await page.goto(`${server.url}/checkout/${sessionToken}`);
    await page.getByRole('heading', { name: 'Payer par mobile money' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Orange Money (indisponible pour le moment)' }).isDisabled()).toBe(true);
    await page.getByLabel('Numéro mobile money').fill('+237 670 00 00 00');
    expect(await page.getByRole('radio', { name: 'MTN MoMo' }).isChecked()).toBe(true);
    await accessible('momo-01-methods-fr');

    await page.getByRole('button', { name: /^Payer 5\s000\sFCFA avec MTN MoMo$/ }).click();
    await page.getByRole('heading', { name: 'Approuvez le paiement sur votre téléphone' }).waitFor();
    expect(await page.getByText('Composez *126# si la demande n’apparaît pas.').isVisible()).toBe(true);
    expect(await page.getByRole('timer').textContent()).toMatch(/^Temps restant pour approuver : [45]:\d\d$/);
    expect(charges).toEqual([
      { intentionId: expect.stringMatching(/^pi_/), paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: '+237670000000' } },
    ]);
    await accessible('momo-02-waiting-fr');

    settle();
    await page.getByRole('heading', { name: 'Paiement effectué' }).waitFor({ timeout: 30_000 });
    expect(await page.getByText(/^Merci : vous avez payé 5\s000\sFCFA à Boutique Akwa\.$/).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Retour à Boutique Akwa' }).getAttribute('href')).toBe(RETURN_URL);
    await accessible('momo-03-paid-fr');
    await page.unrouteAll({ behavior: 'wait' });
  });

  it('declined on the phone: says so, offers to send the request again or pay another way, on to the wallet', async () => {
    const { sessionToken, charges } = await intentWithDirectPayment({ failureCode: 'approval_rejected' });
    await page.goto(`${server.url}/checkout/${sessionToken}`);
    await page.getByLabel('Numéro mobile money').fill('+237670000105');
    await page.getByRole('button', { name: /avec MTN MoMo$/ }).click();
    await page.getByRole('heading', { name: 'Le paiement n’a pas abouti' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('alert').textContent()).toBe('Le paiement a été refusé sur le téléphone.');
    await accessible('momo-04-declined-fr');

    await page.getByRole('button', { name: 'Renvoyer la demande' }).click();
    // The failed heading is still on screen from the first request: wait for the second charge
    // itself, which a loaded machine may send after the next line would already have run.
    await expect.poll(() => charges.length, { timeout: 30_000 }).toBe(2);
    await page.getByRole('heading', { name: 'Le paiement n’a pas abouti' }).waitFor({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Payer autrement' }).click();
    await page.getByRole('button', { name: 'Payer avec mon portefeuille Caisse' }).click();
    await page.getByLabel(/^Numéro de téléphone/).waitFor();
    expect(await page.getByRole('button', { name: 'Payer autrement' }).isVisible()).toBe(true);
    await accessible('momo-05-wallet-fr');
    await page.unrouteAll({ behavior: 'wait' });
  });
});
