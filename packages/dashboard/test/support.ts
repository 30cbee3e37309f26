/**
 * End-to-end support: a real `caisse start` process (test/server-process.ts) on PostgreSQL, a
 * local webhook receiver, and Debian's Chromium driven by playwright-core (never a
 * downloaded browser). The database is PostgreSQL so that a test can move an intent's expiry into
 * the past from outside the server (the embedded database belongs to the one process that opens it).
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { type Browser, type BrowserContext, chromium, type Download, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';
import { CLI } from './postgres.ts';
import { adminCommand, type CaisseProcess, freePort, launchCaisse } from './server-process.ts';

const here = dirname(fileURLToPath(import.meta.url));
export { CLI } from './postgres.ts';
export { freePort } from './server-process.ts';
export const RESULTS = join(here, '..', 'test-results');
export { CHROMIUM } from './chromium.ts';

export interface Merchant {
  merchantId: string;
  test: { apiKey: string; secretKey: string };
  dashboard: { email: string; password: string };
}

export interface RunningServer {
  url: string;
  databaseUrl: string;
  merchant: Merchant;
  /** The operator `caisse operators create --json` made, when `startServer` was asked for one. */
  operator?: { email: string; password: string; role: string };
  /**
   * The operator outbox's e-mails to `to`, newest first (sign-up links, invitations, resets), as
   * `caisse messages list --to` reads them through the server's admin endpoint (issue 52).
   */
  outbox(to: string): Promise<{ to: string; body: string | null }[]>;
  /** SQL against the server's database (to move an intent's expiry into the past). */
  sql(text: string, values?: unknown[]): Promise<pg.QueryResult>;
  /** What the server wrote to stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/** Runs a `caisse` command that prints JSON. */
async function cliCommand<T>(env: NodeJS.ProcessEnv, args: string[]): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...args], { env, timeout: 60_000 });
  return JSON.parse(stdout) as T;
}

const MERCHANT = { name: 'Boutique Akwa', language: 'fr', country: 'CM' };

/** A RunningServer over a server process: its merchant, SQL on its database, and how it ends. */
function runningServer(
  proc: Pick<CaisseProcess, 'url' | 'databaseUrl' | 'output'>,
  merchant: Merchant,
  operator: RunningServer['operator'],
  end: () => Promise<void>,
  admin?: <T>(path: string, body: unknown) => Promise<T>,
): RunningServer {
  const pool = new pg.Pool({ connectionString: proc.databaseUrl, max: 2 });
  // Dropping the database at the end ends the pool's idle connections: that is no test's failure.
  pool.on('error', () => {});
  return {
    url: proc.url,
    databaseUrl: proc.databaseUrl,
    merchant,
    operator,
    sql: (text, values) => pool.query(text, values),
    async outbox(to) {
      if (admin) return (await admin<{ data: { to: string; body: string | null }[] }>('messages/list', { to, limit: 100 })).data;
      // A server with a sandbox of its own publishes no admin endpoint: the same rows by SQL.
      const rows = await pool.query(
        `select recipient as to, body from messages where audience = 'operator' and provider = 'outbox' and recipient = $1 order by id desc`,
        [to],
      );
      return rows.rows as { to: string; body: string | null }[];
    },
    output: proc.output,
    async stop() {
      await pool.end();
      await end();
    },
  };
}

/**
 * A server and a merchant of the file's own. With no options, the merchant (a new one, its own
 * e-mail) is made on the server this half of the run shares (test/global-setup.ts): a file's
 * pages, keys, payments and customers' links are its merchant's, so files need no server each,
 * which costs about 2 CPU-s to start and stop. A file that asks for an operator, a sandbox of its
 * own or other settings, or that runs without the global setup, gets a fresh database and `caisse
 * start` on it; its merchant (and operator) come from the server's loopback admin endpoint, as
 * `caisse merchants create --json` makes them while a server holds the database.
 */
