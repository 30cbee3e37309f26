import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type Browser,
  type BrowserContext,
  DESKTOP,
  launchChromium,
  type Page,
  PHONE,
  type RunningServer,
  screenshot,
  seriousViolations,
  startServer,
  watchConsole,
} from './support.ts';

/**
 * French and English (docs/spec/languages.md) in Debian's Chromium against a real server: the hosted
 * checkout and the dashboard's main pages, once with `Accept-Language: fr-CM` and once with
 * `en` (the browser context's locale sets the header and `navigator.languages`). Each run pays an
 * intent on the hosted checkout (the SMS code in the same language, read from the test outbox)
 * and walks the dashboard, asserting translated texts, amounts as Intl writes them for the locale
 * (`5 000 FCFA`, `FCFA 5,000`), dates, `<html lang>`, and axe-core on every screen (Balance's
 * statement and a payout made on the Payouts page included). Then the
 * customer's saved language beats the browser's, and the dashboard's language switch is
 * remembered for the user. Screenshots: test-results/lang-*.png.
 */
let server: RunningServer;
let browser: Browser;
let keys: { apiKey: string; secretKey: string };

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'checkout.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
  keys = server.merchant.test;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Intl separates French thousands with a narrow no-break space: `\s` in a pattern matches it. */
const LANGUAGES = [
  {
    locale: 'fr-CM',
    lang: 'fr',
    amount: /^5\s000\sFCFA$/,
    big: /^12\s500\sFCFA$/,
    fee: /^-75\sFCFA$/,
    date: /^\d{1,2} [a-zéû]+\.? \d{4}, \d{2}:\d{2}$/,
    smsCode: /^\d{6} est votre code Caisse pour payer 5 000 FCFA à Boutique Akwa\./,
    checkout: {
      wallet: 'Payer avec mon portefeuille Caisse',
      signIn: 'Connectez-vous pour payer',
      phone: /Numéro de téléphone/,
      password: 'Mot de passe',
      continue: 'Continuer',
      codeTitle: 'Saisissez votre code',
      code: 'Code',
      verify: 'Vérifier le code',
      wrongCode: 'Ce code n’est pas le bon. 4 essais restants.',
      confirm: 'Confirmez le paiement',
      pay: /^Payer 5\s000\sFCFA$/,
      done: 'Paiement effectué',
      paid: /^Vous avez payé 5\s000\sFCFA à Boutique Akwa\.$/,
      title: /^Payer 5\s000\sFCFA à Boutique Akwa$/,
      test: 'Mode test : aucun argent réel ne circule.',
    },
    dashboard: {
      signInTitle: 'Connectez-vous à votre tableau de bord',
      email: 'Adresse e-mail',
      password: 'Mot de passe',
      signIn: 'Se connecter',
      payments: 'Paiements',
      home: 'Accueil',
      pending: 'en attente',
      succeeded: 'réussi',
      customers: 'Clients',
      balance: 'Solde',
      statement: 'Mouvements du solde',
      fee: 'Frais',
      available: 'disponible',
      payouts: 'Virements',
      availableNow: 'Disponible maintenant',
      payoutAmount: /^Montant/,
      payoutPhone: /^Numéro mobile money/,
      payOut: 'Faire le virement',
      payoutCreated: /^Virement de 1\s000\sFCFA vers le \+237670000001 créé\./,
      openPayout: 'Ouvrir le virement',
      payoutHeading: /^Virement de 1\s000\sFCFA/,
      allPayouts: '← Tous les virements',
      schedule: 'Virements automatiques',
      weekly: /^Chaque semaine/,
      weekday: 'Jour de la semaine',
      friday: 'vendredi',
      webhooks: 'Webhooks',
      addEndpoint: 'Ajouter un point de terminaison',
      apiKeys: 'Clés d’API',
      testData: 'Données de test',
      outbox: 'Boîte d’envoi des messages',
      docTitle: 'Paiements · Tableau de bord Caisse',
    },
  },
  {
    locale: 'en',
    lang: 'en',
    amount: /^FCFA\s5,000$/,
    big: /^FCFA\s12,500$/,
    fee: /^-FCFA\s75$/,
    date: /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/,
    smsCode: /^\d{6} is your Caisse code to pay FCFA 5,000 to Boutique Akwa\./,
    checkout: {
      wallet: 'Pay with my Caisse wallet',
      signIn: 'Sign in to pay',
      phone: /Phone number/,
      password: 'Password',
      continue: 'Continue',
      codeTitle: 'Enter your code',
      code: 'Code',
      verify: 'Verify code',
      wrongCode: 'That code is not right. 4 tries left.',
      confirm: 'Confirm the payment',
      pay: /^Pay FCFA\s5,000$/,
      done: 'Payment complete',
      paid: /^You paid FCFA\s5,000 to Boutique Akwa\.$/,
      title: /^Pay FCFA\s5,000 to Boutique Akwa$/,
      test: 'Test mode: no real money moves.',
    },
    dashboard: {
      signInTitle: 'Sign in to your dashboard',
      email: 'E-mail address',
      password: 'Password',
      signIn: 'Sign in',
      payments: 'Payments',
      home: 'Home',
      pending: 'pending',
      succeeded: 'succeeded',
      customers: 'Customers',
      balance: 'Balance',
      statement: 'Balance transactions',
      fee: 'Fee',
      available: 'available',
      payouts: 'Payouts',
      availableNow: 'Available now',
      payoutAmount: /^Amount/,
      payoutPhone: /^Mobile-money number/,
      payOut: 'Pay out',
      payoutCreated: /^Payout of FCFA\s1,000 to \+237670000001 created\./,
      openPayout: 'Open the payout',
      payoutHeading: /^Payout FCFA\s1,000/,
      allPayouts: '← All payouts',
      schedule: 'Automatic payouts',
      weekly: /^Weekly/,
      weekday: 'Day of the week',
      friday: 'Friday',
      webhooks: 'Webhooks',
      addEndpoint: 'Add an endpoint',
      apiKeys: 'API keys',
      testData: 'Test data',
      outbox: 'Messages outbox',
      docTitle: 'Payments · Caisse dashboard',
    },
  },
] as const;

