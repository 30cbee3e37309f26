import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxSettings } from '../connectors.registry.ts';
import { startSandbox } from './sandbox.ts';
import { SANDBOX_SECRETS_FILE, sandboxSecrets } from './sandbox.secrets.ts';

const root = mkdtempSync(join(tmpdir(), 'caisse-secrets-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the sandbox's secrets", () => {
  it('are made once per data directory, owner-only, and read back the same by every later reader', () => {
    const dataDir = join(root, 'one', '.caisse');
    const first = sandboxSecrets(dataDir);
    expect(first.waveWebhookSecret).toMatch(/^wave_sandbox_whsec_[A-Za-z0-9_-]{43}$/);
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
    const module = new URL('./sandbox.secrets.ts', import.meta.url).pathname;
    const script = `import(${JSON.stringify(module)}).then((m) => process.stdout.write(m.sandboxSecrets(process.argv[1]).waveWebhookSecret))`;
    const child = () =>
      new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['--import', 'tsx', '-e', script, dataDir], (err, stdout) => (err ? reject(err) : resolve(stdout))),
      );
    const [a, b] = await Promise.all([child(), child()]);
    expect(a).toMatch(/^wave_sandbox_whsec_/);
    expect(b).toBe(a);
    expect(sandboxSecrets(dataDir).waveWebhookSecret).toBe(a);
    expect(readdirSync(dataDir)).toEqual([SANDBOX_SECRETS_FILE]);
  });

  it('differ between data directories, and are never the constant the code once had', () => {
    const a = sandboxSecrets(join(root, 'a'));
    const b = sandboxSecrets(join(root, 'b'));
    expect(a.waveWebhookSecret).not.toBe(b.waveWebhookSecret);
    expect([a.waveWebhookSecret, b.waveWebhookSecret]).not.toContain('wave_sandbox_webhook_secret');
  });

  it('refuse a damaged file with what to do, and a directory that cannot be written with where', () => {
    const damaged = join(root, 'damaged');
    sandboxSecrets(damaged);
    writeFileSync(join(damaged, SANDBOX_SECRETS_FILE), '{"waveWebhookSecret": ""}');
    expect(() => sandboxSecrets(damaged)).toThrow(/delete it and a new one is made/);
    if (process.getuid?.() === 0) return; // root writes anywhere
    const locked = join(root, 'locked');
    sandboxSecrets(join(locked, 'x'));
    chmodSync(locked, 0o500);
    expect(() => sandboxSecrets(join(locked, 'y'))).toThrow(/CAISSE_DATA_DIR/);
  });

  it("pair a sandbox and test mode's settings: both sign and check with the data directory's secret", async () => {
    const secrets = sandboxSecrets(join(root, 'paired'));
    const sandbox = await startSandbox({ tickMs: 0, momo: { tickMs: 0 }, secrets });
    try {
      expect(sandbox.secrets).toEqual(secrets);
      expect(sandboxSettings(sandbox.url, { secrets }).wave?.webhookSecret).toBe(secrets.waveWebhookSecret);
    } finally {
      await sandbox.close();
    }
    // Without them, each side has secrets of its own: a webhook signed by one is refused by the other.
    const alone = await startSandbox({ tickMs: 0, momo: { tickMs: 0 } });
    try {
      expect(alone.secrets.waveWebhookSecret).not.toBe(secrets.waveWebhookSecret);
      expect(sandboxSettings(alone.url).wave?.webhookSecret).not.toBe(alone.secrets.waveWebhookSecret);
    } finally {
      await alone.close();
    }
  });
});
