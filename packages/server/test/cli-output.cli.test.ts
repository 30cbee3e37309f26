/**
 * What the operator commands print, as scripts read it: a `--json` result alone on standard
 * output (logs on standard error), and a bad input or a failure said in one line on standard
 * error with exit 1, never a stack trace.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedDataDir } from './harness.ts';
import { processEnv, runCaisse } from './processes.ts';

const workDir = mkdtempSync(join(tmpdir(), 'caisse-cli-output-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('caisse --json on standard output', () => {
  it('a first command on an empty data directory prints only its JSON there; the migrations are logged on standard error', async () => {
    // Unseeded on purpose: the first command migrates, and logs it at the default level.
    const env = processEnv({ CAISSE_DATA_DIR: join(workDir, 'fresh'), DATABASE_URL: '', LOG_LEVEL: 'info' });
    const res = await runCaisse(['merchants', 'create', '--name', 'Boutique Kribi', '--json'], env);
    expect(res.code, res.output).toBe(0);
    const created = JSON.parse(res.stdout) as { merchantId: string; test: { apiKey: string } };
    expect(created.merchantId).toMatch(/^mch_/);
    expect(res.output).toContain('migrations applied');
  }, 120_000);
});

describe('a failed system call is one line, without a stack trace', () => {
  const oneLine = (output: string) => output.trim().split('\n');

  it('a credentials file that is not there', async () => {
    const env = processEnv({ CAISSE_DATA_DIR: join(workDir, 'unused'), DATABASE_URL: '' });
    const missing = join(workDir, 'missing.json');
    const res = await runCaisse(
      ['provider-accounts', 'add', '--connector', 'mtn_momo', '--mode', 'test', '--countries', 'CM', '--credentials-file', missing],
      env,
    );
    expect(res.code).toBe(1);
    expect(oneLine(res.output)).toEqual([`caisse: ENOENT: no such file or directory, open '${missing}'`]);
  }, 60_000);

  it('a port another process listens on', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const res = await runCaisse(['sandbox', '--port', String(port)], processEnv({ CAISSE_DATA_DIR: join(workDir, 'sandbox') }));
      expect(res.code).toBe(1);
      expect(oneLine(res.output)).toEqual([
        `caisse: listen EADDRINUSE: address already in use 127.0.0.1:${port} (another process listens there: --port chooses another)`,
      ]);
    } finally {
      taken.close();
    }
  }, 60_000);
});

describe('caisse merchants create refuses what it cannot make a merchant of', () => {
  const env = () => processEnv({ CAISSE_DATA_DIR: join(workDir, 'refusals'), DATABASE_URL: '' });

  it('a blank name or an e-mail that is not one: exit 1 before the database, saying which', async () => {
    const blank = await runCaisse(['merchants', 'create', '--name', ' ', '--json'], env());
    expect(blank.code).toBe(1);
    expect(blank.stdout).toBe('');
    expect(blank.output).toContain("option '--name <name>' argument ' ' is invalid. a merchant has a name");
    const email = await runCaisse(['merchants', 'create', '--name', 'Boutique Kribi', '--email', 'owner', '--json'], env());
    expect(email.code).toBe(1);
    expect(email.stdout).toBe('');
    expect(email.output).toContain("option '--email <email>' argument 'owner' is invalid. an e-mail address");
  }, 60_000);

  it('a name longer than the dashboard takes, as the running server would refuse it', async () => {
    seedDataDir(join(workDir, 'refusals'));
    const res = await runCaisse(['merchants', 'create', '--name', 'B'.repeat(201), '--json'], env());
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.output.trim()).toBe('caisse: validation_error: name must not have more than 200 characters');
  }, 60_000);
});

describe('caisse provider-accounts add --set', () => {
  it('takes several key=value after one --set, as after several; check says when there is nothing to check', async () => {
    const dataDir = join(workDir, 'accounts');
    seedDataDir(dataDir);
    const env = processEnv({ CAISSE_DATA_DIR: dataDir, DATABASE_URL: '' });
    const file = join(workDir, 'momo.json');
    writeFileSync(
      file,
      JSON.stringify({ collectionUserId: '6f0d8c7e-2c1a-4b8e-9d5a-1f2e3d4c5b6a', collectionApiKey: 'key-Hx72Qd', collectionSubscriptionKey: 'sub-Lw58Np' }),
    );
    const add = ['provider-accounts', 'add', '--connector', 'mtn_momo', '--mode', 'test', '--countries', 'CM', '--credentials-file', file];
    const oneSet = await runCaisse([...add, '--set', 'baseUrl=http://127.0.0.1:9', 'timeoutMs=5000'], env);
    expect(oneSet.code, oneSet.output).toBe(0);
    expect(JSON.parse(oneSet.stdout)).toMatchObject({ settings: { baseUrl: 'http://127.0.0.1:9', timeoutMs: 5000 } });
    const twoSets = await runCaisse([...add, '--set', 'baseUrl=http://127.0.0.1:8', '--set', 'timeoutMs=6000'], env);
    expect(twoSets.code, twoSets.output).toBe(0);
    expect(JSON.parse(twoSets.stdout)).toMatchObject({ settings: { baseUrl: 'http://127.0.0.1:8', timeoutMs: 6000 } });
    // Nothing to check is said, not left silent.
    const none = await runCaisse(['provider-accounts', 'check', '--mode', 'live'], env);
    expect(none.code, none.output).toBe(0);
    expect(none.stdout).toBe('no active live provider account to check\n');
  }, 120_000);
});

describe('caisse keys create | roll | revoke', () => {
  it('work on the only merchant without --merchant, and ask for it once there are several', async () => {
    const dataDir = join(workDir, 'keys');
    seedDataDir(dataDir);
    const env = processEnv({ CAISSE_DATA_DIR: dataDir, DATABASE_URL: '' });
    const merchant = await runCaisse(['merchants', 'create', '--name', 'Boutique Limbe', '--json'], env);
    const { merchantId } = JSON.parse(merchant.stdout) as { merchantId: string };

    const created = await runCaisse(['keys', 'create', '--json'], env);
    expect(created.code, created.output).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; secret: string };
    expect(key.secret).toMatch(/^pk_test_/);
    const rolled = await runCaisse(['keys', 'roll', key.id, '--grace', '0', '--json'], env);
    expect(rolled.code, rolled.output).toBe(0);
    const { new: replacement } = JSON.parse(rolled.stdout) as { new: { id: string } };
    const revoked = await runCaisse(['keys', 'revoke', replacement.id, '--json'], env);
    expect(revoked.code, revoked.output).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id: replacement.id, revokedAt: expect.any(String) });

    await runCaisse(['merchants', 'create', '--name', 'Boutique Buea', '--json'], env);
    const ambiguous = await runCaisse(['keys', 'create', '--json'], env);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.output.trim()).toBe('caisse: 2 merchants: give --merchant (npx caisse merchants list)');
    const named = await runCaisse(['keys', 'create', '--merchant', merchantId, '--json'], env);
    expect(named.code, named.output).toBe(0);
  }, 180_000);
});
