/**
 * `npm run test:woocommerce`: the plugin in a real WordPress + WooCommerce (docs: the plugin's
 * README), driven in Debian's Chromium against a real Caisse with its in-process sandbox.
 *
 * Sources: the git directories of johnpbloch/wordpress-core (WP_CORE_GIT, tag 7.0.4) and
 * bitpoke/stack-example-wordpress (WC_STACK_GIT, WooCommerce 11.0.1 and Storefront at a pinned
 * commit). Also needs php with mysqli, MariaDB/MySQL reachable as root over its socket (`mysql`),
 * and Chromium. When one is missing it prints one line "test:woocommerce skipped: …" and exits 0.
 *
 * 1. Classic checkout, MTN MoMo on the hosted checkout: back on the order page the order is still
 *    unpaid while the webhook is held back; the verified payment.completed marks it paid, and a
 *    second delivery of it changes nothing; a forged one is refused.
 * 2. Block checkout, declined on the phone: the order stays unpaid; the shopper pays again from the
 *    order page, and the webhook marks it paid.
 * 3. The order screen: the test-mode banner, a refund through Caisse back to the payer's number.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Caisse, type CaisseEvent, generateTestHeader } from '@caisse/node';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createMerchantWithCli, createRunDatabase, freePort, processEnv, startServerProcess } from '../../server/test/processes.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const PLUGIN = join(HERE, '..');
const ROOT = join(PLUGIN, '..', '..');
const WP_TAG = '7.0.4';
const WC_COMMIT = 'deb5a8f9b9cae55d33659e2be0b85223acb70b6b';
const CHROMIUM = process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
/** CAISSE_SCREENSHOTS=1 writes the README's screenshots (packages/woocommerce/docs/). */
const SHOTS = process.env.CAISSE_SCREENSHOTS === '1' ? join(PLUGIN, 'docs') : undefined;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

function skip(why: string): never {
  console.log(`test:woocommerce skipped: ${why}`);
  process.exit(0);
}

const ok = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const wpGit = process.env.WP_CORE_GIT;
const wcGit = process.env.WC_STACK_GIT;
if (!ok('git', ['--version'])) skip('git is not installed (it reads the sources)');
if (!wpGit || !existsSync(wpGit)) skip(`no WordPress sources (WP_CORE_GIT=${wpGit ?? ''}: the git directory of github.com/johnpbloch/wordpress-core)`);
if (!wcGit || !existsSync(wcGit)) skip(`no WooCommerce sources (WC_STACK_GIT=${wcGit ?? ''}: the git directory of github.com/bitpoke/stack-example-wordpress)`);
if (!ok('git', ['--git-dir', wpGit, 'rev-parse', '--verify', `${WP_TAG}^{commit}`])) skip(`WP_CORE_GIT has no tag ${WP_TAG}`);
if (!ok('git', ['--git-dir', wcGit, 'cat-file', '-e', `${WC_COMMIT}^{commit}`])) skip(`WC_STACK_GIT has no commit ${WC_COMMIT}`);
if (!ok('php', ['-r', 'exit(extension_loaded("mysqli") && extension_loaded("curl") ? 0 : 1);']))
  skip('php with the mysqli and curl extensions is not installed');
if (!ok('mysql', ['-uroot', '-e', 'select 1'])) skip('no MariaDB/MySQL reachable as root with the mysql client');
if (!existsSync(CHROMIUM)) skip(`no Chromium at ${CHROMIUM}`);

let passed = 0;
let failed = 0;
function check(what: string, cond: boolean, detail: unknown = '') {
  if (cond) passed++;
  else failed++;
  console.log(`${cond ? 'ok  ' : 'FAIL'} ${what}${cond || detail === '' ? '' : `\n       ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`}`);
}