export async function startServer(
  opts: {
    operatorEmail?: string;
    sandboxUrl?: string;
    env?: Record<string, string>;
    /** `caisse` commands run on the database before it starts (with a sandbox of the test's own), e.g. `routes set`. */
    commands?: string[][];
    /** The merchant's country (with a sandbox of the test's own): CM unless told. */
    country?: string;
  } = {},
): Promise<RunningServer> {
  const email = `owner-${randomBytes(4).toString('hex')}@akwa.example`;
  const shared = inject('sharedServer');
  if (shared && opts.operatorEmail === undefined && opts.sandboxUrl === undefined && opts.env === undefined) {
    const merchant = await adminCommand<Merchant>(shared.adminUrl, shared.adminToken, 'merchants/create', { ...MERCHANT, email });
    const admin = <T>(path: string, body: unknown) => adminCommand<T>(shared.adminUrl, shared.adminToken, path, body);
    return runningServer({ url: shared.url, databaseUrl: shared.databaseUrl, output: () => '' }, merchant, undefined, async () => {}, admin);
  }

  const merchantArgs = { ...MERCHANT, email };
  const operatorArgs = opts.operatorEmail === undefined ? undefined : { email: opts.operatorEmail, role: 'admin' };
  type Operator = NonNullable<RunningServer['operator']>;
  // A server given a sandbox of the test's own publishes no admin endpoint on PostgreSQL: the CLI
  // makes the merchant and operator on the database before it starts.
  let made: { merchant: Merchant; operator?: Operator } | undefined;
  const proc = await launchCaisse({
    template: inject('postgresTemplate'),
    sandboxUrl: opts.sandboxUrl,
    env: opts.env,
    beforeStart:
      opts.sandboxUrl === undefined
        ? undefined
        : async (env) => {
            const country = opts.country === undefined ? [] : ['--country', opts.country];
            const merchant = await cliCommand<Merchant>(env, ['merchants', 'create', '--name', MERCHANT.name, '--email', email, ...country, '--json']);
            const operator =
              operatorArgs === undefined ? undefined : await cliCommand<Operator>(env, ['operators', 'create', '--email', operatorArgs.email, '--json']);
            for (const command of opts.commands ?? []) await promisify(execFile)(process.execPath, [CLI, ...command], { env, timeout: 60_000 });
            made = { merchant, operator };
          },
  });
  made ??= {
    merchant: await proc.admin<Merchant>('merchants/create', merchantArgs),
    operator: operatorArgs === undefined ? undefined : await proc.admin<Operator>('operators/create', operatorArgs),
  };
  return runningServer(proc, made.merchant, made.operator, () => proc.stop(), opts.sandboxUrl === undefined ? proc.admin : undefined);
}

/**
 * `caisse sandbox` in a process of its own: every provider's sandbox, which the test reaches
 * through its `/_sandbox/…` routes (`faults` makes MTN hang). `production`: `--production`, the
 * providers' production behaviour (a live rehearsal); `dataDir`: its CAISSE_DATA_DIR, where it
 * keeps its secrets (sandbox-secrets.json).
 */
export async function startSandboxProcess(opts: { production?: boolean; dataDir?: string } = {}): Promise<{
  url: string;
  output(): string;
  setFaults(faults: Record<string, boolean>): Promise<void>;
  stop(): Promise<void>;
}> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const args = [CLI, 'sandbox', '--port', String(port), ...(opts.production === true ? ['--production'] : [])];
  const env = opts.dataDir === undefined ? process.env : { ...process.env, CAISSE_DATA_DIR: opts.dataDir };
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  while (!output.includes('Sandbox listening')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the sandbox did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    output: () => output,
    async setFaults(faults) {
      const res = await fetch(`${url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
      expect(res.status, await res.text()).toBe(200);
    },
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that answers 200 and keeps what it got. */
export async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/caisse`, received, close: () => new Promise((r) => server.close(() => r())) };
}

/**
 * This worker's Chromium, launched by the first file that asks and kept for the others (the files
 * of a run share the worker: isolate is off), each with contexts of its own, which are as isolated
 * as separate browsers (cookies, storage, cache). A browser launched per file would cost about
 * 2 CPU-s each, and one launched by the global setup relays every message through vitest's main
 * process (about 6 CPU-s a run). Playwright closes it when the worker exits.
 */
let chromiumOfWorker: Promise<Browser> | undefined;

/** The worker's Chromium as a file sees it: closing it closes the contexts this file opened, not the browser. */
export async function launchChromium(): Promise<Browser> {
  chromiumOfWorker ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const browser = await chromiumOfWorker;
  const contexts = new Set<BrowserContext>();
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'newContext')
        return async (options?: Parameters<Browser['newContext']>[0]) => {
          const context = await target.newContext(options);
          contexts.add(context);
          context.once('close', () => contexts.delete(context));
          return context;
        };
      if (property === 'close') return async () => void (await Promise.all([...contexts].map((c) => c.close())));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A download's text. Saved to a file of our own: a connected browser gives no path of its own. */
export async function downloadedText(download: Download): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'caisse-download-'));
  try {
    const file = join(dir, download.suggestedFilename());
    await download.saveAs(file);
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const DESKTOP = { viewport: { width: 1280, height: 860 } };
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** Fails the test on any error the page logs or throws (a CSP refusal, a crash in React). */
export function watchConsole(page: Page, errors: string[]) {
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/status of 4\d\d/.test(msg.text())) errors.push(`console: ${msg.text()}`);
  });
}

