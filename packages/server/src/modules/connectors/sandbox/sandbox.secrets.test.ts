import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ECHO_CONNECTOR } from '../../../../test/fixtures/echo-connector/index.ts';
import { registerConnector, sandboxSettings } from '../connectors.registry.ts';
import type { WaveSettings } from '../wave/wave.connector.ts';
import { sandboxSecrets, startSandbox } from './sandbox.ts';
import { SANDBOX_SECRETS_FILE, type SandboxSecrets } from './sandbox.secrets.ts';

/** Wave's, the one connector whose sandbox declares a secret (its webhook secret). */
const wave = (secrets: SandboxSecrets) => secrets.wave?.webhookSecret;
const waveSetting = (settings: Readonly<Record<string, unknown>>) => (settings.wave as WaveSettings | undefined)?.webhookSecret;

const root = mkdtempSync(join(tmpdir(), 'caisse-secrets-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the sandbox's secrets", () => {
  it('are made once per data directory, owner-only, and read back the same by every later reader', () => {
    const dataDir = join(root, 'one', '.caisse');
    const first = sandboxSecrets(dataDir);
    expect(wave(first)).toMatch(/^wave_sandbox_whsec_[A-Za-z0-9_-]{43}$/);
    // Another process (`caisse sandbox`, a restarted gateway, a second API process) reads the file.
    expect(sandboxSecrets(dataDir)).toEqual(first);
    expect(JSON.parse(readFileSync(join(dataDir, SANDBOX_SECRETS_FILE), 'utf8'))).toEqual(first);
    const mode = statSync(join(dataDir, SANDBOX_SECRETS_FILE)).mode & 0o777;
    expect(mode).toBe(0o600);
    // No temporary file left beside it.
    expect(readdirSync(dataDir)).toEqual([SANDBOX_SECRETS_FILE]);
  });

  it('agree between processes that start at once on a new data directory', async () => {
    const dataDir = join(root, 'race');
    const module = new URL('./sandbox.ts', import.meta.url).pathname;
    const script = `import(${JSON.stringify(module)}).then((m) => process.stdout.write(m.sandboxSecrets(process.argv[1]).wave.webhookSecret))`;
    const child = () =>
      new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['--import', 'tsx', '-e', script, dataDir], (err, stdout) => (err ? reject(err) : resolve(stdout))),
      );
    const [a, b] = await Promise.all([child(), child()]);
    expect(a).toMatch(/^wave_sandbox_whsec_/);
    expect(b).toBe(a);
    expect(wave(sandboxSecrets(dataDir))).toBe(a);
    expect(readdirSync(dataDir)).toEqual([SANDBOX_SECRETS_FILE]);
  });

  it('differ between data directories, and are never the constant the code once had', () => {
    const a = sandboxSecrets(join(root, 'a'));
    const b = sandboxSecrets(join(root, 'b'));
    expect(wave(a)).not.toBe(wave(b));
    expect([wave(a), wave(b)]).not.toContain('wave_sandbox_webhook_secret');
  });

  it('refuse a damaged file with what to do, and a directory that cannot be written with where', () => {
    const damaged = join(root, 'damaged');
    sandboxSecrets(damaged);
    writeFileSync(join(damaged, SANDBOX_SECRETS_FILE), '{"wave": {"webhookSecret": ""}}');
    expect(() => sandboxSecrets(damaged)).toThrow(/delete it and a new one is made/);
    if (process.getuid?.() === 0) return; // root writes anywhere
    const locked = join(root, 'locked');
    sandboxSecrets(join(locked, 'x'));
    chmodSync(locked, 0o500);
    expect(() => sandboxSecrets(join(locked, 'y'))).toThrow(/CAISSE_DATA_DIR/);
  });

  it("pair a sandbox and test mode's settings: both sign and check with the data directory's secret", async () => {
    const secrets = sandboxSecrets(join(root, 'paired'));
    const sandbox = await startSandbox({ tickMs: 0, secrets });
    try {
      expect(sandbox.secrets).toEqual(secrets);
      expect(waveSetting(sandboxSettings(sandbox.url, { secrets }))).toBe(wave(secrets));
    } finally {
      await sandbox.close();
    }
    // Without them, each side has secrets of its own: a webhook signed by one is refused by the other.
    const alone = await startSandbox({ tickMs: 0 });
    try {
      expect(wave(alone.secrets)).not.toBe(wave(secrets));
      expect(waveSetting(sandboxSettings(alone.url))).not.toBe(wave(alone.secrets));
    } finally {
      await alone.close();
    }
  });

  it('are declared by each connector: one registered later has its own added to the file, the others kept', () => {
    const dataDir = join(root, 'later');
    const before = sandboxSecrets(dataDir);
    expect(Object.keys(before)).toEqual(['wave', 'cinetpay']);
    const unregister = registerConnector({
      ...ECHO_CONNECTOR,
      sandbox: { ...ECHO_CONNECTOR.sandbox, secrets: [{ name: 'signingKey', prefix: 'echo_sandbox_' }] },
    });
    try {
      const after = sandboxSecrets(dataDir);
      expect(after.wave).toEqual(before.wave);
      expect(after.cinetpay).toEqual(before.cinetpay);
      expect(after.echo?.signingKey).toMatch(/^echo_sandbox_/);
      expect(sandboxSecrets(dataDir)).toEqual(after);
      expect(statSync(join(dataDir, SANDBOX_SECRETS_FILE)).mode & 0o777).toBe(0o600);
      expect(readdirSync(dataDir)).toEqual([SANDBOX_SECRETS_FILE]);
    } finally {
      unregister();
    }
  });
});
