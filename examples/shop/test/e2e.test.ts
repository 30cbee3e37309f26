/**
 * End to end: the real Caisse server process, the example shop process, and a real Chromium.
 * A customer buys a basket of mangoes: Buy → phone and password → the SMS code (read from the
 * test outbox) → Pay; the shop marks the order paid when Caisse's signed webhook arrives. A
 * second customer's wallet is short: the checkout offers a top-up by MTN MoMo (Caisse's MoMo
 * sandbox, which development mode runs in the server's process, approves it), then the payment
 * goes on the same way. Screenshots of the top-up steps go to examples/shop/test-results/.
 *
 * Caisse runs on a fresh database: a temporary PGlite data directory, or, when
 * TEST_DATABASE_URL is set, a fresh PostgreSQL database made for this run and dropped after.
 * Chromium is Debian's: its headless shell (/usr/bin/chromium-headless-shell) when installed,
 * else /usr/bin/chromium, or CHROMIUM_PATH; .ci/run installs both.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Caisse, generateTestHeader } from '@caisse/node';
import pg from 'pg';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const CHROMIUM = process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The headless shell sends no Accept-Language of its own.
  '--accept-lang=en-US',
  // One renderer process per context, not one per navigation (each costs CPU to start).
  '--renderer-process-limit=1',
];
const PHONE = '+237650001234';
/** A customer with 1 500 of the 5 000 XAF in the wallet. */
const SHORT_PHONE = '+237650005678';
const PASSWORD = 'correct horse battery staple';
const RESULTS = resolve(import.meta.dirname, '../test-results');

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolvePort(port));
    });
  });
}

interface Proc {
  child: ChildProcess;
  output: string[];
}

function start(name: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Proc {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(
      ...String(chunk)
        .split('\n')
        .filter(Boolean)
        .map((l) => `[${name}] ${l}`),
    );
    if (output.length > 400) output.splice(0, output.length - 400);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output };
}

async function stop(proc: Proc | undefined): Promise<void> {
  if (!proc || proc.child.exitCode !== null || proc.child.pid === undefined) return;
  const exited = new Promise<void>((r) => proc.child.once('exit', () => r()));
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Polls `url` until it answers 200: the processes are real, so readiness takes real time. */
async function waitFor200(url: string, proc: Proc, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`process exited (${proc.child.exitCode}) before ${url} answered:\n${proc.output.join('\n')}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${proc.output.join('\n')}`);
}

