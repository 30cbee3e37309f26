#!/usr/bin/env node
/* global console, fetch, process, setTimeout, URL, URLSearchParams */
// `npm run test:newcomer`: a newcomer's first hour, replayed (issue 21). Clones this repository's
// committed HEAD into a temporary directory, runs `npm ci`, starts `npm start` in the background
// as a person would, and checks each thing a newcomer meets: the build lines and the banner, one
// data directory for the server and `npx caisse` from any folder, the CLI through the running
// server, --help/--version, errors that say what to do, the docs, the quickstart script as
// written, a second start that builds nothing. Ends with "N passed, N failed"; exit 1 on any
// failure. Needs the npm registry (npm ci) and about 3 minutes; `--keep` leaves the clone.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const source = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'caisse-newcomer-'));
const results = [];
const run = promisify(execFile);

function check(item, what, ok, detail = '') {
  results.push(ok);
  console.log(`${ok ? 'ok  ' : 'FAIL'} [${item}] ${what}${ok || !detail ? '' : `\n       ${String(detail).split('\n').slice(0, 12).join('\n       ')}`}`);
}

async function sh(command, args, opts = {}) {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: dir, maxBuffer: 64 * 1024 * 1024, timeout: 600_000, ...opts });
    return { code: 0, stdout, stderr, output: stdout + stderr };
  } catch (err) {
    return { code: err.code ?? 1, stdout: err.stdout ?? '', stderr: err.stderr ?? String(err), output: (err.stdout ?? '') + (err.stderr ?? String(err)) };
  }
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** `npm start` in the background; resolves once /readyz answers, with its output so far. */
async function npmStart(env) {
  const child = spawn('npm', ['start'], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}:\n${output}`);
    if (Date.now() - started > 240_000) throw new Error(`npm start did not answer in 240 s:\n${output}`);
    const ready = await fetch(`${env.CAISSE_BASE_URL}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    // The banner comes right after listen, in one write a pipe may split: wait for its last line.
    if (ready && /Next: docs\/quickstart\.md|prints a new export line|No merchant yet: /.test(output)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    child,
    took: (Date.now() - started) / 1000,
    output: () => output,
    async stop() {
      process.kill(-child.pid, 'SIGINT');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** The quickstart script of docs/quickstart.md as written, on this run's ports; then no webhook delivery may be left failing. */
async function quickstartChecks(label, base, cliEnv, keys) {
  const quickstart = readFileSync(join(dir, 'docs/quickstart.md'), 'utf8');
  const script = /## 2\.[\s\S]*?```sh\n([\s\S]*?)```/.exec(quickstart)?.[1] ?? '';
  const hookPort = await freePort();
  writeFileSync(join(dir, 'quickstart.sh'), script);
  const qs = await sh('bash', ['quickstart.sh'], { env: { ...cliEnv, HOOK_PORT: String(hookPort) }, timeout: 60_000 });
  check(9, `${label}: the quickstart script pays an intent`, /charge: SUCCEEDED/.test(qs.stdout), qs.output);
  check(9, `${label}: the quickstart script verifies the webhook`, /webhook verified: payment\.completed evt_\S+ for pi_/.test(qs.stdout), qs.output);
  const headers = { 'x-api-key': keys.apiKey, authorization: `Bearer ${keys.secretKey}` };
  // Its handler exits after one event: an endpoint left behind would fail every later delivery.
  const endpoints = await api(base, '/webhook-endpoints', { headers });
  check(
    9,
    `${label}: the quickstart leaves no endpoint whose handler has gone`,
    Array.isArray(endpoints.body.data) && !endpoints.body.data.some((e) => e.url.includes(`:${hookPort}/`)),
    JSON.stringify(endpoints.body),
  );
  // Issue 36: no delivery left failing (retrying or given up) on any endpoint left.
  const failing = [];
  for (const e of endpoints.body.data ?? []) {
    const deliveries = await api(base, `/webhook-endpoints/${e.id}/deliveries?limit=100`, { headers });
    for (const d of deliveries.body.data ?? [])
      if (d.status === 'failed' || (d.status === 'pending' && d.attemptCount > 0)) failing.push(`${e.url} ${d.id} ${d.status}`);
  }
  check(1, `${label}: no webhook delivery is left failing after the quickstart`, failing.length === 0, failing.join('\n'));
}

/** `npx caisse reconcile --mode test` for today succeeds while npm start runs. */
async function reconcileCheck(label, cliEnv, npx) {
  const today = new Date().toISOString().slice(0, 10);
  // The registry's first provider, read from the CLI (no provider is named here).
  const providers = await npx(['providers', 'list', '--json']);
  const provider = providers.code === 0 ? JSON.parse(providers.stdout)[0]?.provider : undefined;
  const rec = await npx(['reconcile', '--provider', String(provider), '--from', today, '--to', today, '--mode', 'test']);
  check(4, `${label}: npx caisse reconcile --mode test succeeds while npm start runs`, rec.code === 0 && /done by the server/.test(rec.output), rec.output);
}

/** The first start on a fresh PostgreSQL database, on its own PORT. */
async function onPostgres(baseEnv) {
  const adminUrl = process.env.NEWCOMER_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  let pg;
  try {
    pg = createRequire(join(dir, 'package.json'))('pg');
  } catch {
    pg = undefined;
  }
  const name = `caisse_newcomer_${process.pid}`;
  const admin = pg && new pg.Client({ connectionString: adminUrl });
  const reachable = admin
    ? await admin.connect().then(
        () => true,
        () => false,
      )
    : false;
  if (!reachable) {
    console.log(`newcomer: no PostgreSQL at ${adminUrl}; the PostgreSQL run is skipped`);
    return;
  }
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...baseEnv, PORT: String(port), CAISSE_BASE_URL: base, DATABASE_URL: url.toString() };
  let pgServer;
  try {
    pgServer = await npmStart(env);
    const banner = pgServer.output();
    check(3, 'PostgreSQL: the first start creates the development merchant and prints its keys', /Merchant\s+mch_\S+ \(created now/.test(banner), banner);
    const exported = /export CAISSE_API_KEY=(pk_test_\S+) CAISSE_SECRET_KEY=(sk_test_\S+)/.exec(banner);
    const keys = { apiKey: exported?.[1], secretKey: exported?.[2] };
    const cliEnv = { ...env, CAISSE_API_KEY: keys.apiKey, CAISSE_SECRET_KEY: keys.secretKey };
    await quickstartChecks('PostgreSQL', base, cliEnv, keys);
    await reconcileCheck('PostgreSQL', cliEnv, (args) => sh('npx', ['caisse', ...args], { env: cliEnv }));
  } finally {
    await pgServer?.stop().catch(() => {});
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  }
}

const api = (base, path, init = {}) => fetch(`${base}${path}`, init).then(async (r) => ({ status: r.status, body: await r.json().catch(() => ({})) }));

/** Polls an intent (secret key) until it leaves PENDING and PROCESSING, for up to 30 s. */
async function settled(base, headers, id) {
  for (let i = 0; i < 120; i++) {
    const intent = await api(base, `/gateway/${id}`, { headers });
    if (!['PENDING', 'PROCESSING'].includes(intent.body.status)) return intent.body;
    await new Promise((r) => setTimeout(r, 250));
  }
  return (await api(base, `/gateway/${id}`, { headers })).body;
}

/**
 * Issue 58, as a script sees it on the running server: Home counts mobile money, numbers as people
 * write them, the payments CSV, a refund recorded outside Caisse, the sandbox page, Senegal's
 * order and currency, the console's QR code, sandbox --help, PORT in the README, the outbox.
 */
async function issue58Checks(base, keys, banner, npx) {
  const json = { 'x-api-key': keys.apiKey, authorization: `Bearer ${keys.secretKey}`, 'content-type': 'application/json' };
  const secret = { 'x-api-key': keys.apiKey, authorization: `Bearer ${keys.secretKey}` };
  const password = /Sign in as\s+dev@caisse\.local \/ (\S+)/.exec(banner)?.[1];
  const login = await fetch(`${base}/dashboard/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'dev@caisse.local', password }),
  });
  const cookie = String(login.headers.get('set-cookie') ?? '').split(';')[0];
  const csrf = (await login.json().catch(() => ({}))).csrfToken ?? '';
  check(12, "the banner's login signs in to the dashboard", login.status === 200 && cookie !== '', String(login.status));
  const dash = (path, init = {}) =>
    api(base, `/dashboard/api${path}`, { ...init, headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json', ...init.headers } });
  const xaf = (overview) => Number(overview.body.current?.volume?.find((v) => v.currency === 'XAF')?.amount ?? 0);
  const before = await dash('/test/overview?period=today');

  // A payer's number as written in Cameroon, without its country code, by MTN (a phone prompt).
  const pay = async (amount, provider, phoneNumber) => {
    const intent = (await api(base, '/gateway', { method: 'POST', headers: json, body: JSON.stringify({ amount, currency: 'XAF', description: 'Newcomer' }) }))
      .body;
    const charged = await api(base, '/charge', {
      method: 'POST',
      headers: { 'x-api-key': keys.apiKey, 'x-session-token': intent.sessionToken ?? '', 'content-type': 'application/json' },
      body: JSON.stringify({ intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider, phoneNumber } }),
    });
    return { intent, charged };
  };
  const mtn = await pay('5000', 'mtn_momo', '670000001');
  check(
    12,
    'a number as a Cameroonian writes it (670000001) is taken, as +237670000001',
    mtn.charged.status === 202 && mtn.charged.body.nextAction?.phoneNumber === '+237670000001',
    JSON.stringify(mtn.charged.body),
  );
  const mtnPaid = await settled(base, secret, mtn.intent.id);
  check(12, 'the MTN MoMo payment succeeds in the sandbox', mtnPaid.status === 'SUCCEEDED', JSON.stringify(mtnPaid));

  // Orange: its page (the sandbox's) shows the number typed, and cannot refund: a refund is recorded.
  const orange = await pay('7000', 'orange_money', '690 00 00 01');
  const pageUrl = orange.charged.body.nextAction?.url ?? '';
  const page = pageUrl ? await fetch(pageUrl).then((r) => r.text()) : '';
  check(12, 'the sandbox page shows the number the payer already typed', page.includes('value="+237690000001"'), page.slice(0, 1500));
  const unit = /<strong>\d+ ([A-Z]{3})<\/strong>/.exec(page)?.[1];
  check(12, 'the sandbox page says what its currency is when it is a test unit', unit === 'XAF' || page.includes('data-test-unit'), page.slice(0, 1500));
  if (pageUrl) {
    await fetch(pageUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'approve', lang: 'fr', phoneNumber: '+237690000001' }),
    });
  }
  const orangePaid = await settled(base, secret, orange.intent.id);
  check(12, 'the Orange Money payment succeeds through the sandbox page', orangePaid.status === 'SUCCEEDED', JSON.stringify(orangePaid));
  const refund = await api(base, `/gateway/${orange.intent.id}/refunds`, { method: 'POST', headers: json, body: JSON.stringify({ amount: '1000' }) });
  const recorded = await api(base, `/gateway/${orange.intent.id}/refunds/recorded`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ amount: '2000', method: 'cash', reference: 'REC-1' }),
  });
  const afterRefund = (await api(base, `/gateway/${orange.intent.id}`, { headers: secret })).body;
  check(
    12,
    'an Orange payment cannot be refunded through Caisse, but a refund made outside is recorded',
    refund.body.code === 'refund_unsupported' && recorded.status === 201 && afterRefund.amountRefunded === '2000',
    JSON.stringify({ refund: refund.body, recorded: recorded.body, afterRefund }),
  );

  const after = await dash('/test/overview?period=today');
  check(
    12,
    "Home's figures count the mobile-money payments",
    after.status === 200 && after.body.current.payments - before.body.current.payments === 2 && xaf(after) - xaf(before) === 12000,
    JSON.stringify({ before: before.body.current, after: after.body.current }),
  );
  const csv = await fetch(`${base}/dashboard/api/test/payments.csv`, { headers: { cookie } });
  const header = (await csv.text()).split('\r\n')[0] ?? '';
  const columns = ['fee', 'net', 'amount_refunded', 'method', 'provider', 'connector', 'payer', 'provider_reference', 'amount_refunded_outside'];
  check(
    12,
    'the payments CSV has fee, net, refunded, method, provider, connector, payer and provider reference',
    columns.every((c) => header.split(',').includes(c)),
    header,
  );
  check(
    12,
    'the payments CSV is named with its period',
    /filename="?caisse-payments-test-(until-)?\d{4}-\d{2}-\d{2}/.test(csv.headers.get('content-disposition') ?? ''),
    csv.headers.get('content-disposition'),
  );

  // Currencies: the dashboard offers the country's; Senegal's merchant gets Wave first and no XAF.
  const country = await dash('/settings/country');
  check(
    12,
    "a Cameroonian merchant's intents and links are in XAF only",
    JSON.stringify(country.body.currencies?.test) === '["XAF"]',
    JSON.stringify(country.body),
  );
  const dakar = await npx(['merchants', 'create', '--name', 'Dakar shop', '--country', 'SN']);
  const dakarKeys = /export CAISSE_API_KEY=(pk_test_\S+) CAISSE_SECRET_KEY=(sk_test_\S+)/.exec(dakar.stdout);
  const dakarJson = { 'x-api-key': dakarKeys?.[1] ?? '', authorization: `Bearer ${dakarKeys?.[2]}`, 'content-type': 'application/json' };
  const inXaf = await api(base, '/gateway', { method: 'POST', headers: dakarJson, body: JSON.stringify({ amount: '5000', currency: 'XAF' }) });
  check(
    12,
    'a Senegalese merchant cannot create an XAF intent (currency_unsupported)',
    inXaf.status === 400 && inXaf.body.code === 'currency_unsupported',
    JSON.stringify(inXaf.body),
  );
  const inXof = await api(base, '/gateway', { method: 'POST', headers: dakarJson, body: JSON.stringify({ amount: '5000', currency: 'XOF' }) });
  const methods = await api(base, `/payment-methods?sessionToken=${encodeURIComponent(inXof.body.sessionToken ?? '')}`, {
    headers: { 'x-api-key': dakarKeys?.[1] ?? '' },
  });
  const first = methods.body.data?.find((m) => m.type === 'mobile_money')?.provider;
  check(12, "Dakar's checkout lists Wave first", inXof.status === 201 && first === 'wave', JSON.stringify(methods.body));
  const lome = await npx(['merchants', 'create', '--name', 'Lome shop', '--country', 'TG']);
  check(12, 'a merchant may sell in Togo (and Benin, Burkina Faso, Mali)', lome.code === 0 && /export CAISSE_API_KEY=pk_test_/.test(lome.stdout), lome.output);

  // The operator console's two-factor enrolment comes with its QR code.
  const operator = await npx(['operators', 'create', '--email', 'ops@newcomer.example', '--json']);
  const opPassword = (() => {
    try {
      return JSON.parse(operator.stdout).password;
    } catch {
      return undefined;
    }
  })();
  const opLogin = await fetch(`${base}/operator/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ops@newcomer.example', password: opPassword }),
  });
  const opCookie = String(opLogin.headers.get('set-cookie') ?? '').split(';')[0];
  const opCsrf = (await opLogin.json().catch(() => ({}))).csrfToken ?? '';
  const totp = await api(base, '/operator/api/totp', {
    method: 'POST',
    headers: { cookie: opCookie, 'x-csrf-token': opCsrf, 'content-type': 'application/json' },
    body: '{}',
  });
  check(
    12,
    "the operator console's two-factor enrolment has a QR code",
    /^data:image\/svg\+xml/.test(totp.body.qrCode ?? ''),
    JSON.stringify({ operator: operator.output, status: totp.status }),
  );

  // Development's sign-up says where its e-mail went: the outbox the operators read.
  const signUp = await api(base, '/dashboard/api/sign-up', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ businessName: 'Boutique Akwa', country: 'CM', email: 'akwa@newcomer.example', password: 'a long enough passphrase 58' }),
  });
  check(12, "sign-up in development says the e-mail went to the operators' outbox", signUp.body.delivery === 'operator_outbox', JSON.stringify(signUp.body));

  const sandboxHelp = await npx(['sandbox', '--help']);
  check(
    12,
    'npx caisse sandbox --help names the providers it simulates',
    /MTN MoMo/.test(sandboxHelp.stdout) && /Orange Money/.test(sandboxHelp.stdout) && /Wave/.test(sandboxHelp.stdout),
    sandboxHelp.output,
  );

  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  const commands = [...readme.matchAll(/```(?:sh|bash)?\n([\s\S]*?)```/g)].flatMap((m) => m[1].split('\n'));
  const fixedPort = commands.filter((l) => /:8080\b/.test(l) && !/PORT/.test(l));
  check(12, "the README's commands read the port from PORT", fixedPort.length === 0, fixedPort.join('\n'));
}

