import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, CLI, type DashboardRun, type Page, PHONE, type RunningServer, startDashboardRun, startSandboxProcess } from './support.ts';

/**
 * Going live, rehearsed on one machine (issue 54, docs/going-live.md): `caisse sandbox
 * --production` in a process of its own answers as the providers' production APIs do, and a real
 * server in development mode (where a live account may point at a loopback address) runs against
 * it. Everything an operator does goes through the CLI, as a separate process on the server's
 * database: live accounts per provider and country (credentials from files and standard input),
 * their check, a refused sandbox value, approved merchants of Cameroon and Senegal with live keys.
 * In Debian's Chromium each merchant's payer pays a live intent with Orange Money on the hosted
 * checkout, through the account of the merchant's country; through the API an MTN payment is
 * refunded to the phone and a payout goes to Wave; the ledger verifies. No output ever holds a
 * credential used.
 */
let sandbox: Awaited<ReturnType<typeof startSandboxProcess>>;
let run: DashboardRun;
let server: RunningServer;
let page: Page;
const work = mkdtempSync(join(tmpdir(), 'caisse-going-live-'));
const masterKey = randomBytes(32).toString('base64');
/** Every CLI command's stdout and stderr, searched for the credentials at the end. */
const outputs: string[] = [];

/** Production-shaped credentials, made up for this run: none may ever be printed or logged. */
const secret = (label: string) => `${label}-${randomBytes(9).toString('base64url')}`;
const credentials = {
  orangeCm: { clientId: secret('orange-cm-client'), clientSecret: secret('orange-cm-secret'), merchantKey: secret('orange-cm-merchant') },
  orangeSn: { clientId: secret('orange-sn-client'), clientSecret: secret('orange-sn-secret'), merchantKey: secret('orange-sn-merchant') },
  mtnCm: {
    collectionUserId: '3f1d2c4b-5a69-4788-9aab-0c1d2e3f4a5b',
    collectionApiKey: secret('mtn-cm-collection-key'),
    collectionSubscriptionKey: secret('mtn-cm-collection-sub'),
    disbursementUserId: '7a2e4c6d-8b1f-4a3c-9d5e-6f7a8b9c0d1e',
    disbursementApiKey: secret('mtn-cm-disbursement-key'),
    disbursementSubscriptionKey: secret('mtn-cm-disbursement-sub'),
  },
  // Wave's production form; the webhook secret is the sandbox's, which signs its webhooks.
  waveSn: { apiKey: `wave_sn_prod_${randomBytes(12).toString('hex')}`, webhookSecret: '' },
};
/** The values that must appear nowhere (UUIDs are identifiers, not secrets, but are kept out too). */
const allSecrets = () => Object.values(credentials).flatMap((c) => Object.values(c).filter((v) => v !== ''));

interface Account {
  id: string;
  connector: string;
  mode: string;
  countries: string[];
  status: string;
  capabilities: string[];
  credentials: Record<string, string>;
  lastCheck: { ok: boolean; detail: string } | null;
}
interface LiveMerchant {
  merchantId: string;
  live: { apiKey: string; secretKey: string };
}
const accounts: Record<'orangeCm' | 'orangeSn' | 'mtnCm' | 'waveSn', Account> = {} as never;
const merchants: Record<'cm' | 'sn', LiveMerchant> = {} as never;

/** The environment the server runs with, as an operator's shell on the same machine has it. */
function cliEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: server.databaseUrl,
    CAISSE_DATA_DIR: join(work, 'cli-data'),
    CAISSE_MASTER_KEY: masterKey,
    CAISSE_MODE: 'development',
    CAISSE_SANDBOX_URL: sandbox.url,
    LOG_LEVEL: 'info',
  };
  delete env.TEST_DATABASE_URL;
  return env;
}

/** `npx caisse …` as an operator runs it (`input`: its standard input); every output kept. */
async function caisse(args: string[], input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdin.end(input ?? '');
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  outputs.push(stdout, stderr);
  return { code, stdout, stderr };
}

/** The JSON document a command printed, after any log line. */
const jsonOf = <T>(stdout: string): T => JSON.parse(stdout.slice(stdout.search(/^[[{]$/m))) as T;

/** A credentials file, owner-only, as the guide has the operator write it (and delete it after). */
function credentialsFile(name: string, value: object): string {
  const file = join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify(value), { mode: 0o600 });
  return file;
}

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'checkout.html'))) throw new Error('Build the pages first: npm run build -w @caisse/dashboard');
  const sandboxData = join(work, 'sandbox-data');
  sandbox = await startSandboxProcess({ production: true, dataDir: sandboxData });
  expect(sandbox.output()).toContain('production behaviour: sandbox values and test-only keys are refused');
  const secrets = JSON.parse(readFileSync(join(sandboxData, 'sandbox-secrets.json'), 'utf8')) as Record<string, Record<string, string>>;
  credentials.waveSn.webhookSecret = secrets.wave?.webhookSecret ?? '';
  expect(credentials.waveSn.webhookSecret).not.toBe('');
  // Development mode: live accounts may point at the loopback sandbox (production refuses that).
  run = await startDashboardRun({ ...PHONE, locale: 'fr-CM' }, { sandboxUrl: sandbox.url, env: { CAISSE_MASTER_KEY: masterKey, LOG_LEVEL: 'info' } });
  ({ server, page } = run);
}, 180_000);