describe('a purchase from the example shop, end to end', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'caisse-e2e-'));
  let database: { admin: string; name: string } | undefined;
  let server: Proc | undefined;
  let shop: Proc | undefined;
  let browser: Browser | undefined;
  let apiUrl = '';
  let shopUrl = '';
  let caisse: Caisse;

  beforeAll(async () => {
    // CAISSE_PGLITE_BASELINE: a server that lives seconds is cheaper on V8's baseline compiler.
    const env: NodeJS.ProcessEnv = { ...process.env, CAISSE_DATA_DIR: dataDir, LOG_LEVEL: 'warn', CAISSE_MODE: 'development', CAISSE_PGLITE_BASELINE: 'true' };
    delete env.DATABASE_URL;
    delete env.CAISSE_MASTER_KEY;
    // Development mode without a sandbox URL runs the providers' sandbox in the server's process,
    // with its callbacks to this server: test-mode top-ups need nothing else.
    for (const name of ['CAISSE_SANDBOX_URL', 'CAISSE_SANDBOX_CALLBACKS_URL', 'CAISSE_MOMO_SANDBOX_URL', 'CAISSE_MOMO_SANDBOX_CALLBACK_URL']) delete env[name];
    if (process.env.TEST_DATABASE_URL) {
      const name = `caisse_e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      database = { admin: process.env.TEST_DATABASE_URL, name };
      const url = new URL(process.env.TEST_DATABASE_URL);
      url.pathname = `/${name}`;
      env.DATABASE_URL = url.toString();
    }

    // A merchant with test keys, made by the CLI on the same database before the server opens it.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['packages/server/bin/caisse.js', 'merchants', 'create', '--name', 'Mango Market', '--json'],
      {
        cwd: ROOT,
        env,
      },
    );
    const keys = JSON.parse(stdout.slice(stdout.search(/^\{$/m))) as { test: { apiKey: string; secretKey: string } };

    // A free port can be taken (as another connection's ephemeral port) before the server binds
    // it: then another port, up to three times.
    for (let attempt = 1; ; attempt++) {
      const apiPort = await freePort();
      apiUrl = `http://127.0.0.1:${apiPort}`;
      server = start('caisse', ['packages/server/bin/caisse.js', 'start', '--port', String(apiPort)], env);
      try {
        await waitFor200(`${apiUrl}/readyz`, server);
        break;
      } catch (err) {
        if (attempt === 3 || !server.output.some((l) => l.includes('EADDRINUSE'))) throw err;
      }
    }

    const shopPort = await freePort();
    shopUrl = `http://127.0.0.1:${shopPort}`;
    shop = start(
      'shop',
      ['--conditions=source', '--import', 'tsx', 'src/main.ts'],
      { ...process.env, CAISSE_BASE_URL: apiUrl, CAISSE_API_KEY: keys.test.apiKey, CAISSE_SECRET_KEY: keys.test.secretKey, PORT: String(shopPort) },
      resolve(ROOT, 'examples/shop'),
    );
    await waitFor200(`${shopUrl}/healthz`, shop);

    caisse = new Caisse({ ...keys.test, baseUrl: apiUrl });
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium-headless-shell (or set CHROMIUM_PATH)`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await stop(shop);
    await stop(server);
    if (database) {
      const admin = new pg.Client({ connectionString: database.admin });
      await admin.connect();
      await admin.query(`drop database if exists ${database.name} with (force)`);
      await admin.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the customer pays in Chromium and the webhook, not the browser, marks the order paid', async () => {
    onTestFailed(() => {
      process.stderr.write(`${[...(server?.output ?? []), ...(shop?.output ?? [])].slice(-80).join('\n')}\n`);
    });
    const customer = await caisse.testHelpers.createUser({ phoneNumber: PHONE, password: PASSWORD, balance: '100000', currency: 'XAF' });

    const context = await browser!.newContext();
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') pageErrors.push(msg.text());
    });

    // The shop: Buy creates the order and its payment intent, then shows the checkout.
    await page.goto(shopUrl);
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.waitForURL(/\/orders\/ord_[0-9a-f]+$/);
    const orderId = /\/orders\/(ord_[0-9a-f]+)$/.exec(page.url())![1]!;
    const checkout = page.getByRole('region', { name: /Pay FCFA\s5,000/ });
    await checkout.waitFor();
    // Mobile money comes first; this customer pays from their Caisse wallet.
    await page.getByRole('button', { name: 'Pay with my Caisse wallet' }).click();
    await expectAccessible(page);

    // "Forgot password?" opens the reset with the number typed so far, accessible too; back to sign-in keeps it.
    expect(await checkout.textContent()).toContain('Your Caisse account works at every shop that uses Caisse.');
    await page.getByLabel('Phone number').fill(PHONE);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('button', { name: 'Send code' }).waitFor();
    expect(await page.getByLabel('Phone number').inputValue()).toBe(PHONE);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Back to sign in' }).click();
    await page.getByRole('button', { name: 'Continue' }).waitFor();

    // Sign in with phone number and password; the code goes out by SMS (the test outbox).
    await page.getByLabel('Phone number').fill(PHONE);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Password').press('Enter');
    const codeField = page.getByLabel('Verification code');
    await codeField.waitFor();
    await expectAccessible(page);
    const messages = await caisse.testHelpers.listMessages({ userId: customer.id });
    const sms = messages.data[0];
    expect(sms?.channel).toBe('sms');
    const code = /\b(\d{6})\b/.exec(sms?.body ?? '')?.[1];
    expect(code, `a 6-digit code in "${sms?.body}"`).toBeDefined();
    // In the browser's language (the customer saved none): English, as Intl writes it.
    expect(sms?.body).toContain('to pay FCFA 5,000 to Mango Market');

    await codeField.fill(code!);
    await codeField.press('Enter');
    await page.getByRole('button', { name: /^Pay FCFA\s5,000$/ }).click();
    await page.getByText(/you paid FCFA\s5,000 to Mango Market/).waitFor();

    // The page shows "paid" only once the shop's server says so, which only the webhook does.
    await page.locator('#order-status[data-status="paid"]').waitFor({ timeout: 30_000 });
    const order = (await (await fetch(`${shopUrl}/orders/${orderId}/status`)).json()) as { status: string; paidByEvent: string };
    expect(order.status).toBe('paid');
    expect(order.paidByEvent).toMatch(/^evt_/);

    // The event that paid it is Caisse's payment.completed for this order's intent.
    const event = await caisse.events.retrieve(order.paidByEvent);
    expect(event.type).toBe('payment.completed');
    expect(event.data.paymentIntent.metadata).toEqual({ orderId });
    expect(event.data.paymentIntent.status).toBe('SUCCEEDED');
    const intent = await caisse.intents.retrieve(event.data.paymentIntent.id);
    // The default fee is 1.5 %: the merchant receives 4 925 of the 5 000.
    expect(intent).toMatchObject({ status: 'SUCCEEDED', amount: '5000', currency: 'XAF', fee: '75', net: '4925' });
    const balance = await caisse.balance.retrieve();
    expect(JSON.stringify(balance)).toContain('4925');

    // The browser kept every token in memory: no storage, no cookie, nothing in the page.
    const stored = await page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length, cookie: document.cookie }));
    expect(stored).toEqual({ local: 0, session: 0, cookie: '' });
    expect(await context.cookies()).toEqual([]);
    expect(await page.content()).not.toMatch(/eyJ[\w-]+\.eyJ/);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('a customer whose wallet is short tops it up with MTN MoMo in the checkout, then pays; the webhook marks the order paid', async () => {
    onTestFailed(() => {
      process.stderr.write(`${[...(server?.output ?? []), ...(shop?.output ?? [])].slice(-80).join('\n')}\n`);
    });
    const customer = await caisse.testHelpers.createUser({ phoneNumber: SHORT_PHONE, password: PASSWORD, balance: '1500', currency: 'XAF' });
    const context = await browser!.newContext({ viewport: { width: 480, height: 900 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') pageErrors.push(msg.text());
    });
    mkdirSync(RESULTS, { recursive: true });

    await page.goto(shopUrl);
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.waitForURL(/\/orders\/ord_[0-9a-f]+$/);
    const orderId = /\/orders\/(ord_[0-9a-f]+)$/.exec(page.url())![1]!;
    await page.getByRole('region', { name: /Pay FCFA\s5,000/ }).waitFor();
    await page.getByRole('button', { name: 'Pay with my Caisse wallet' }).click();
    await page.getByLabel('Phone number').fill(SHORT_PHONE);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Password').press('Enter');

    // The wallet holds 1 500: the checkout offers the 3 500 missing, before any code is sent.
    const offer = page.getByRole('button', { name: /^Top up FCFA\s3,500 with MTN MoMo$/ });
    await offer.waitFor();
    const status = page.locator('.caisse-checkout [role="status"]');
    expect(await status.textContent()).toMatch(/^Your wallet is FCFA\s3,500 short of this payment\.$/);
    expect(await page.getByLabel('MTN MoMo number').inputValue()).toBe(SHORT_PHONE);
    expect((await caisse.testHelpers.listMessages({ userId: customer.id })).data).toEqual([]);
    await expectAccessible(page);
    await page.screenshot({ path: join(RESULTS, 'shop-topup-offer.png'), fullPage: true });

    // The customer's own number: the sandbox approves about a second later. Its answers about the
    // top-up are held back a moment, to look at the wait for approval.
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/wallet/topups/top_*', async (route) => {
      await held;
      await route.continue();
    });
    await offer.click();
    await expect.poll(() => status.textContent()).toMatch(/^Approve the top-up of FCFA\s3,500 on your phone \(\+237650005678\)\. Waiting for MTN MoMo…$/);
    expect(await page.getByText('Keep this page open: the payment goes on once you approve.').isVisible()).toBe(true);
    await expectAccessible(page);
    await page.screenshot({ path: join(RESULTS, 'shop-topup-awaiting-approval.png'), fullPage: true });
    release();
    // Waits for the held answers to go through before the handler is removed.
    await page.unrouteAll({ behavior: 'wait' });

    // Approved: the wallet holds the 5 000 now, and the payment's code went out by SMS.
    const codeField = page.getByLabel('Verification code');
    await codeField.waitFor({ timeout: 30_000 });
    expect(await status.textContent()).toMatch(/^Your wallet was topped up with FCFA\s3,500\. A code was sent to /);
    await page.screenshot({ path: join(RESULTS, 'shop-topup-received.png'), fullPage: true });
    const sms = (await caisse.testHelpers.listMessages({ userId: customer.id })).data[0];
    const code = /\b(\d{6})\b/.exec(sms?.body ?? '')?.[1];
    expect(code, `a 6-digit code in "${sms?.body}"`).toBeDefined();
    await codeField.fill(code!);
    await codeField.press('Enter');
    await page.getByRole('button', { name: /^Pay FCFA\s5,000$/ }).click();
    await page.getByText(/you paid FCFA\s5,000 to Mango Market/).waitFor();

    // The webhook, not the browser, marks the order paid.
    expect(await expectPaidByWebhook(page, orderId)).toMatchObject({ status: 'SUCCEEDED', amount: '5000', attempts: 1 });
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  // docs/spec/languages.md: <Checkout/> without a `locale` speaks the browser's language, and so do the
  // customer's SMS; amounts as Intl writes them there. Screenshots: shop-<locale>-*.png.
  const LANGUAGES = [
    {
      locale: 'fr-CM',
      phone: '+237650008801',
      region: /^Payer 5\s000\sFCFA$/,
      wallet: 'Payer avec mon portefeuille Caisse',
      everyShop: 'Votre compte Caisse fonctionne dans toutes les boutiques qui utilisent Caisse.',
      phoneLabel: 'Numéro de téléphone',
      password: 'Mot de passe',
      code: 'Code de vérification',
      sent: /^Un code a été envoyé à \+237/,
      sms: /^\d{6} est votre code Caisse pour payer 5 000 FCFA à Mango Market\./,
      pay: /^Payer 5\s000\sFCFA$/,
      thanks: /^Merci\s: vous avez payé 5\s000\sFCFA à Mango Market\.$/,
    },
    {
      locale: 'en',
      phone: '+237650008802',
      region: /^Pay FCFA\s5,000$/,
      wallet: 'Pay with my Caisse wallet',
      everyShop: 'Your Caisse account works at every shop that uses Caisse.',
      phoneLabel: 'Phone number',
      password: 'Password',
      code: 'Verification code',
      sent: /^A code was sent to \+237/,
      sms: /^\d{6} is your Caisse code to pay FCFA 5,000 to Mango Market\./,
      pay: /^Pay FCFA\s5,000$/,
      thanks: /^Thank you: you paid FCFA\s5,000 to Mango Market\.$/,
    },
  ];
  for (const L of LANGUAGES) {
    it(`the purchase with Accept-Language ${L.locale}: the checkout's texts, amounts and SMS in that language`, async () => {
      const customer = await caisse.testHelpers.createUser({ phoneNumber: L.phone, password: PASSWORD, balance: '10000', currency: 'XAF' });
      const context = await browser!.newContext({ locale: L.locale, viewport: { width: 480, height: 900 } });
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (err) => pageErrors.push(err.message));
      mkdirSync(RESULTS, { recursive: true });

      await page.goto(shopUrl);
      await page.getByRole('button', { name: 'Buy' }).click();
      const checkout = page.getByRole('region', { name: L.region });
      await checkout.waitFor();
      expect(await checkout.getAttribute('lang')).toBe(L.locale);
      await page.getByRole('button', { name: L.wallet }).click();
      expect(await checkout.textContent()).toContain(L.everyShop);
      await expectAccessible(page);
      await page.screenshot({ path: join(RESULTS, `shop-${L.locale}-sign-in.png`), fullPage: true });

      await page.getByLabel(L.phoneLabel).fill(L.phone);
      await page.getByLabel(L.password).fill(PASSWORD);
      await page.getByLabel(L.password).press('Enter');
      const codeField = page.getByLabel(L.code);
      await codeField.waitFor();
      expect(await page.locator('.caisse-checkout [role="status"]').textContent()).toMatch(L.sent);
      await expectAccessible(page);
      const sms = (await caisse.testHelpers.listMessages({ userId: customer.id })).data[0];
      expect(sms?.body).toMatch(L.sms);
      await codeField.fill(/\b(\d{6})\b/.exec(sms?.body ?? '')![1]!);
      await codeField.press('Enter');
      await page.getByRole('button', { name: L.pay }).click();
      await page.getByText(L.thanks).waitFor();
      await page.locator('#order-status[data-status="paid"]').waitFor({ timeout: 30_000 });
      await expectAccessible(page);
      await page.screenshot({ path: join(RESULTS, `shop-${L.locale}-paid.png`), fullPage: true });
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }

  /** Buy on the shop in a fr-CM browser, then go to Caisse's hosted checkout for the order. */
  async function buyAndOpenHostedCheckout(context: import('playwright-core').BrowserContext) {
    onTestFailed(() => {
      process.stderr.write(`${[...(server?.output ?? []), ...(shop?.output ?? [])].slice(-80).join('\n')}\n`);
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(shopUrl);
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.waitForURL(/\/orders\/ord_[0-9a-f]+$/);
    const orderId = /\/orders\/(ord_[0-9a-f]+)$/.exec(page.url())![1]!;
    await page.locator('#hosted-checkout').click();
    await page.waitForURL(/\/checkout\/ps_/);
    await page.getByRole('heading', { name: 'Payer par mobile money' }).waitFor();
    return { page, pageErrors, orderId };
  }

  /** The order the shop's server knows, paid only by the verified payment.completed webhook. */
  async function expectPaidByWebhook(page: import('playwright-core').Page, orderId: string) {
    await page.locator('#order-status[data-status="paid"]').waitFor({ timeout: 30_000 });
    const order = (await (await fetch(`${shopUrl}/orders/${orderId}/status`)).json()) as { status: string; paidByEvent: string };
    expect(order.status).toBe('paid');
    const event = await caisse.events.retrieve(order.paidByEvent);
    expect(event.type).toBe('payment.completed');
    expect(event.data.paymentIntent.metadata).toEqual({ orderId });
    return caisse.intents.retrieve(event.data.paymentIntent.id);
  }

  it('pays the order with MTN MoMo on the hosted checkout in fr-CM, returns to the shop, and the webhook marks it paid', async () => {
    const context = await browser!.newContext({ locale: 'fr-CM', viewport: { width: 480, height: 900 } });
    const { page, pageErrors, orderId } = await buyAndOpenHostedCheckout(context);
    mkdirSync(RESULTS, { recursive: true });
    await expectAccessibleIn(page, 'main');
    await page.screenshot({ path: join(RESULTS, 'shop-momo-methods.png'), fullPage: true });

    // The number suggests MTN MoMo; the sandbox approves any number of the table's first row.
    await page.getByLabel('Numéro mobile money').fill('+237 670 00 00 00');
    expect(await page.getByRole('radio', { name: 'MTN MoMo' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: /^Payer 5\s000\sFCFA avec MTN MoMo$/ }).click();
    await page.getByRole('heading', { name: 'Approuvez le paiement sur votre téléphone' }).waitFor();
    expect(await page.getByText('Composez *126# si la demande n’apparaît pas.').isVisible()).toBe(true);
    await expectAccessibleIn(page, 'main');
    await page.screenshot({ path: join(RESULTS, 'shop-momo-waiting.png'), fullPage: true });

    await page.getByRole('heading', { name: 'Paiement effectué' }).waitFor({ timeout: 30_000 });
    expect(await page.getByText(/^Merci : vous avez payé 5\s000\sFCFA à Mango Market\.$/).isVisible()).toBe(true);
    await expectAccessibleIn(page, 'main');
    await page.getByRole('link', { name: 'Retour à Mango Market' }).click();
    await page.waitForURL(`${shopUrl}/orders/${orderId}/done`);
    const intent = await expectPaidByWebhook(page, orderId);
    expect(intent).toMatchObject({ status: 'SUCCEEDED', amount: '5000', currency: 'XAF' });
    expect(intent.attempts).toEqual([expect.objectContaining({ provider: 'mtn_momo', status: 'SUCCEEDED' })]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('declined on the phone first, then paid with the wallet on the hosted checkout; the webhook marks the order paid', async () => {
    const phone = '+237650009105';
    const customer = await caisse.testHelpers.createUser({ phoneNumber: phone, password: PASSWORD, balance: '10000', currency: 'XAF' });
    const context = await browser!.newContext({ locale: 'fr-CM', viewport: { width: 480, height: 900 } });
    const { page, pageErrors, orderId } = await buyAndOpenHostedCheckout(context);

    // A number ending in 105: the sandbox's payer declines on the phone.
    await page.getByLabel('Numéro mobile money').fill(phone);
    await page.getByRole('button', { name: /avec MTN MoMo$/ }).click();
    await page.getByRole('heading', { name: 'Le paiement n’a pas abouti' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('alert').textContent()).toBe('Le paiement a été refusé sur le téléphone.');
    expect(await page.getByRole('button', { name: 'Renvoyer la demande' }).isVisible()).toBe(true);
    await expectAccessibleIn(page, 'main');
    await page.screenshot({ path: join(RESULTS, 'shop-momo-declined.png'), fullPage: true });

    await page.getByRole('button', { name: 'Payer autrement' }).click();
    await page.getByRole('button', { name: 'Payer avec mon portefeuille Caisse' }).click();
    await page.getByLabel(/^Numéro de téléphone/).fill(phone);
    await page.getByLabel('Mot de passe').fill(PASSWORD);
    await page.getByLabel('Mot de passe').press('Enter');
    const codeField = page.getByLabel('Code', { exact: true });
    await codeField.waitFor();
    const sms = (await caisse.testHelpers.listMessages({ userId: customer.id })).data[0];
    await codeField.fill(/\b(\d{6})\b/.exec(sms?.body ?? '')![1]!);
    await codeField.press('Enter');
    await page.getByRole('button', { name: /^Payer 5\s000\sFCFA$/ }).click();
    await page.getByRole('heading', { name: 'Paiement effectué' }).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Retour à Mango Market' }).click();
    const intent = await expectPaidByWebhook(page, orderId);
    expect(intent.attempts).toEqual(
      expect.arrayContaining([expect.objectContaining({ provider: 'mtn_momo', status: 'FAILED', failureCode: 'approval_rejected' })]),
    );
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('a forged payment.completed does not mark an order paid', async () => {
    const created = await fetch(`${shopUrl}/orders`, { method: 'POST', redirect: 'manual' });
    const orderId = /ord_[0-9a-f]+/.exec(created.headers.get('location') ?? '')![0];
    const body = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'payment.completed',
      createdAt: new Date().toISOString(),
      livemode: false,
      apiVersion: '2026-11-01',
      data: { paymentIntent: { id: 'pi_x', amount: '5000', currency: 'XAF', status: 'SUCCEEDED', metadata: { orderId } } },
    });
    const forged = await fetch(`${shopUrl}/webhooks/caisse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'pay-signature': generateTestHeader({ payload: body, secret: 'whsec_guessed' }) },
      body,
    });
    expect(forged.status).toBe(400);
    const order = (await (await fetch(`${shopUrl}/orders/${orderId}/status`)).json()) as { status: string };
    expect(order.status).toBe('pending');
  });
});

/** axe-core's WCAG 2 A/AA rules over the checkout, in the real browser. */
async function expectAccessible(page: import('playwright-core').Page): Promise<void> {
  await expectAccessibleIn(page, '.caisse-checkout');
}

/** axe-core's WCAG 2 A/AA rules over `selector` (the hosted checkout is `main`). */
async function expectAccessibleIn(page: import('playwright-core').Page, selector: string): Promise<void> {
  // Evaluated, not added as a script tag: the hosted checkout's CSP refuses inline scripts.
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run: (ctx: string, opts: object) => Promise<{ violations: { id: string; help: string }[] }> } }).axe;
    // Nodes only for violations: the passes' details go unused.
    const result = await axe.run(selector, { resultTypes: ['violations'], runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return result.violations.map((v) => `${v.id}: ${v.help}`);
  }, selector);
  expect(violations).toEqual([]);
}
