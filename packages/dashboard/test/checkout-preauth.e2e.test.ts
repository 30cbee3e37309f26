import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type DashboardRun, expectAccessible, type Page, PHONE, type RunningServer, startDashboardRun } from './support.ts';

/**
 * The hosted checkout paying with a pre-authorisation code, end to end in Debian's Chromium and in
 * French (decision 0086): a Burkinabè merchant whose Orange Money goes through pawaPay, where
 * Orange prompts nobody: the payer makes a one-time code on the phone (the checkout says how) and
 * types it. The real server in development mode, its in-process sandbox playing pawaPay, which
 * refuses the code `000000`. A wrong code shows why, and a new one pays. Nothing is played by the browser.
 */
let run: DashboardRun;
let server: RunningServer;
let page: Page;

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'checkout.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  run = await startDashboardRun({ ...PHONE, locale: 'fr-BF' });
  ({ server, page } = run);
  await server.sql('update merchants set country = $1 where id = $2', ['BF', server.merchant.merchantId]);
  // Orange Money in Burkina Faso through pawaPay alone (as `caisse routes set --mode test --country BF --method orange_money --connectors pawapay`).
  await server.sql(
    `insert into payment_routes (mode, country, kind, method, connectors, updated_by, updated_at) values ('test', 'BF', 'payment', 'orange_money', '{pawapay}', 'e2e', now())
     on conflict (mode, country, kind, method) do update set connectors = excluded.connectors`,
  );
});

afterAll(() => run?.stop());

async function intentInXof() {
  // A country changed in the database reaches the API once its cached keys expire (5 s).
  let res: Awaited<ReturnType<typeof apiCall>> | undefined;
  await expect
    .poll(
      async () =>
        (res = await apiCall(server.url, 'POST', '/gateway', server.merchant.test, { amount: '5000', currency: 'XOF', description: 'Commande 42' })).status,
      { timeout: 15_000, interval: 500 },
    )
    .toBe(201);
  return res?.body as { id: string; sessionToken: string };
}

describe('the hosted checkout pays with a pre-authorisation code', () => {
  it('Orange Money in Burkina Faso: the code field says how to make it; a wrong code says so, a new one pays', async () => {
    const intent = await intentInXof();
    await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
    await page.getByRole('heading', { name: 'Payer par mobile money' }).waitFor();
    await page.getByLabel('Numéro mobile money').fill('07 70 01 00');
    await page.getByRole('radio', { name: 'Orange Money' }).check();
    const code = page.getByLabel('Code à usage unique Orange Money');
    await code.waitFor();
    await page.getByText(/composez \*144\*4\*6#, saisissez le montant et votre code PIN/).waitFor();
    await expectAccessible(page, run.errors, 'preauth-01-code-fr');

    // A code the operator refuses: the attempt fails, and the payer is told to make a new one.
    await code.fill('000000');
    await page.getByRole('button', { name: /avec Orange Money$/ }).click();
    await page.getByText('Orange Money a refusé ce code. Générez un nouveau code sur votre téléphone et saisissez-le ici.').waitFor({ timeout: 30_000 });
    const again = page.getByLabel('Code à usage unique Orange Money');
    expect(await again.inputValue()).toBe('');
    await expectAccessible(page, run.errors, 'preauth-02-refused-fr');
    expect((await apiCall(server.url, 'GET', `/gateway/${intent.id}`, server.merchant.test)).body).toMatchObject({
      status: 'PENDING',
      attempts: [expect.objectContaining({ connector: 'pawapay', status: 'FAILED', failureCode: 'pre_authorisation_code_invalid' })],
    });

    // A new code: paid.
    await again.fill('482913');
    await page.getByRole('button', { name: 'Renvoyer la demande' }).click();
    await page.getByRole('heading', { name: 'Paiement effectué' }).waitFor({ timeout: 30_000 });
    expect((await apiCall(server.url, 'GET', `/gateway/${intent.id}`, server.merchant.test)).body.status).toBe('SUCCEEDED');
    // Neither code is kept anywhere the attempt is.
    const stored = await server.sql('select * from payment_attempts where intent_id = $1', [intent.id]);
    expect(JSON.stringify(stored.rows)).not.toContain('482913');
  });
});