afterAll(async () => {
  await run?.stop();
  await sandbox?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('going live, rehearsed against caisse sandbox --production', () => {
  it('live accounts for Orange CM and SN, MTN CM and Wave SN are added with the CLI and pass check --mode live', async () => {
    const callbacks = `${server.url}/callbacks`;
    const add = (connector: string, country: string, settings: string[], file?: string, input?: string) =>
      caisse(
        [
          'provider-accounts',
          'add',
          '--connector',
          connector,
          '--mode',
          'live',
          '--countries',
          country,
          ...settings.flatMap((s) => ['--set', s]),
          ...(file === undefined ? [] : ['--credentials-file', file]),
        ],
        input,
      );
    const added = {
      orangeCm: await add(
        'orange_money',
        'CM',
        [`baseUrl=${sandbox.url}/orange-money`, 'environment=cm', 'currency=XAF', `callbackUrl=${callbacks}/orange_money`],
        credentialsFile('orange-cm', credentials.orangeCm),
      ),
      // From standard input, as when pasted.
      orangeSn: await add(
        'orange_money',
        'SN',
        [`baseUrl=${sandbox.url}/orange-money`, 'environment=sn', `callbackUrl=${callbacks}/orange_money`],
        undefined,
        JSON.stringify(credentials.orangeSn),
      ),
      mtnCm: await add(
        'mtn_momo',
        'CM',
        [`baseUrl=${sandbox.url}`, 'targetEnvironment=mtncameroon', `callbackUrl=${callbacks}/mtn_momo`],
        credentialsFile('mtn-cm', credentials.mtnCm),
      ),
      waveSn: await add('wave', 'SN', [`baseUrl=${sandbox.url}/wave`], credentialsFile('wave-sn', credentials.waveSn)),
    };
    for (const [name, result] of Object.entries(added)) {
      expect(result.code, `${name}: ${result.stdout}${result.stderr}`).toBe(0);
      accounts[name as keyof typeof accounts] = jsonOf<Account>(result.stdout);
    }
    expect(accounts.orangeCm).toMatchObject({ connector: 'orange_money', mode: 'live', countries: ['CM'], status: 'active', capabilities: ['collect'] });
    expect(accounts.orangeSn).toMatchObject({ connector: 'orange_money', mode: 'live', countries: ['SN'], status: 'active' });
    // With its disbursement keys MTN also refunds and pays out.
    expect(accounts.mtnCm).toMatchObject({ connector: 'mtn_momo', countries: ['CM'], capabilities: ['collect', 'disburse', 'refund'] });
    expect(accounts.waveSn).toMatchObject({ connector: 'wave', countries: ['SN'], capabilities: ['collect', 'disburse', 'refund'] });
    // Masked: the last four characters at most.
    expect(accounts.orangeCm.credentials.clientSecret).toBe(`…${credentials.orangeCm.clientSecret.slice(-4)}`);

    const checked = await caisse(['provider-accounts', 'check', '--mode', 'live']);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    for (const account of Object.values(accounts)) expect(checked.stdout).toMatch(new RegExp(`^OK {3}${account.id} \\(${account.connector}, live\\): `, 'm'));
    expect(checked.stdout).toContain('collection balance read (XAF) in mtncameroon');
    expect(checked.stdout).toContain('for Web Payment cm');
    expect(checked.stdout).toContain('for Web Payment sn');

    // The check is recorded: the list says so.
    const listed = await caisse(['provider-accounts', 'list', '--json']);
    expect(listed.code).toBe(0);
    const list = jsonOf<Account[]>(listed.stdout);
    for (const account of Object.values(accounts)) expect(list.find((a) => a.id === account.id)).toMatchObject({ status: 'active', lastCheck: { ok: true } });
    // The files are deleted once added, as the guide says: the server never needs them again.
    for (const name of ['orange-cm', 'mtn-cm', 'wave-sn']) rmSync(join(work, `${name}.json`));
  });

  it('a live account with a sandbox value is refused, naming the setting, and nothing is added', async () => {
    const before = jsonOf<Account[]>((await caisse(['provider-accounts', 'list', '--json'])).stdout).length;
    const orangeDev = await caisse(
      [
        'provider-accounts',
        'add',
        '--connector',
        'orange_money',
        '--mode',
        'live',
        '--countries',
        'CM',
        '--set',
        `baseUrl=${sandbox.url}/orange-money`,
        '--set',
        'environment=dev',
        '--set',
        `callbackUrl=${server.url}/callbacks/orange_money`,
      ],
      JSON.stringify(credentials.orangeCm),
    );
    expect(orangeDev.code).toBe(1);
    expect(orangeDev.stdout + orangeDev.stderr).toMatch(/provider_settings_invalid: Setting environment /);
    const mtnSandbox = await caisse(
      [
        'provider-accounts',
        'add',
        '--connector',
        'mtn_momo',
        '--mode',
        'live',
        '--countries',
        'CM',
        '--set',
        `baseUrl=${sandbox.url}`,
        '--set',
        'targetEnvironment=sandbox',
      ],
      JSON.stringify(credentials.mtnCm),
    );
    expect(mtnSandbox.code).toBe(1);
    expect(mtnSandbox.stdout + mtnSandbox.stderr).toMatch(/provider_settings_invalid: Setting targetEnvironment /);
    expect(jsonOf<Account[]>((await caisse(['provider-accounts', 'list', '--json'])).stdout).length).toBe(before);
  });

  it('a Cameroonian and a Senegalese merchant are approved for live mode and given live keys', async () => {
    for (const [key, country, name] of [
      ['cm', 'CM', 'Boutique Bonapriso'],
      ['sn', 'SN', 'Boutique Plateau'],
    ] as const) {
      const created = await caisse([
        'merchants',
        'create',
        '--name',
        name,
        '--country',
        country,
        '--email',
        `owner-${key}-${randomBytes(3).toString('hex')}@live.example`,
        '--json',
      ]);
      expect(created.code, created.stderr).toBe(0);
      const { merchantId } = jsonOf<{ merchantId: string }>(created.stdout);
      // The CLI's merchants are onboarded offline: approved at creation, so live keys can be made.
      const approved = await server.sql('select approved_at, country from merchants where id = $1', [merchantId]);
      expect(approved.rows[0]).toMatchObject({ approved_at: expect.any(Date), country });
      // Net available within seconds: the payout below needs available money without waiting a day.
      const settlement = await caisse(['merchants', 'settlement', merchantId, '--delay-days', '0', '--json']);
      expect(settlement.code, settlement.stderr).toBe(0);
      const keys = await caisse(['keys', 'create', '--merchant', merchantId, '--kind', 'both', '--mode', 'live', '--name', 'Live', '--json']);
      expect(keys.code, keys.stderr).toBe(0);
      const live = jsonOf<{ apiKey: { secret: string }; secretKey: { secret: string } }>(keys.stdout);
      expect(live.apiKey.secret).toMatch(/^pk_live_/);
      merchants[key] = { merchantId, live: { apiKey: live.apiKey.secret, secretKey: live.secretKey.secret } };
    }
  });

  /** A live intent of the merchant's, paid on the hosted checkout with Orange Money on the sandbox's Orange page. */
  async function payWithOrange(merchant: LiveMerchant, currency: string, phone: string) {
    const created = await apiCall(server.url, 'POST', '/gateway', merchant.live, { amount: '5000', currency, description: 'Commande 42' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.livemode).toBe(true);
    const intent = created.body as { id: string; sessionToken: string };
    await page.goto(`${server.url}/checkout/${intent.sessionToken}`);
    await page.getByRole('heading', { name: 'Payer par mobile money' }).waitFor();
    await page.getByRole('radio', { name: 'Orange Money' }).check();
    await page.getByLabel('Numéro mobile money').fill(phone);
    await page.getByRole('button', { name: /avec Orange Money$/ }).click();
    await page.waitForURL(/\/orange-money\/pay\//);
    await page.getByRole('button', { name: 'Approuver le paiement' }).waitFor();
    const field = page.getByLabel('Votre numéro');
    if ((await field.inputValue()) === '') await field.fill(phone.replaceAll(' ', ''));
    await page.getByRole('button', { name: 'Approuver le paiement' }).click();
    await page.waitForURL(new RegExp(`/checkout/${intent.sessionToken}`));
    await page.getByRole('heading', { name: 'Paiement effectué' }).waitFor({ timeout: 30_000 });
    const read = await apiCall(server.url, 'GET', `/gateway/${intent.id}`, merchant.live);
    expect(read.body).toMatchObject({ status: 'SUCCEEDED', livemode: true, currency });
    return read.body as { attempts: { provider: string; connector: string; providerAccount: string; status: string }[] };
  }

  it("the Cameroonian merchant's payer pays live with Orange Money on the hosted checkout, through the CM account", async () => {
    const paid = await payWithOrange(merchants.cm, 'XAF', '+237 690 00 12 34');
    expect(paid.attempts).toEqual([expect.objectContaining({ provider: 'orange_money', connector: 'orange_money', providerAccount: accounts.orangeCm.id })]);
  }, 120_000);

  it("the Senegalese merchant's payer pays live with Orange Money on the hosted checkout, through the SN account", async () => {
    const paid = await payWithOrange(merchants.sn, 'XOF', '+221 77 000 12 34');
    expect(paid.attempts).toEqual([expect.objectContaining({ provider: 'orange_money', connector: 'orange_money', providerAccount: accounts.orangeSn.id })]);
  }, 120_000);

  it('an MTN MoMo live payment is refunded to the phone through the MTN CM account', async () => {
    const keys = merchants.cm.live;
    const created = await apiCall(server.url, 'POST', '/gateway', keys, { amount: '3000', currency: 'XAF', description: 'Commande 43' });
    expect(created.status).toBe(201);
    const intent = created.body as { id: string; sessionToken: string };
    const charge = await fetch(`${server.url}/charge`, {
      method: 'POST',
      headers: { 'x-api-key': keys.apiKey, 'x-session-token': intent.sessionToken, 'content-type': 'application/json', 'idempotency-key': `mtn-${intent.id}` },
      body: JSON.stringify({ intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: '+237677000000' } }),
    });
    expect(charge.status, await charge.clone().text()).toBe(202);
    // The sandbox's …000 approves after about a second; the server learns it by callback or status read.
    await expect
      .poll(async () => (await apiCall(server.url, 'GET', `/gateway/${intent.id}`, keys)).body.status, { timeout: 30_000, interval: 500 })
      .toBe('SUCCEEDED');
    const paid = await apiCall(server.url, 'GET', `/gateway/${intent.id}`, keys);
    expect(paid.body.attempts).toEqual([expect.objectContaining({ provider: 'mtn_momo', providerAccount: accounts.mtnCm.id })]);

    const refund = await apiCall(server.url, 'POST', `/gateway/${intent.id}/refunds`, keys, { reason: 'rehearsal' });
    expect(refund.status, JSON.stringify(refund.body)).toBe(202);
    expect(refund.body).toMatchObject({ status: 'PENDING', connector: 'mtn_momo', providerAccount: accounts.mtnCm.id });
    await expect
      .poll(async () => (await apiCall(server.url, 'GET', `/gateway/${intent.id}`, keys)).body.status, { timeout: 30_000, interval: 500 })
      .toBe('REFUNDED');
  }, 90_000);

  it("a payout of the Senegalese merchant's available balance goes to Wave through the Wave SN account", async () => {
    const keys = merchants.sn.live;
    // Its Orange payment's net, settled within seconds (delay 0 days) by the server's settlement worker.
    const available = async () => {
      const balance = await apiCall(server.url, 'GET', '/balance', keys);
      return (balance.body.available as { currency: string; amount: string }[]).find((m) => m.currency === 'XOF')?.amount ?? '0';
    };
    await expect.poll(available, { timeout: 30_000, interval: 500 }).not.toBe('0');
    const amount = await available();
    expect(Number(amount)).toBeGreaterThan(0);
    const payout = await apiCall(server.url, 'POST', '/payouts', keys, {
      amount,
      currency: 'XOF',
      destination: { provider: 'wave', phoneNumber: '+221770000001' },
      description: 'Versement',
    });
    expect(payout.status, JSON.stringify(payout.body)).toBe(202);
    expect(payout.body).toMatchObject({ status: 'PENDING', livemode: true, connector: 'wave', providerAccount: accounts.waveSn.id });
    const id = String(payout.body.id);
    await expect.poll(async () => (await apiCall(server.url, 'GET', `/payouts/${id}`, keys)).body.status, { timeout: 30_000, interval: 500 }).toBe('PAID');
    expect(await available()).toBe('0');
  }, 90_000);

  it('caisse ledger verify passes', async () => {
    const verified = await caisse(['ledger', 'verify']);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain('ledger is consistent');
  });

  it("no output holds a credential: the CLI's, the list, the server's log, the stored settings and hints", async () => {
    const listed = await caisse(['provider-accounts', 'list', '--json']);
    const human = await caisse(['provider-accounts', 'list']);
    const stored = await server.sql(`select settings::text, credentials_hint::text, encode(credentials, 'escape') as sealed from provider_accounts`);
    const everything = [...outputs, listed.stdout, human.stdout, server.output(), JSON.stringify(stored.rows)].join('\n');
    // The server's log has something in it to search (info level: its requests).
    expect(server.output().length).toBeGreaterThan(0);
    for (const value of allSecrets()) expect(everything, 'a credential was printed, logged or stored in clear').not.toContain(value);
  });
});