async function until<T>(what: string, read: () => T | Promise<T>, done: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

const work = mkdtempSync(join(tmpdir(), 'caisse-wc-'));
const site = join(work, 'site');
const dbName = `caisse_wc_${process.pid}_${randomBytes(3).toString('hex')}`;
const dbPassword = randomBytes(12).toString('hex');
const caisseDb = await createRunDatabase(undefined, 'wc');
let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
let shop: ChildProcess | undefined;
let browser: Browser | undefined;
const shopLog: string[] = [];
let lastPage: Page | undefined;

interface Order {
  status: string;
  paid: boolean;
  transactionId: string;
  intentId: string;
  total: string;
  refunded: number | string;
  notes: string[];
  hpos: boolean;
}
const order = (id: number): Order => JSON.parse(execFileSync('php', [join(HERE, 'shop', 'order.php'), site, String(id)], { encoding: 'utf8' })) as Order;

try {
  // Caisse: a merchant made with the CLI, then the server (its MoMo sandbox in-process).
  // The server and its hosted checkout pages, when stale; the plugin's zip, always.
  if (spawnSync(process.execPath, [join(ROOT, 'packages/server/scripts/build-if-stale.mjs'), 'all'], { stdio: 'inherit' }).status !== 0) {
    throw new Error('the server build failed');
  }
  if (spawnSync(process.execPath, [join(PLUGIN, 'scripts', 'build.mjs')], { stdio: 'inherit' }).status !== 0) throw new Error('build:woocommerce failed');
  const env = processEnv({ ...caisseDb.env, CAISSE_MODE: 'development' });
  const keys = await createMerchantWithCli(env, 'Boutique Caisse');
  server = await startServerProcess({ env });
  const caisse = new Caisse({ apiKey: keys.apiKey, secretKey: keys.secretKey, baseUrl: server.url });

  // The shop's files: WordPress, WooCommerce, Storefront, and the plugin from its zip.
  mkdirSync(join(site, 'wp-content', 'plugins', 'woocommerce'), { recursive: true });
  mkdirSync(join(site, 'wp-content', 'themes', 'storefront'), { recursive: true });
  const extract = (git: string, tree: string, into: string) =>
    execFileSync('bash', ['-o', 'pipefail', '-c', `git --git-dir="$1" archive "$2" | tar -x -C "$3"`, '_', git, tree, into], { stdio: 'inherit' });
  extract(wpGit, WP_TAG, site);
  extract(wcGit, `${WC_COMMIT}:wp-content/plugins/woocommerce`, join(site, 'wp-content', 'plugins', 'woocommerce'));
  extract(wcGit, `${WC_COMMIT}:wp-content/themes/storefront`, join(site, 'wp-content', 'themes', 'storefront'));
  execFileSync('php', [
    '-r',
    '$z = new ZipArchive(); if ($z->open($argv[1]) !== true || !$z->extractTo($argv[2])) exit(1);',
    join(PLUGIN, 'dist', 'caisse-woocommerce.zip'),
    join(site, 'wp-content', 'plugins'),
  ]);

  execFileSync('mysql', [
    '-uroot',
    '-e',
    `create database ${dbName}; create user '${dbName}'@'localhost' identified by '${dbPassword}'; grant all on ${dbName}.* to '${dbName}'@'localhost';`,
  ]);
  const port = await freePort();
  const shopUrl = `http://127.0.0.1:${port}`;
  writeFileSync(
    join(site, 'wp-config.php'),
    `<?php
define('DB_NAME', '${dbName}');
define('DB_USER', '${dbName}');
define('DB_PASSWORD', '${dbPassword}');
define('DB_HOST', 'localhost');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
${['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'].map((k) => `define('${k}', '${randomBytes(24).toString('hex')}');`).join('\n')}
$table_prefix = 'wp_';
define('WP_DEBUG', true);
define('WP_DEBUG_LOG', true);
define('WP_DEBUG_DISPLAY', false);
define('DISABLE_WP_CRON', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_ACCESSIBLE_HOSTS', 'localhost,127.0.0.1');
define('AUTOMATIC_UPDATER_DISABLED', true);
define('FS_METHOD', 'direct');
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`,
  );

  // The webhook endpoint the merchant creates in Caisse for the shop, and its secret in the settings.
  const endpoint = await caisse.webhookEndpoints.create({
    url: `${shopUrl}/?wc-api=caisse`,
    enabledEvents: ['payment.completed', 'payment.failed', 'payment.expired', 'payment.canceled', 'payment.refunded', 'refund.failed'],
  });
  const installed = JSON.parse(
    execFileSync(
      'php',
      [
        join(HERE, 'shop', 'install.php'),
        site,
        shopUrl,
        JSON.stringify({ base_url: server.url, test_api_key: keys.apiKey, test_secret_key: keys.secretKey, test_webhook_secret: endpoint.secret }),
      ],
      { encoding: 'utf8' },
    )
      .trim()
      .split('\n')
      .pop()!,
  ) as { products: number[]; blockCheckout: string; classicCheckout: string };

  shop = spawn('setsid', ['php', '-S', `127.0.0.1:${port}`, '-t', site, join(HERE, 'shop', 'router.php')], {
    env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const s of [shop.stdout, shop.stderr]) s?.setEncoding('utf8').on('data', (c: string) => shopLog.push(...c.split('\n').filter(Boolean).slice(-200)));
  await until(
    'the shop answers',
    () =>
      fetch(shopUrl, { redirect: 'manual' }).then(
        (r) => r.status,
        () => 0,
      ),
    (s) => s === 200,
    60_000,
  );

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const shopper = await browser.newContext({ locale: 'fr-CM', viewport: { width: 1000, height: 1000 } });
  let page = await shopper.newPage();
  lastPage = page;
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));

  /** The hosted checkout (fr-CM): pay with MTN MoMo from `phone`. */
  async function payOnHostedCheckout(p: Page, phone: string, amount: RegExp) {
    await p.waitForURL(/\/checkout\/ps_/, { timeout: 30_000 });
    await p.getByRole('heading', { name: 'Payer par mobile money' }).waitFor();
    await p.getByLabel('Numéro mobile money').fill(phone);
    await p.getByRole('button', { name: amount }).click();
  }

  const orderIdOf = (url: string) => Number(/order-(?:received|pay)\/(\d+)/.exec(url)?.[1]);

  // 1. Classic checkout; the webhook held back until the shopper is on the order page.
  await caisse.webhookEndpoints.update(endpoint.id, { enabled: false });
  await page.goto(`${shopUrl}/?add-to-cart=${installed.products[0]}`);
  await page.goto(installed.classicCheckout);
  await page.locator('#billing_country').selectOption('CM', { force: true });
  await page.waitForFunction(() => !document.querySelector('.blockUI'));
  await page.locator('#billing_first_name').fill('Awa');
  await page.locator('#billing_last_name').fill('Ngono');
  await page.locator('#billing_address_1').fill('Rue 1');
  await page.locator('#billing_city').fill('Douala');
  if (await page.locator('#billing_postcode').isVisible()) await page.locator('#billing_postcode').fill('00237');
  // Cameroon's regions, in WooCommerce's list: Littoral.
  await page.evaluate(() => {
    const state = document.querySelector<HTMLSelectElement | HTMLInputElement>('#billing_state');
    if (state instanceof HTMLSelectElement) state.value = [...state.options].find((o) => o.value !== '')?.value ?? '';
    else if (state) state.value = 'Littoral';
    state?.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page.locator('#billing_phone').fill('+237670000000');
  await page.locator('#billing_email').fill('awa@shop.test');
  await page.waitForFunction(() => !document.querySelector('.blockUI'));
  await page.evaluate(() => {
    const radio = document.querySelector<HTMLInputElement>('#payment_method_caisse');
    if (radio) radio.checked = true;
  });
  check(
    'classic checkout: the gateway is offered with its test-mode line',
    (await page.locator('li.payment_method_caisse').textContent())?.includes('Test mode: no real money moves.') === true,
  );
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'classic-checkout.png') });
  await page.locator('#place_order').click();
  await payOnHostedCheckout(page, '+237 670 00 00 00', /^Payer 5\s000\sFCFA avec MTN MoMo$/);
  await page.getByRole('heading', { name: 'Paiement effectué' }).waitFor({ timeout: 30_000 });
  await page.getByRole('link', { name: /^Retour à / }).click();
  await page.waitForURL(/order-received\/\d+/);
  const first = orderIdOf(page.url());
  const returned = order(first);
  check('back on the order page, the order is not paid by the return alone', returned.status === 'pending' && !returned.paid, returned);
  check('the order is in the HPOS tables', returned.hpos, returned);
  check(
    'the order page says the payment awaits confirmation',
    await page
      .locator('.caisse-awaiting')
      .waitFor({ timeout: 10_000 })
      .then(
        () => true,
        () => false,
      ),
  );
  const intent = await caisse.intents.retrieve(returned.intentId);
  check(
    'the intent is paid with MTN MoMo, for the order',
    intent.status === 'SUCCEEDED' && intent.amount === '5000' && intent.metadata?.orderId === String(first),
    intent,
  );

  const forgedBody = JSON.stringify({
    id: 'evt_forged',
    object: 'event',
    type: 'payment.completed',
    livemode: false,
    data: { paymentIntent: { ...intent, metadata: intent.metadata } },
  });
  const forged = await fetch(`${shopUrl}/?wc-api=caisse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'pay-signature': generateTestHeader({ payload: forgedBody, secret: 'whsec_guessed' }) },
    body: forgedBody,
  });
  check('a forged payment.completed is refused (400) and pays nothing', forged.status === 400 && !order(first).paid, { status: forged.status });

  await caisse.webhookEndpoints.update(endpoint.id, { enabled: true });
  const completed = (await caisse.events.list({ type: 'payment.completed', limit: 20 })).data.find(
    (e: CaisseEvent) => e.data.paymentIntent.id === intent.id,
  ) as CaisseEvent;
  await caisse.events.resend(completed.id, { endpointId: endpoint.id });
  const paid = await until(
    'the webhook marks the order paid',
    () => order(first),
    (o) => o.paid,
  );
  check(
    'the verified webhook marks the order paid (processing), with the intent as transaction',
    paid.status === 'processing' && paid.transactionId === intent.id,
    paid,
  );
  await caisse.events.resend(completed.id, { endpointId: endpoint.id });
  await until(
    'the second delivery',
    () => caisse.webhookEndpoints.listDeliveries(endpoint.id, { limit: 20 }),
    (d) => d.data.filter((x) => x.eventId === completed.id && x.status === 'succeeded').length >= 2,
  );
  const twice = order(first);
  check(
    'a second delivery of the same event changes nothing',
    twice.notes.filter((n) => n.startsWith('Paid with Caisse')).length === 1 && twice.status === 'processing',
    twice.notes,
  );
  await page.reload();
  check('the order page no longer waits', !(await page.locator('.caisse-awaiting').isVisible()));

  // 2. Block checkout; declined on the phone; paid on the second try from the order page. A new
  // tab: the order page of the first may still be reloading itself.
  const firstTab = page;
  page = await shopper.newPage();
  await firstTab.close();
  lastPage = page;
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${shopUrl}/?add-to-cart=${installed.products[1]}`);
  await page.goto(installed.blockCheckout);
  await page.getByLabel('Email address').fill('paul@shop.test');
  // The same shopper: the block checkout fills in the address of the first order.
  check('block checkout: the address of the first order is filled in', (await page.getByText('Rue 1, Douala').count()) > 0);
  await page.getByRole('radio', { name: 'Mobile money' }).check();
  check('block checkout: the gateway is listed with its test-mode line', await page.getByText('Test mode: no real money moves.').isVisible());
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'block-checkout.png') });
  await page.getByRole('button', { name: /place order/i }).click();
  await payOnHostedCheckout(page, '+237670000105', /^Payer 12\s000\sFCFA avec MTN MoMo$/);
  await page.getByRole('heading', { name: 'Le paiement n’a pas abouti' }).waitFor({ timeout: 30_000 });
  const declinedIntent = (await caisse.intents.list({ limit: 1 })).data[0]!;
  const second = Number(declinedIntent.metadata?.orderId);
  await until(
    'payment.failed reaches the shop',
    () => order(second),
    (o) => o.notes.some((n) => n.includes('an attempt failed')),
  );
  const declined = order(second);
  check('declined on the phone: the order stays unpaid', declined.status === 'pending' && !declined.paid, declined);

  // The shopper goes back to the shop's order page (the intent's returnUrl), which offers to pay again.
  await page.goto((await caisse.intents.retrieve(declinedIntent.id)).returnUrl!);
  await page.locator('.caisse-pay-again').click();
  await page.waitForURL(/order-pay\/\d+/);
  await page.waitForFunction(() => !document.querySelector('.blockUI'));
  await page.locator('#place_order').click();
  await payOnHostedCheckout(page, '+237670000001', /^Payer 12\s000\sFCFA avec MTN MoMo$/);
  await page.getByRole('heading', { name: 'Paiement effectué' }).waitFor({ timeout: 30_000 });
  await page.getByRole('link', { name: /^Retour à / }).click();
  await page.waitForURL(/order-received\/\d+/);
  const retried = await until(
    'the retried order is paid',
    () => order(second),
    (o) => o.paid,
  );
  check('paid on the second try, by the webhook of the new intent', retried.status === 'processing' && retried.transactionId !== declinedIntent.id, retried);
  check('the first intent was canceled when the shopper started again', (await caisse.intents.retrieve(declinedIntent.id)).status === 'CANCELED');

  // 3. The order screen: the test-mode banner and a refund through Caisse.
  const admin = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 1000 } });
  const adminPage = await admin.newPage();
  lastPage = adminPage;
  adminPage.on('dialog', (d) => void d.accept());
  await adminPage.goto(`${shopUrl}/wp-login.php`);
  await adminPage.locator('#user_login').fill('admin');
  await adminPage.locator('#user_pass').fill('admin-password-1');
  await adminPage.locator('#wp-submit').click();
  await adminPage.waitForURL(/wp-admin/);
  await adminPage.goto(`${shopUrl}/wp-admin/admin.php?page=wc-settings&tab=checkout&section=caisse`);
  check('the settings page shows the test-mode banner', await adminPage.locator('.caisse-test-mode').isVisible());
  check(
    'the settings page has the keys and the webhook secret',
    (await adminPage.locator('#woocommerce_caisse_test_webhook_secret').count()) === 1 &&
      (await adminPage.locator('#woocommerce_caisse_base_url').inputValue()) === server.url,
  );
  if (SHOTS) await adminPage.screenshot({ path: join(SHOTS, 'settings.png'), fullPage: true });
  await adminPage.goto(`${shopUrl}/wp-admin/admin.php?page=wc-orders&action=edit&id=${first}`);
  // WooCommerce celebrates the shop's first order with a modal: close it.
  const celebration = adminPage.getByText(/^Don.t show again$/);
  if (
    await celebration.waitFor({ timeout: 5000 }).then(
      () => true,
      () => false,
    )
  )
    await celebration.click();
  await adminPage.locator('button.refund-items').click();
  await adminPage.locator('#refund_amount').fill('5000');
  await adminPage.locator('#refund_reason').fill('Mangues abîmées');
  await adminPage.locator('button.do-api-refund').click();
  await adminPage.waitForLoadState('load');
  const refunded = await until(
    'the refund is recorded',
    () => order(first),
    (o) => Number(o.refunded) === 5000,
  );
  check(
    'the refund is sent through Caisse from the order screen',
    refunded.status === 'refunded' && refunded.notes.some((n) => n.startsWith('Refund of 5000 XAF sent through Caisse')),
    refunded.notes,
  );
  const back = await until(
    'the intent is refunded',
    () => caisse.intents.retrieve(intent.id),
    (i) => i.status === 'REFUNDED',
  );
  const refundEvent = (await caisse.events.list({ type: 'payment.refunded', limit: 20 })).data.find(
    (e: CaisseEvent) => e.data.paymentIntent.id === intent.id,
  ) as (CaisseEvent & { data: { refund?: { status: string; amount: string } } }) | undefined;
  check(
    'the refund went back to the payer’s MTN MoMo number through the provider',
    back.amountRefunded === '5000' &&
      refundEvent?.data.refund?.status === 'SUCCEEDED' &&
      Array.isArray(back.attempts) &&
      back.attempts.some((a) => a.provider === 'mtn_momo' && a.status === 'SUCCEEDED' && /^\+237•+00$/.test(a.phoneNumber)),
    { back, refundEvent },
  );
  await until(
    'payment.refunded reaches the shop',
    () => order(first),
    (o) => o.notes.some((n) => n.startsWith('Caisse refunded 5000 XAF')),
  );
  check('the order notes the refund Caisse confirmed', true);
  if (SHOTS) {
    await adminPage.reload();
    await adminPage.locator('#woocommerce-order-notes').scrollIntoViewIfNeeded();
    await adminPage.screenshot({ path: join(SHOTS, 'refund.png') });
  }

  // French: the plugin's texts with WordPress in French.
  const fr = execFileSync(
    'php',
    [
      '-r',
      `$_SERVER['HTTP_HOST']='localhost'; $GLOBALS['wp_filter']['locale'][10][] = ['function' => fn () => 'fr_FR', 'accepted_args' => 1]; require $argv[1] . '/wp-load.php'; echo __('Pay again', 'caisse-woocommerce');`,
      site,
    ],
    { encoding: 'utf8' },
  );
  check('the plugin speaks French (fr_FR)', fr === 'Payer à nouveau', fr);
  check('no script error in the shopper’s pages', pageErrors.length === 0, pageErrors);
} catch (err) {
  failed++;
  console.log(`FAIL ${err instanceof Error ? err.stack : String(err)}`);
  if (lastPage) {
    console.log(`page: ${lastPage.url()}`);
    const notices = await lastPage
      .locator('.woocommerce-error, .woocommerce-NoticeGroup, .wc-block-components-notice-banner, [role="alert"]')
      .allInnerTexts()
      .catch(() => []);
    console.log(`notices: ${notices.join(' | ')}`);
    await lastPage.screenshot({ path: join(work, 'failure.png') }).catch(() => {});
  }
  if (server) console.log(server.lines.slice(-30).join('\n'));
  console.log(shopLog.slice(-30).join('\n'));
  if (existsSync(join(site, 'wp-content', 'debug.log')))
    console.log(execFileSync('tail', ['-30', join(site, 'wp-content', 'debug.log')], { encoding: 'utf8' }));
} finally {
  await browser?.close();
  if (shop?.pid) {
    try {
      process.kill(-shop.pid, 'SIGTERM');
    } catch {}
  }
  server?.kill('SIGTERM');
  await server?.exited;
  await caisseDb.drop();
  spawnSync('mysql', ['-uroot', '-e', `drop database if exists ${dbName}; drop user if exists '${dbName}'@'localhost';`]);
  if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
}
console.log(`test:woocommerce: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