async function checked(page: Page, errors: string[], name: string) {
  await screenshot(page, `lang-${name}`);
  const violations = await seriousViolations(page);
  expect(violations, `${name}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
  expect(errors, `${name}: errors in the page`).toEqual([]);
}

async function newContext(locale: string, size: typeof DESKTOP | typeof PHONE = PHONE): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ ...size, locale });
  const page = await context.newPage();
  const errors: string[] = [];
  watchConsole(page, errors);
  return { context, page, errors };
}

/** The newest SMS of a user in the test outbox. */
async function latestSms(userId: string, about: RegExp): Promise<string> {
  let body = '';
  await expect
    .poll(async () => {
      const res = await apiCall(server.url, 'GET', `/test/messages?userId=${userId}`, keys);
      body = (res.body.data as { channel: string; body: string }[]).find((m) => m.channel === 'sms' && about.test(m.body))?.body ?? '';
      return body;
    })
    .not.toBe('');
  return body;
}

let phoneSeq = 10;
async function customer(extra: Record<string, unknown> = {}) {
  const phoneNumber = `+2376500077${String(phoneSeq++).padStart(2, '0')}`;
  const res = await apiCall(server.url, 'POST', '/test/users', keys, { phoneNumber, password: 'polyglot-pw-2026', balance: '20000', ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as string, phoneNumber, password: 'polyglot-pw-2026' };
}

describe.each(LANGUAGES)('in $locale', (L) => {
  it('the hosted checkout: texts, amounts, the SMS code and <html lang> in the language asked for', async () => {
    const buyer = await customer();
    const intent = await apiCall(server.url, 'POST', '/gateway', keys, { amount: '5000', currency: 'XAF', description: 'Ndolé' });
    const { context, page, errors } = await newContext(L.locale);
    await page.goto(`${server.url}/checkout/${intent.body.sessionToken as string}`);
    const C = L.checkout;
    // Mobile money comes first; this customer pays from their Caisse wallet.
    await page.getByRole('button', { name: C.wallet }).click();
    await page.getByRole('heading', { name: C.signIn }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(L.lang);
    expect(await page.locator('header .amount').textContent()).toMatch(L.amount);
    expect(await page.getByRole('note').textContent()).toBe(C.test.replace(' :', '\u00a0:'));
    await expect.poll(() => page.title()).toMatch(C.title);
    await checked(page, errors, `checkout-${L.locale}-sign-in`);

    await page.getByLabel(C.phone).fill(buyer.phoneNumber);
    await page.getByLabel(C.password, { exact: true }).fill(buyer.password);
    await page.getByRole('button', { name: C.continue }).click();
    await page.getByRole('heading', { name: C.codeTitle }).waitFor();
    // The code's SMS is in the browser's language too (the customer saved none).
    const sms = await latestSms(buyer.id, /\d{6}/);
    expect(sms).toMatch(L.smsCode);
    const code = /\b(\d{6})\b/.exec(sms)?.[1] as string;
    await page.getByLabel(C.code, { exact: true }).fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: C.verify }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(C.wrongCode);
    await checked(page, errors, `checkout-${L.locale}-code`);

    await page.getByLabel(C.code, { exact: true }).fill(code);
    await page.getByRole('button', { name: C.verify }).click();
    await page.getByRole('heading', { name: C.confirm }).waitFor();
    await page.getByRole('button', { name: C.pay }).click();
    await page.getByRole('heading', { name: C.done }).waitFor();
    expect(await page.locator('.outcome p').first().textContent()).toMatch(C.paid);
    await checked(page, errors, `checkout-${L.locale}-paid`);
    await context.close();
  });

  it("the dashboard's main pages: texts, amounts, dates and <html lang>", async () => {
    await apiCall(server.url, 'POST', '/gateway', keys, { amount: '12500', currency: 'XAF', description: `Order ${L.locale}` });
    const { context, page, errors } = await newContext(L.locale, DESKTOP);
    const D = L.dashboard;
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('heading', { name: D.signInTitle }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(L.lang);
    await checked(page, errors, `dashboard-${L.locale}-sign-in`);
    await page.getByLabel(D.email).fill(server.merchant.dashboard.email);
    await page.getByLabel(D.password).fill(server.merchant.dashboard.password);
    await page.getByRole('button', { name: D.signIn }).click();

    // Sign-in lands on Home (issue 22); the payments are one link away.
    await page.getByRole('heading', { level: 1, name: D.home }).waitFor();
    await page.getByRole('link', { name: D.payments, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: D.payments }).waitFor();
    await expect.poll(() => page.title()).toBe(D.docTitle);
    const row = page.getByRole('row', { name: new RegExp(`Order ${L.locale}`) });
    const cells = row.getByRole('cell');
    expect(await cells.nth(1).textContent()).toMatch(L.big);
    expect(await cells.nth(0).textContent()).toMatch(L.date);
    expect(await cells.nth(2).textContent()).toBe(D.pending);
    // The payment the checkout made: its amount and status in words.
    expect(await page.getByRole('row', { name: /Ndolé/ }).first().getByRole('cell').nth(1).textContent()).toMatch(L.amount);
    await checked(page, errors, `dashboard-${L.locale}-payments`);

    await row.getByRole('link').click();
    // The heading: the amount, then the status badge.
    await page.getByRole('heading', { level: 1, name: new RegExp(L.big.source.replace(/\$$/, '')) }).waitFor();
    await checked(page, errors, `dashboard-${L.locale}-payment`);

    // The checkout's payment made available, so that Balance shows it settled and Payouts can pay it out.
    expect((await apiCall(server.url, 'POST', '/test/balance/settle', keys)).status).toBe(200);
    const pages: [string, string][] = [
      ['customers', D.customers],
      ['balance', D.balance],
      ['payouts', D.payouts],
      ['webhooks', D.webhooks],
      ['settings/api-keys', D.apiKeys],
      ['test-data', D.testData],
    ];
    for (const [path, title] of pages) {
      await page.getByRole('navigation').getByRole('link', { name: title }).click();
      await page.waitForURL(`**/dashboard/test/${path}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      if (path === 'balance') {
        expect(await page.locator('table.balance-table td.num').first().textContent()).toMatch(/\d/);
        // The newest fee of the statement: its date, type, amount and status in the language.
        const fee = page.getByRole('region', { name: D.statement }).getByRole('row').filter({ hasText: D.fee }).first();
        const cells = fee.getByRole('cell');
        await expect.poll(() => cells.nth(1).textContent()).toBe(D.fee);
        expect(await cells.nth(0).textContent()).toMatch(L.date);
        expect(await cells.nth(2).textContent()).toMatch(L.fee);
        expect(await cells.nth(4).textContent()).toBe(D.available);
      }
      if (path === 'payouts') {
        await expect.poll(() => page.getByRole('region', { name: D.availableNow }).textContent()).toMatch(/FCFA/);
        await page.getByLabel(D.payoutAmount).fill('1000');
        await page.getByLabel(D.payoutPhone).fill('+237670000001');
        await page.getByRole('button', { name: D.payOut }).click();
        await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(D.payoutCreated);
        // Weekdays are named by Intl in the language.
        const schedule = page.getByRole('form', { name: D.schedule });
        await schedule.getByLabel(D.weekly).check();
        expect(await schedule.getByLabel(D.weekday).locator('option[value="friday"]').textContent()).toBe(D.friday);
        await page.getByRole('link', { name: D.openPayout }).click();
        await page.getByRole('heading', { level: 1, name: D.payoutHeading }).waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(L.lang);
        await checked(page, errors, `dashboard-${L.locale}-payout`);
        await page.getByRole('link', { name: D.allPayouts }).click();
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
      }
      if (path === 'webhooks') await page.getByRole('heading', { name: D.addEndpoint }).waitFor();
      if (path === 'test-data') await page.getByRole('heading', { name: D.outbox }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(L.lang);
      await checked(page, errors, `dashboard-${L.locale}-${path.replace('/', '-')}`);
    }
    await context.close();
  });
});

