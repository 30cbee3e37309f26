import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type DashboardRun, expectAccessible, type Page, PHONE, type RunningServer, startDashboardRun } from './support.ts';

/**
 * The hosted checkout paying by card (docs/spec/card-payments.md), end to end in Debian's Chromium
 * and in French: an Ivorian merchant on the real server in development mode, whose in-process
 * sandbox plays the card route's provider. The payer chooses "Carte bancaire", is told each
 * missing detail next to its field, gives the card holder's details, types the card on the
 * sandbox's page (never on Caisse's), comes back to the checkout and sees the payment done once
 * the provider's notification, confirmed by a status read, has made the intent SUCCEEDED. Then a
 * method only an aggregator reaches there: Moov Money, through CinetPay's page.
 */
let run: DashboardRun;
let server: RunningServer;
let page: Page;

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'checkout.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  run = await startDashboardRun({ ...PHONE, locale: 'fr-CI' });
  ({ server, page } = run);
  await server.sql('update merchants set country = $1 where id = $2', ['CI', server.merchant.merchantId]);
});

afterAll(() => run?.stop());

async function intentInXof() {
  // A country changed in the database reaches the API once its cached keys expire (5 s): XOF may be refused until then.
  let res: Awaited<ReturnType<typeof apiCall>> | undefined;
  await expect
    .poll(
      async () =>
        (res = await apiCall(server.url, 'POST', '/gateway', server.merchant.test, { amount: '5000', currency: 'XOF', description: 'Commande 77' })).status,
      { timeout: 15_000, interval: 500 },
    )
    .toBe(201);
  return res?.body as { id: string; sessionToken: string };
}

describe('the hosted checkout pays by card', () => {
  it("an Ivorian merchant's checkout: the card holder's details, the card on the provider's page, then paid through the card route", async () => {
    const intent = await intentInXof();
    await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
    await page.getByRole('heading', { name: 'Payer par mobile money' }).waitFor();
    await page.getByRole('radio', { name: 'Carte bancaire' }).check();
    await page.getByRole('heading', { name: 'Payer par carte bancaire' }).waitFor();

    // Sent empty: each field says what is missing, next to it, and nothing is sent.
    const pay = page.getByRole('button', { name: /^Continuer pour payer 5\s000\sF\s?CFA par carte$/ });
    await pay.click();
    await expect.poll(() => page.getByText('Renseignez ce champ.').count()).toBe(8);
    expect(await page.getByLabel('Prénom').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Prénom').fill('Awa');
    await page.getByLabel('Nom', { exact: true }).fill('Koné');
    await page.getByLabel('Adresse e-mail').fill('awa@');
    await page.getByLabel('Numéro de téléphone').fill('07 01 02 03 04');
    await page.getByLabel('Adresse', { exact: true }).fill('Rue des Jardins, Cocody');
    await page.getByLabel('Ville').fill('Abidjan');
    await page.getByLabel('Code postal').fill('00225');
    await page.getByLabel('Pays').selectOption('CI');
    await pay.click();
    // The e-mail alone is refused, next to its field.
    await page.getByText('Saisissez une adresse e-mail valide, par exemple nom@exemple.com.').waitFor();
    expect(await page.getByText('Renseignez ce champ.').count()).toBe(0);
    await expectAccessible(page, run.errors, 'card-01-holder-fr');
    await page.getByLabel('Adresse e-mail').fill('awa.kone@example.ci');
    await pay.click();

    // The card provider's page (the sandbox's), where the card is typed.
    await page.waitForURL(/\/cinetpay\/pay\//);
    await page.getByLabel('Numéro de carte').fill('4000 0000 0000 0001');
    await page.getByRole('button', { name: 'Payer par carte' }).click();

    // Back on the checkout, which waits for the provider's outcome.
    await page.waitForURL(new RegExp(`/checkout/${intent.sessionToken}`));
    await page.getByRole('heading', { name: 'Paiement effectué' }).waitFor({ timeout: 30_000 });
    await page.getByText(/^(Merci : v|V)ous avez payé 5\s000\sF\s?CFA à Boutique Akwa\.$/).waitFor();
    await expectAccessible(page, run.errors, 'card-02-paid-fr');

    const paid = (await apiCall(server.url, 'GET', `/gateway/${intent.id}`, server.merchant.test)).body as {
      status: string;
      paymentMethod: { type: string };
      attempts: { provider: string; connector: string; status: string }[];
    };
    expect(paid.status).toBe('SUCCEEDED');
    expect(paid.paymentMethod.type).toBe('card');
    expect(paid.attempts.at(-1)).toMatchObject({ provider: 'card', connector: 'cinetpay', status: 'SUCCEEDED' });
  });

  it('an Ivorian payer pays Moov Money through CinetPay, the aggregator its route reaches it by, on its page', async () => {
    const created = await apiCall(server.url, 'POST', '/gateway', server.merchant.test, { amount: '2500', currency: 'XOF', description: 'Commande 43' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const intent = created.body as { id: string; sessionToken: string };
    await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
    await page.getByRole('heading', { name: 'Payer par mobile money' }).waitFor();
    // Moov Money once, by its brand; never the aggregator by its own name.
    expect(await page.getByRole('radio', { name: 'Moov Money' }).count()).toBe(1);
    expect(await page.getByRole('radio', { name: /CinetPay|pawaPay/i }).count()).toBe(0);
    // A Moov number as Ivorians write it suggests Moov Money.
    await page.getByLabel('Numéro mobile money').fill('01 23 45 60 42');
    expect(await page.getByRole('radio', { name: 'Moov Money' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: /avec Moov Money$/ }).click();

    // CinetPay's page (the sandbox's), the number carried over: the payer only approves.
    await page.waitForURL(/\/cinetpay\/pay\//);
    await page.getByRole('button', { name: 'Payer', exact: true }).click();

    await page.waitForURL(new RegExp(`/checkout/${intent.sessionToken}`));
    await page.getByRole('heading', { name: 'Paiement effectué' }).waitFor({ timeout: 30_000 });
    const paid = (await apiCall(server.url, 'GET', `/gateway/${intent.id}`, server.merchant.test)).body as {
      status: string;
      attempts: { provider: string; connector: string; status: string }[];
    };
    expect(paid.status).toBe('SUCCEEDED');
    expect(paid.attempts.at(-1)).toMatchObject({ provider: 'moov_money', connector: 'cinetpay', status: 'SUCCEEDED' });
  });
});
