import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/platform/db.ts';
import { openTestDb, seedDataDir, TEST_DATABASE_URL } from './harness.ts';

/**
 * `caisse` commands on the database as users run them (test/foundation.db.test.ts checks the
 * database layer in this process): each command boots its own embedded engine, about 6 CPU-s.
 */

const CLI = join(import.meta.dirname, '..', 'bin', 'caisse.js');

function run(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('embedded data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'caisse-lock-'));
  // A migrated data directory: what is checked here is its lock, not a first start.
  beforeAll(() => seedDataDir(dir));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a second caisse process on the same directory exits, naming the process that holds it', async () => {
    const first = await openPglite(dir);
    try {
      const res = await run(['migrate'], { CAISSE_DATA_DIR: dir, DATABASE_URL: '' });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`already open by process ${process.pid}`);
    } finally {
      await first.close();
    }
  });

  it('caisse merchants create --json prints the merchant, its test keys and its dashboard login', async () => {
    const pgDb = TEST_DATABASE_URL ? await openTestDb() : undefined;
    const env: Record<string, string> = pgDb ? { DATABASE_URL: pgDb.url as string } : { CAISSE_DATA_DIR: dir, DATABASE_URL: '' };
    const res = await run(['merchants', 'create', '--name', 'Boutique Douala', '--json'], env);
    await pgDb?.close();
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.merchantId).toMatch(/^mch_/);
    expect(out.test.apiKey).toMatch(/^pk_test_[0-9A-Za-z]{32,}$/);
    expect(out.test.secretKey).toMatch(/^sk_test_[0-9A-Za-z]{32,}$/);
    expect(out.dashboard).toEqual({ email: expect.stringContaining('@'), password: expect.any(String) });
  });
});

describe('configuration', () => {
  it('names the bad variable', async () => {
    const res = await run(['migrate'], { PORT: 'eighty', CAISSE_DATA_DIR: join(tmpdir(), 'caisse-cfg') });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('PORT');
  });
});