let server;
try {
  console.log(`newcomer: cloning ${source} into ${dir}`);
  const clone = await sh('git', ['clone', '--quiet', source, dir], { cwd: tmpdir() });
  if (clone.code !== 0) throw new Error(clone.output);

  // 10. npm ci, as the README says; 5. the clients are built by it.
  const ci = await sh('npm', ['ci', '--no-audit', '--no-fund']);
  check(10, 'npm ci succeeds', ci.code === 0, ci.output.slice(-2000));
  check(10, 'npm ci prints no EBADENGINE', !/EBADENGINE/.test(ci.output), ci.output.match(/.*EBADENGINE.*/g)?.join('\n'));
  check(5, 'npm ci built @caisse/node (prepare)', existsSync(join(dir, 'packages/node/dist/index.js')));
  const importNode = await sh(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const { Caisse } = await import('@caisse/node'); try { new Caisse({ apiKey: 'pk_test_abcdefghijklmnopqrstuvwx', secretKey: 'sk_test_abcdefghijklmnopqrstuvwx' }); } catch (e) { console.log(e.message); }",
    ],
    {
      env: { ...process.env, CAISSE_BASE_URL: '' },
    },
  );
  check(5, '@caisse/node imports in the workspace', importNode.code === 0, importNode.output);
  check(5, 'a client without baseUrl says it is required', /baseUrl is required/.test(importNode.stdout), importNode.output);
  // 5. Not on the registry: the clients install from packed tarballs in a project outside the repository, as their READMEs say.
  const { packCheck } = await import(join(dir, 'scripts', 'pack-check.mjs'));
  const packed = await packCheck({ log: () => {} });
  check(5, '@caisse/node installs from its packed tarball in a fresh project and imports', packed === undefined, packed);

  // 11. Basics.
  check(11, 'LICENSE is Apache-2.0', /Apache License\s+Version 2\.0/.test(readFileSync(join(dir, 'LICENSE'), 'utf8')));
  check(11, '.nvmrc names a Node version', /^\d+/.test(readFileSync(join(dir, '.nvmrc'), 'utf8')));
  check(
    11,
    '.env.example lists DATABASE_URL and CAISSE_DATA_DIR',
    /^# DATABASE_URL=/m.test(readFileSync(join(dir, '.env.example'), 'utf8')) && /^# CAISSE_DATA_DIR=/m.test(readFileSync(join(dir, '.env.example'), 'utf8')),
  );
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  check(11, 'the README names the test prerequisites', /Test prerequisites/.test(readme) && /Chromium/.test(readme) && /PostgreSQL/.test(readme));

  // 8, 9. The docs.
  const links = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]);
  check(9, 'the README links docs/quickstart.md first', links[0] === 'docs/quickstart.md', links.join(', '));
  check(8, 'the README links the API reference in docs/, not ../shared/spec', links.includes('docs/api.md') && !readme.includes('shared/spec'));
  const decisionRecords = readdirSync(join(dir, 'docs', 'decisions'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('decisions', f));
  check(
    8,
    'docs/ does not speak of "the contract"',
    !['api.md', 'quickstart.md', 'architecture.md', ...decisionRecords].some((f) => /\bcontract\b/i.test(readFileSync(join(dir, 'docs', f), 'utf8'))),
  );
  check(9, 'POST /test/wallets/fund is documented', /### POST \/test\/wallets\/fund/.test(readFileSync(join(dir, 'docs/api.md'), 'utf8')));
  const shopPhones = [...readFileSync(join(dir, 'examples/shop/README.md'), 'utf8').matchAll(/\+237\d{9}/g)].map((m) => m[0]);
  const rootPhones = new Set([...readme.matchAll(/\+237\d{9}/g)].map((m) => m[0]));
  check(
    9,
    "the shop's test phone is not one of the root README's",
    shopPhones.length > 0 && shopPhones.every((p) => !rootPhones.has(p)),
    shopPhones.join(', '),
  );

  // 3. npm start: build lines with times, then the banner.
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), CAISSE_BASE_URL: base };
  for (const k of ['CAISSE_DATA_DIR', 'DATABASE_URL', 'CAISSE_MODE', 'CAISSE_API_KEY', 'CAISSE_SECRET_KEY', 'LOG_LEVEL', 'CAISSE_LOG_FORMAT']) delete env[k];
  server = await npmStart(env);
  const first = server.output();
  console.log(`newcomer: first npm start answered after ${server.took.toFixed(1)} s`);
  check(
    3,
    'the first build prints a line per step with its time',
    /build: @caisse\/server … \d+\.\d s/.test(first) && /build: dashboard and checkout pages … \d+\.\d s/.test(first),
    first.slice(0, 1500),
  );
  check(
    3,
    'the banner names the URL, the reference and the dashboard',
    first.includes(`API             ${base}`) && first.includes(`${base}/docs`) && first.includes(`${base}/dashboard`),
    first,
  );
  check(1, 'the banner prints the absolute data directory at the repository root', first.includes(`Data directory  ${join(dir, '.caisse')}`), first);
  check(3, 'the banner shows the dashboard login', /Sign in as\s+dev@caisse\.local \/ \S+/.test(first));
  const exported = /export CAISSE_API_KEY=(pk_test_\S+) CAISSE_SECRET_KEY=(sk_test_\S+)/.exec(first);
  check(3, 'the banner has an export line to paste', exported !== null, first);
  check(4, 'logs are JSON when stdout is not a terminal', /^\{"level":30,/m.test(first));
  const merchantId = /Merchant\s+(mch_\S+)/.exec(first)?.[1];
  const keys = { apiKey: exported?.[1], secretKey: exported?.[2] };
  const cliEnv = { ...env, CAISSE_API_KEY: keys.apiKey, CAISSE_SECRET_KEY: keys.secretKey };

  // 1, 2. One database for every entry point; the CLI through the running server.
  const npx = (args, cwd = dir) => sh('npx', ['caisse', ...args], { cwd, env: cliEnv });
  for (const cwd of [dir, join(dir, 'packages/server'), join(dir, 'examples/shop')]) {
    const list = await npx(['merchants', 'list'], cwd);
    check(
      1,
      `npx caisse merchants list from ${cwd.slice(dir.length) || '/'} sees the server's merchant`,
      list.code === 0 && list.stdout.includes(merchantId),
      list.output,
    );
  }
  const pair = await npx(['keys', 'create', '--merchant', merchantId, '--kind', 'both']);
  const newKeys = /export CAISSE_API_KEY=(pk_test_\S+) CAISSE_SECRET_KEY=(sk_test_\S+)/.exec(pair.stdout);
  check(2, 'npx caisse keys create --kind both works while npm start runs', pair.code === 0 && newKeys !== null, pair.output);
  const balance = await api(base, '/balance', { headers: { 'x-api-key': newKeys?.[1] ?? '', authorization: `Bearer ${newKeys?.[2]}` } });
  check(2, 'the new keys work on the running server at once', balance.status === 200, JSON.stringify(balance));
  const keyList = await npx(['keys', 'list', '--merchant', merchantId]);
  check(
    2,
    'npx caisse keys list shows the keys',
    keyList.code === 0 && keyList.stdout.split('\n').filter((l) => l.startsWith('key_')).length === 4,
    keyList.output,
  );
  const created = await npx(['merchants', 'create', '--name', 'Second shop']);
  check(
    2,
    'npx caisse merchants create works while npm start runs',
    created.code === 0 && /export CAISSE_API_KEY=pk_test_/.test(created.stdout),
    created.output,
  );
  const verify = await npx(['ledger', 'verify']);
  check(1, "ledger verify checks the server's database", verify.code === 0 && verify.stdout.includes(join(dir, '.caisse')), verify.output);
  const hint = await npx(['migrate']);
  check(
    2,
    'a command that needs the database alone says who holds it',
    hint.code === 1 && /already open by process/.test(hint.output) && /npm start/.test(hint.output),
    hint.output,
  );

  // 6. Help and version.
  const version = await npx(['--version']);
  check(6, 'npx caisse --version', version.code === 0 && /^\d+\.\d+\.\d+\s*$/.test(version.stdout), version.output);
  const help = await npx(['--help']);
  check(
    6,
    'npx caisse --help lists the commands with examples',
    help.code === 0 && /Commands:/.test(help.stdout) && /Examples:/.test(help.stdout),
    help.output,
  );
  const helpCreate = await npx(['help', 'keys', 'create']);
  check(
    6,
    'npx caisse help keys create shows that command with an example',
    /Usage: caisse keys create/.test(helpCreate.stdout) && /Examples?:/.test(helpCreate.stdout),
    helpCreate.output,
  );
  const listenHelp = await npx(['listen', '--help']);
  check(6, 'npx caisse listen --help shows an example', /Examples?:\n {2}\$ npx caisse listen/.test(listenHelp.stdout), listenHelp.output);

  // 7. Errors that say what to do.
  const json = { 'x-api-key': keys.apiKey, authorization: `Bearer ${keys.secretKey}`, 'content-type': 'application/json' };
  const enumErr = await api(base, '/webhook-endpoints', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ url: 'https://shop.example.com/h', enabledEvents: ['payment.done'] }),
  });
  check(
    7,
    'an enum error lists the allowed values once',
    /must be one of payment\.processing, payment\.completed, /.test(enumErr.body.detail) && enumErr.body.errors?.length === 1,
    JSON.stringify(enumErr.body),
  );
  const unknown = await api(base, '/gateway', { method: 'POST', headers: json, body: JSON.stringify({ amount: '5000', currency: 'XAF', descripton: 'x' }) });
  check(7, 'an unknown parameter suggests the closest known one', /did you mean description\?/.test(unknown.body.detail), JSON.stringify(unknown.body));
  const big = await api(base, '/gateway', { method: 'POST', headers: json, body: JSON.stringify({ amount: '99999999999999999', currency: 'XAF' }) });
  check(7, 'a too large amount states the maximum', /maximum of 999999999999 XAF/.test(big.body.detail), JSON.stringify(big.body));
  const bad = await api(base, '/gateway', { method: 'POST', headers: json, body: '{"amount": "5000", "currency": XAF}' });
  check(7, 'malformed JSON says where', /line 1, column 32 \(position 31\)/.test(bad.body.detail), JSON.stringify(bad.body));
  const empty = await api(base, '/gateway/%20', { headers: json });
  check(7, 'an empty id says "empty"', /is empty/.test(empty.body.detail), JSON.stringify(empty.body));
  const skAsPk = await api(base, '/gateway', { headers: { 'x-api-key': keys.secretKey } });
  check(7, 'a secret key sent as x-api-key is named as such', /is a secret key/.test(skAsPk.body.detail), JSON.stringify(skAsPk.body));
  // Issue 58: a checkout link nobody issued is a 404 (with the checkout's page); providers say whether they were called.
  const deadLink = await fetch(`${base}/checkout/ps_neverIssued`);
  check(12, 'an unknown checkout link answers 404 with an HTML page', deadLink.status === 404 && /text\/html/.test(deadLink.headers.get('content-type') ?? ''));
  const providersList = await npx(['providers', 'list']);
  check(
    12,
    'npx caisse providers list says "not called yet", never "unknown"',
    providersList.code === 0 && /not called yet/.test(providersList.stdout) && !/\bunknown\b/.test(providersList.stdout),
    providersList.output,
  );
  const openapi = await fetch(`${base}/openapi.json`).then((r) => r.text());
  check(8, 'the served /docs document does not speak of "the contract"', !/\bcontract\b/i.test(openapi));

  // 9. The quickstart script, exactly as written, on this run's ports (PORT, HOOK_PORT: not 8080 and 4242).
  await quickstartChecks('embedded', base, cliEnv, keys);
  // Issue 36: reconcile test mode while npm start runs (the sandbox is in the server).
  await reconcileCheck('embedded', cliEnv, (args) => npx(args));

  // 12. Issue 58's points a script can see.
  await issue58Checks(base, keys, first, (args) => npx(args));

  // 11. trigger payment.failed prints the intent's status.
  const failed = await npx(['trigger', 'payment.failed']);
  check(11, "trigger payment.failed prints the intent's status", failed.code === 0 && /^intent pi_\S+ is PENDING$/m.test(failed.stdout), failed.output);

  // 3. A second start builds nothing and says how to get keys again.
  await server.stop();
  server = await npmStart(env);
  const second = server.output();
  console.log(`newcomer: second npm start answered after ${server.took.toFixed(1)} s`);
  check(3, 'the second start builds nothing', /build: up to date/.test(second) && !/build: @caisse\/server …/.test(second), second.slice(0, 1500));
  check(
    3,
    'the second banner says how to get keys again',
    !/export CAISSE_API_KEY/.test(second) && second.includes(`npx caisse keys create --merchant ${merchantId} --kind both`),
    second,
  );

  // Issue 36: the same on PostgreSQL, on another PORT, when a server answers at NEWCOMER_POSTGRES_URL
  // (default postgres://postgres@127.0.0.1:5432/postgres): the development merchant, the quickstart,
  // no failing delivery after it, reconcile through the server.
  await server.stop();
  server = undefined;
  await onPostgres(env);
} catch (err) {
  check('-', 'the replay ran to its end', false, err instanceof Error ? err.stack : err);
} finally {
  await server?.stop().catch(() => {});
  if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
  else console.log(`newcomer: the clone is kept in ${dir}`);
}

const failed = results.filter((ok) => !ok).length;
console.log(`newcomer: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