/**
 * Screenshots are for a person looking at the pages (`CAISSE_SCREENSHOTS=1`): a full-page PNG of
 * every page checked costs the browser more than the check, and no test reads them.
 */
export const SCREENSHOTS = process.env.CAISSE_SCREENSHOTS === '1';

export async function screenshot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: true });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

interface AxeInPage {
  run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }>;
  getRules(tags: string[]): { ruleId: string }[];
  /** axe's own rule table (not its public API): a rule's `impact`, when it has one, is every violation's. */
  _audit?: { rules: { id: string; impact?: string; enabled?: boolean; tags: string[] }[] };
}

/**
 * The text styles of a page, as axe's color-contrast rule sees them: each visible text's colour,
 * size, weight and shadow, the opacity of its ancestors, and their backgrounds up to the first
 * opaque one (form fields' own text too). Runs in the page.
 */
function textStyles(): string[] {
  const keys = new Set<string>();
  const styleOf = (element: Element) => {
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility !== 'visible') return;
    const behind: string[] = [];
    let opacity = 1;
    for (let at: Element | null = element; at !== null; at = at.parentElement) {
      const own = getComputedStyle(at);
      opacity *= Number(own.opacity);
      behind.push(`${own.backgroundColor} ${own.backgroundImage}`);
      if (own.backgroundImage !== 'none' || own.backgroundColor.startsWith('rgb(')) break;
    }
    keys.add([style.color, style.fontSize, style.fontWeight, style.textShadow, opacity, ...behind].join('|'));
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    if (node.textContent?.trim() && node.parentElement) styleOf(node.parentElement);
  }
  for (const field of document.querySelectorAll('input, select, textarea')) styleOf(field);
  return [...keys];
}

/**
 * The text styles whose contrast color-contrast already passed in this worker. That rule is about
 * three quarters of axe's time, and its verdict depends on nothing else (an element drawn over
 * another's text aside, which it reports as needing review, not as a violation): a page whose
 * every text style passed before skips it, and one new style anywhere runs it over the whole page.
 */
const contrastPassed = new Set<string>();

/**
 * axe-core in the page (evaluated through the debugging protocol, so the page's CSP is untouched).
 * `rules`: 'all' the rules of our tags, or only those that can report a serious or critical
 * violation (a rule of moderate or minor impact never does; about a third of axe's time), with
 * color-contrast only when the page shows a text style it has not passed yet.
 */
export async function axeViolations(page: Page, rules: 'all' | 'serious' = 'all'): Promise<AxeViolation[]> {
  // Once per document: the single-page apps keep it across their own navigation.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const styles = rules === 'serious' ? await page.evaluate(textStyles) : [];
  const contrast = rules === 'all' || styles.some((style) => !contrastPassed.has(style));
  const result = await page.evaluate(
    async ({ tags, rules, contrast }) => {
      const axe = (window as unknown as { axe: AxeInPage }).axe;
      const table = axe._audit?.rules;
      if (rules === 'all' || table === undefined) return axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: tags } });
      // What a run by tags runs (enabled, not experimental), less the rules of a lesser impact.
      const ids = axe.getRules(tags).flatMap(({ ruleId }) => {
        const rule = table.find((r) => r.id === ruleId);
        const runs = rule !== undefined && rule.enabled !== false && !rule.tags.includes('experimental');
        const serious = rule?.impact === undefined || rule.impact === 'serious' || rule.impact === 'critical';
        return runs && serious && (contrast || ruleId !== 'color-contrast') ? [ruleId] : [];
      });
      return axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'rule', values: ids } });
    },
    { tags: AXE_TAGS, rules, contrast },
  );
  if (contrast && !result.violations.some((v) => v.id === 'color-contrast')) for (const style of styles) contrastPassed.add(style);
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
}