describe('choices that outrank the browser', () => {
  it("the customer's saved language wins on the hosted checkout once they sign in", async () => {
    const buyer = await customer({ language: 'fr' });
    const intent = await apiCall(server.url, 'POST', '/gateway', keys, { amount: '5000', currency: 'XAF' });
    const { context, page, errors } = await newContext('en');
    await page.goto(`${server.url}/checkout/${intent.body.sessionToken as string}`);
    // Mobile money comes first; this customer pays from their Caisse wallet.
    await page.getByRole('button', { name: 'Pay with my Caisse wallet' }).click();
    await page.getByRole('heading', { name: 'Sign in to pay' }).waitFor();
    await page.getByLabel(/Phone number/).fill(buyer.phoneNumber);
    await page.getByLabel('Password', { exact: true }).fill(buyer.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Saisissez votre code' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    expect(await page.locator('header .amount').textContent()).toMatch(/^5\s000\sFCFA$/);
    expect(await latestSms(buyer.id, /\d{6}/)).toMatch(/^\d{6} est votre code Caisse pour payer 5 000 FCFA/);
    await checked(page, errors, 'checkout-saved-fr');
    await context.close();
  });

  /** A new English browser signed in to the dashboard, on the page titled `heading`. */
  async function signedIn(heading: string) {
    const opened = await newContext('en', DESKTOP);
    await opened.page.goto(`${server.url}/dashboard`);
    await opened.page.getByLabel('E-mail address').fill(server.merchant.dashboard.email);
    await opened.page.getByLabel('Password').fill(server.merchant.dashboard.password);
    await opened.page.getByRole('button', { name: 'Sign in' }).click();
    await opened.page.getByRole('heading', { level: 1, name: heading }).waitFor();
    return opened;
  }

  it("the dashboard's language switch is saved for the user: it outlives a reload and a new browser", async () => {
    const first = await signedIn('Home');
    // The switch shows French at once and saves it in the background: reload once it is saved
    // (a reload cancels a request still queued behind the Home page's own).
    const saved = first.page.waitForResponse((r) => r.url().endsWith('/dashboard/api/session') && r.request().method() === 'PATCH');
    await first.page.getByLabel('Language').selectOption('fr');
    expect((await saved).status()).toBe(200);
    await first.page.getByRole('heading', { level: 1, name: 'Accueil' }).waitFor();
    expect(await first.page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await first.page.reload();
    await first.page.getByRole('heading', { level: 1, name: 'Accueil' }).waitFor();
    await checked(first.page, first.errors, 'dashboard-switched-fr');
    await first.context.close();

    const second = await signedIn('Accueil');
    await second.page.getByLabel('Langue').selectOption('en');
    await second.page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await second.context.close();
  });
});
