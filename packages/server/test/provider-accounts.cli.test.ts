/**
 * `npx caisse provider-accounts add | list | disable | check` (issue 54), each a process of its own
 * on one embedded database: credentials come from a file or standard input, never from the
 * command line, and no output ever shows one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedDataDir } from './harness.ts';
import { CAISSE_BIN, processEnv, runCaisse, SERVER_DIR } from './processes.ts';

const workDir = mkdtempSync(join(tmpdir(), 'caisse-accounts-cli-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Runs a command with `input` on its standard input. */
async function runWithStdin(args: string[], env: Record<string, string>, input: string): Promise<{ code: number | null; stdout: string; output: string }> {
  const child = spawn(process.execPath, [CAISSE_BIN, ...args], { cwd: SERVER_DIR, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
    output += c;
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { code, stdout, output };
}

/** The JSON document a command printed, after any log line. */
const jsonOf = <T>(stdout: string): T => JSON.parse(stdout.slice(stdout.search(/^[[{]$/m))) as T;

type Account = { id: string; connector: string; status: string; credentials: Record<string, string>; capabilities: string[]; source: string };

describe('caisse provider-accounts', () => {
  it('adds (credentials from a file or stdin), lists, checks and disables; no output holds a credential', { timeout: 240_000 }, async () => {
    const dataDir = join(workDir, 'data');
    seedDataDir(dataDir);
    const env = processEnv({ CAISSE_DATA_DIR: dataDir });
    const outputs: string[] = [];

    const momo = {
      collectionUserId: '6f0d8c7e-2c1a-4b8e-9d5a-1f2e3d4c5b6a',
      collectionApiKey: 'momo-collection-api-key-Hx72Qd',
      collectionSubscriptionKey: 'momo-collection-subscription-Lw58Np',
    };
    const file = join(workDir, 'momo.json');
    writeFileSync(file, JSON.stringify(momo));
    const args = ['provider-accounts', 'add', '--connector', 'mtn_momo', '--mode', 'test', '--countries', 'CM', '--set', 'baseUrl=http://127.0.0.1:9'];
    const added = await runCaisse([...args, '--set', 'targetEnvironment=sandbox', '--credentials-file', file], env);
    outputs.push(added.output);
    expect(added.code, added.output).toBe(0);
    const mtn = jsonOf<Account>(added.stdout);
    // A collection key only: it collects, nothing more.
    expect(mtn).toMatchObject({ object: 'provider_account', connector: 'mtn_momo', status: 'active', capabilities: ['collect'], source: 'operator' });
    expect(mtn.credentials.collectionApiKey).toBe('…72Qd');

    const wave = { apiKey: 'wave_sn_test_key-Ty61Bc', webhookSecret: 'wave-webhook-secret-Rz30Kf' };
    const fromStdin = await runWithStdin(
      ['provider-accounts', 'add', '--connector', 'wave', '--mode', 'test', '--countries', 'sn', '--set', 'baseUrl=http://127.0.0.1:9'],
      env,
      JSON.stringify(wave),
    );
    outputs.push(fromStdin.output);
    expect(fromStdin.code, fromStdin.output).toBe(0);
    const waveAccount = jsonOf<Account & { countries: string[] }>(fromStdin.stdout);
    expect(waveAccount).toMatchObject({ connector: 'wave', countries: ['SN'], capabilities: ['collect', 'disburse', 'refund'] });

    // A setting the connector does not have: refused, exit 1, the setting named.
    const refused = await runCaisse([...args, '--set', 'colour=blue', '--credentials-file', file], env);
    outputs.push(refused.output);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/provider_settings_invalid: Setting colour/);

    const listed = await runCaisse(['provider-accounts', 'list', '--json'], env);
    outputs.push(listed.output);
    expect(listed.code, listed.output).toBe(0);
    expect(jsonOf<Account[]>(listed.stdout).map((a) => a.id)).toEqual(expect.arrayContaining([mtn.id, waveAccount.id]));
    const human = await runCaisse(['provider-accounts', 'list'], env);
    outputs.push(human.output);
    expect(human.stdout).toContain(`${mtn.id}  mtn_momo test CM  active (operator, unchecked)`);

    // The check asks MTN for a token at the account's base URL, where nothing answers: it fails, and says why; exit 1.
    const checked = await runCaisse(['provider-accounts', 'check', mtn.id], env);
    outputs.push(checked.output);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain(`FAIL ${mtn.id} (mtn_momo, test): collection token refused`);

    const disabled = await runCaisse(['provider-accounts', 'disable', mtn.id], env);
    outputs.push(disabled.output);
    expect(disabled.code, disabled.output).toBe(0);
    expect(jsonOf<Account & { lastCheck: unknown }>(disabled.stdout)).toMatchObject({
      id: mtn.id,
      status: 'disabled',
      lastCheck: { ok: false, detail: expect.stringContaining('collection token refused') },
    });

    const all = outputs.join('\n');
    for (const secret of [momo.collectionApiKey, momo.collectionSubscriptionKey, wave.apiKey, wave.webhookSecret]) expect(all).not.toContain(secret);
  });
  it(
    'pawaPay and CinetPay: adds both shapes, lists the callback URLs to set, refuses live sandbox values; no output holds a credential',
    { timeout: 300_000 },
    async () => {
      const dataDir = join(workDir, 'aggregators');
      seedDataDir(dataDir);
      const env = processEnv({ CAISSE_DATA_DIR: dataDir });
      const outputs: string[] = [];

      const pawapay = { apiToken: `eyJhbGciOiJFUzI1NiJ9.${'cliPawapayToken'.repeat(25)}.Qm73Rd` };
      const file = join(workDir, 'pawapay.json');
      writeFileSync(file, JSON.stringify(pawapay));
      const added = await runCaisse(
        [
          'provider-accounts',
          'add',
          '--connector',
          'pawapay',
          '--mode',
          'test',
          '--countries',
          'CM,BJ',
          '--set',
          'baseUrl=http://127.0.0.1:9',
          '--credentials-file',
          file,
        ],
        env,
      );
      outputs.push(added.output);
      expect(added.code, added.output).toBe(0);
      const account = jsonOf<Account & { callbacks: { purpose: string; path: string }[] }>(added.stdout);
      expect(account).toMatchObject({ connector: 'pawapay', credentials: { apiToken: '…73Rd' }, capabilities: ['collect', 'disburse', 'refund'] });
      expect(account.callbacks.map((c) => [c.purpose, c.path])).toEqual(
        ['deposits', 'payouts', 'refunds'].map((purpose) => [purpose, `/callbacks/pawapay/${account.id}`]),
      );

      // The site_id with the keys, as CinetPay's back office hands them out; it stays a visible setting.
      const cinetpay = {
        apiKey: 'cinetpay-cli-apikey-Bv58Kw',
        siteId: '445566',
        secretKey: 'cinetpay-cli-secret-Hy20Tn',
        transferPassword: 'cinetpay-cli-password-Zc94Ls',
      };
      const fromStdin = await runWithStdin(
        [
          'provider-accounts',
          'add',
          '--connector',
          'cinetpay',
          '--mode',
          'test',
          '--countries',
          'ML,TG',
          '--set',
          'baseUrl=http://127.0.0.1:9',
          // Test mode never calls CinetPay's own transfer API, its default.
          '--set',
          'transferBaseUrl=http://127.0.0.1:9',
          '--set',
          'callbackUrl=https://pay.example.com/callbacks/cinetpay',
        ],
        env,
        JSON.stringify(cinetpay),
      );
      outputs.push(fromStdin.output);
      expect(fromStdin.code, fromStdin.output).toBe(0);
      const cinet = jsonOf<Account>(fromStdin.stdout);
      expect(cinet).toMatchObject({
        connector: 'cinetpay',
        settings: { siteId: '445566' },
        credentials: { apiKey: '…58Kw', secretKey: '…20Tn', transferPassword: '…94Ls' },
      });

      // Live mode: test mode's pawaPay token is refused, naming the credential; exit 1.
      const sandboxToken = join(workDir, 'pawapay-sandbox.json');
      writeFileSync(sandboxToken, JSON.stringify({ apiToken: 'pawapay_sandbox_token' }));
      const refused = await runCaisse(
        ['provider-accounts', 'add', '--connector', 'pawapay', '--mode', 'live', '--countries', 'CM', '--credentials-file', sandboxToken],
        env,
      );
      outputs.push(refused.output);
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/provider_settings_invalid: Credential apiToken is Caisse's sandbox token/);

      // The list says where pawaPay must call back (after this server's address) and what CinetPay is sent.
      const human = await runCaisse(['provider-accounts', 'list'], env);
      outputs.push(human.output);
      expect(human.code, human.output).toBe(0);
      expect(human.stdout).toContain(`${account.id}  pawapay test CM,BJ  active (operator, unchecked)`);
      for (const purpose of ['deposits', 'payouts', 'refunds'])
        expect(human.stdout).toContain(`    ${purpose}: /callbacks/pawapay/${account.id} (set in the provider's dashboard)`);
      expect(human.stdout).toContain('    notifications: https://pay.example.com/callbacks/cinetpay/{kind}/{reference}/{token} (sent with each request)');

      const all = outputs.join('\n');
      for (const secret of [pawapay.apiToken, cinetpay.apiKey, cinetpay.secretKey, cinetpay.transferPassword]) expect(all).not.toContain(secret);
    },
  );
});
