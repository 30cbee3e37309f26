/**
 * What the operator commands print, as scripts read it: a `--json` result alone on standard
 * output (logs on standard error), and a bad input or a failure said in one line on standard
 * error with exit 1, never a stack trace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