/** Serious and critical violations only: those fail the test. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  return (await axeViolations(page, 'serious')).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Screenshots the page into test-results/ and fails on a serious or critical axe-core violation, or on any error the page logged. */
export async function expectAccessible(page: Page, errors: string[], name: string) {
  await screenshot(page, name);
  const violations = await seriousViolations(page);
  expect(violations, `${name}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
  expect(errors, `${name}: errors in the page`).toEqual([]);
}

export type { Browser, BrowserContext, Page };

/** The server's JSON API with a key pair, as a merchant's server would call it. */
export async function apiCall(base: string, method: string, path: string, keys: { apiKey: string; secretKey?: string }, body?: unknown) {
  const headers: Record<string, string> = { 'x-api-key': keys.apiKey };
  if (keys.secretKey) headers.authorization = `Bearer ${keys.secretKey}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A POST to the public API with the merchant's API key (and `headers`), expecting `status`. */
export async function customerPost(server: RunningServer, path: string, body: unknown, headers: Record<string, string> = {}, status = 200) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': server.merchant.test.apiKey, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, `${path}: ${JSON.stringify(json)}`).toBe(status);
  return json;
}

/** Signs a customer in through the public API: their id and the headers of their calls. */
export async function signInCustomer(server: RunningServer, customer: { phoneNumber: string; password: string }) {
  const login = await customerPost(server, '/auth/web', customer);
  return { userId: String(login.id), headers: { authorization: `Bearer ${String(login.token)}` } };
}

/**
 * A customer pays one of the merchant's intents through the public API, as a checkout page does:
 * sign in, a code by SMS (read from the test outbox), verify it, charge. `declined`: the charge
 * answers 402 insufficient_funds. Codes go out at most once per 30 s per customer: the
 * customer's earlier codes are moved 30 s into the past first (as a test moves an intent's expiry),
 * so a second payment does not wait for the server's clock; the limit itself is the server suite's.
 */
export async function payAsCustomer(
  server: RunningServer,
  customer: { phoneNumber: string; password: string },
  intentId: string,
  outcome: 'paid' | 'declined' = 'paid',
) {
  const merchant = server.merchant.test;
  const { userId, headers } = await signInCustomer(server, customer);
  const before = await apiCall(server.url, 'GET', `/test/messages?userId=${userId}`, merchant);
  const sent = (before.body.data as unknown[]).length;
  await server.sql(`update otp_codes set created_at = created_at - interval '30 seconds' where user_id = $1`, [userId]);
  await expect
    .poll(
      async () => {
        const res = await fetch(`${server.url}/otp/init`, {
          method: 'POST',
          headers: { 'x-api-key': merchant.apiKey, 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ userId, channel: 'sms', intentionId: intentId }),
        });
        return res.status;
      },
      { timeout: 45_000, interval: 2000 },
    )
    .toBe(200);
  const messages = await apiCall(server.url, 'GET', `/test/messages?userId=${userId}`, merchant);
  const data = messages.body.data as { body: string }[];
  expect(data.length).toBe(sent + 1);
  const code = /\b(\d{6})\b/.exec(data[0]?.body ?? '')?.[1] ?? '';
  const authorization = await customerPost(server, '/otp/verify', { userId, otp: code }, headers);
  const charge = { ...headers, 'x-otp-token': String(authorization.authorizationToken), 'idempotency-key': `pay-${intentId}-${sent}` };
  if (outcome === 'declined') {
    const declined = await customerPost(server, '/charge', { intentionId: intentId }, charge, 402);
    expect(declined.code).toBe('insufficient_funds');
  } else {
    const paid = await customerPost(server, '/charge', { intentionId: intentId }, charge);
    expect(paid.status).toBe('SUCCEEDED');
  }
  return userId;
}

/** One browser test's world: a server, a webhook receiver, Chromium with one page whose errors are watched. */
export interface DashboardRun {
  server: RunningServer;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** What the page logged as errors (expectAccessible fails on any). */
  errors: string[];
  stop(): Promise<void>;
}

/** Starts a DashboardRun (in parallel: the server, the receiver and the browser). */
export async function startDashboardRun(
  contextOptions: Parameters<Browser['newContext']>[0] = DESKTOP,
  serverOptions: Parameters<typeof startServer>[0] = {},
): Promise<DashboardRun> {
  const [server, receiver, browser] = await Promise.all([startServer(serverOptions), startReceiver(), launchChromium()]);
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const errors: string[] = [];
  watchConsole(page, errors);
  return {
    server,
    receiver,
    browser,
    context,
    page,
    errors,
    async stop() {
      await context.close();
      await browser.close();
      await receiver.close();
      await server.stop();
    },
  };
}

/** Signs in to the dashboard with the merchant's login (an English page) and waits for the Payments page. */
export async function signInDashboard(page: Page, server: RunningServer) {
  await page.goto(`${server.url}/dashboard`);
  await page.getByLabel('E-mail address').fill(server.merchant.dashboard.email);
  await page.getByLabel('Password').fill(server.merchant.dashboard.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
}
