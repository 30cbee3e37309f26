import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type DashboardRun, expectAccessible, type Page, PHONE, type RunningServer, startDashboardRun, startSandboxProcess } from './support.ts';

/**
 * Provider health as the payer sees it, in Debian's Chromium and in French: the real server in
 * development mode against `caisse sandbox` in a process of the test's own. MTN's API is made to
 * hang; a few charges time out (each call bounded to 3 s, CAISSE_MOMO_TIMEOUT_MS) and the hosted
 * checkout shows MTN MoMo greyed with its message while Orange Money still pays. MTN answers
 * again and comes back by itself after the cool-down (5 s here, CAISSE_PROVIDER_COOLDOWN_MS).
 */
let run: DashboardRun;
let server: RunningServer;
let page: Page;
let sandbox: Awaited<ReturnType<typeof startSandboxProcess>>;

const COOL_DOWN_MS = 5_000;
// Short, so that the hang shows quickly, yet well above what the sandbox takes to answer on a
// machine busy with the whole suite: an answer slowed by the load must not read as MTN hanging.
const CALL_TIMEOUT_MS = 3_000;

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'checkout.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  sandbox = await startSandboxProcess();
  run = await startDashboardRun(
    { ...PHONE, locale: 'fr-CM' },
    {
      sandboxUrl: sandbox.url,
      env: { CAISSE_MOMO_TIMEOUT_MS: String(CALL_TIMEOUT_MS), CAISSE_PROVIDER_COOLDOWN_MS: String(COOL_DOWN_MS) },
      // MTN MoMo through MTN's own API alone: with an aggregator's route after it, the method would stay offered through that.
      commands: [['routes', 'set', '--mode', 'test', '--country', 'CM', '--method', 'mtn_momo', '--connectors', 'mtn_momo']],
    },
  );
  ({ server, page } = run);
}, 120_000);

afterAll(async () => {
  await run?.stop();
  await sandbox?.stop();
});

async function newIntent() {
  const res = await apiCall(server.url, 'POST', '/gateway', server.merchant.test, { amount: '5000', currency: 'XAF', description: 'Commande 42' });
  expect(res.status).toBe(201);
  return res.body as { id: string; sessionToken: string };
}

/** Whether `GET /payment-methods` offers MTN MoMo as answering, for this intent. */
async function mtnAvailable(sessionToken: string) {
  const res = await fetch(`${server.url}/payment-methods?sessionToken=${encodeURIComponent(sessionToken)}`, {
    headers: { 'x-api-key': server.merchant.test.apiKey },
  });
  const { data } = (await res.json()) as { data: { provider?: string; available?: boolean }[] };
  return data.find((m) => m.provider === 'mtn_momo')?.available;
}

/** A charge with MTN MoMo from an approving sandbox number; the answer whatever it is. */
async function chargeMtn(intent: { id: string; sessionToken: string }, phoneNumber: string) {
  const res = await fetch(`${server.url}/charge`, {
    method: 'POST',
    headers: { 'x-api-key': server.merchant.test.apiKey, 'x-session-token': intent.sessionToken, 'content-type': 'application/json' },
    body: JSON.stringify({ intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber } }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function openCheckout(intent: { sessionToken: string }) {
  await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
  await page.getByRole('heading', { name: 'Payer par mobile money' }).waitFor();
}

describe('a provider that stops answering, seen in the hosted checkout', () => {
  it('MTN hangs: a few charges time out, checkout greys MTN MoMo within a minute, Orange Money still pays', async () => {
    const first = await newIntent();
    await openCheckout(first);
    expect(await page.getByRole('radio', { name: 'MTN MoMo' }).isDisabled()).toBe(false);

    await sandbox.setFaults({ hang: true });
    const started = Date.now();
    // Five outcomes decide (HealthRules.minOutcomes); each charge waits for MTN's bounded call.
    for (let i = 0; i < 5; i++) await chargeMtn(await newIntent(), `+23767000${2000 + i}`);
    await expect.poll(() => mtnAvailable(first.sessionToken), { timeout: 60_000, interval: 500 }).toBe(false);
    expect(Date.now() - started).toBeLessThan(60_000);
    // A charge now is refused at once rather than left waiting for a prompt that never comes.
    expect(await chargeMtn(await newIntent(), '+237670002010')).toMatchObject({ status: 503, body: { code: 'provider_unavailable' } });

    const intent = await newIntent();
    await openCheckout(intent);
    const mtn = page.getByRole('radio', { name: 'MTN MoMo (indisponible pour le moment)' });
    await mtn.waitFor();
    expect(await mtn.isDisabled()).toBe(true);
    await expectAccessible(page, run.errors, 'health-01-mtn-unavailable-fr');

    // Orange Money pays through its own page meanwhile.
    await page.getByRole('radio', { name: 'Orange Money' }).check();
    await page.getByLabel('Numéro mobile money').fill('+237 690 00 12 34');
    await page.getByRole('button', { name: /avec Orange Money$/ }).click();
    await page.waitForURL(/\/orange-money\/pay\//);
    await page.getByRole('button', { name: 'Approuver le paiement' }).waitFor();
    const field = page.getByLabel('Votre numéro');
    if ((await field.inputValue()) === '') await field.fill('+237690001234');
    await page.getByRole('button', { name: 'Approuver le paiement' }).click();
    await page.waitForURL(new RegExp(`/checkout/${intent.sessionToken}`));
    await page.getByRole('heading', { name: 'Paiement effectué' }).waitFor({ timeout: 30_000 });
    expect((await apiCall(server.url, 'GET', `/gateway/${intent.id}`, server.merchant.test)).body.status).toBe('SUCCEEDED');
  }, 120_000);

  it('MTN answers again: after the cool-down it is offered again and pays', async () => {
    await sandbox.setFaults({ hang: false });
    const intent = await newIntent();
    // Nobody switches it back: the cool-down passes, a call gets through and answers.
    await expect.poll(() => mtnAvailable(intent.sessionToken), { timeout: 30_000, interval: 500 }).toBe(true);
    // A status read begun while MTN hung may still time out after the cool-down and close it once
    // more for a cool-down: the page is opened again, and a refused charge (503, before any
    // attempt) tried again, as a payer would.
    const mtn = page.getByRole('radio', { name: 'MTN MoMo' });
    await expect
      .poll(
        async () => {
          await openCheckout(intent);
          await mtn.waitFor();
          return mtn.isDisabled();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(false);
    await expect.poll(async () => (await chargeMtn(intent, '+237670002020')).status, { timeout: 30_000, interval: 500 }).toBe(202);
    await expect
      .poll(async () => (await apiCall(server.url, 'GET', `/gateway/${intent.id}`, server.merchant.test)).body.status, { timeout: 30_000, interval: 250 })
      .toBe('SUCCEEDED');
    // Offered after paying too: on a machine busy with the whole suite, calls slowed past their
    // bound can close it once more for a cool-down, so this waits that long rather than reading once.
    await expect.poll(() => mtnAvailable(intent.sessionToken), { timeout: 3 * COOL_DOWN_MS, interval: 500 }).toBe(true);
    expect(run.errors).toEqual([]);
  }, 90_000);
});
