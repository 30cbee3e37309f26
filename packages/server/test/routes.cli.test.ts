/** `npx caisse routes` as an operator runs it (test/routes.test.ts checks the routes themselves). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedDataDir } from './harness.ts';
import { processEnv, runCaisse } from './processes.ts';

describe('npx caisse routes', () => {
  it('set refuses a connector that does not serve the method there, saying so, exit 1; list --json shows the defaults', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'caisse-routes-'));
    try {
      // Migrated already: the subject is the commands, not a first start.
      seedDataDir(dir);
      const env = processEnv({ CAISSE_DATA_DIR: dir });
      const refused = await runCaisse(['routes', 'set', '--mode', 'test', '--country', 'CM', '--method', 'mtn_momo', '--connectors', 'mtn_momo,wave'], env);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain('route_invalid: wave does not serve mtn_momo in CM');
      const listed = await runCaisse(['routes', 'list', '--mode', 'test', '--json'], env);
      expect(listed.code, listed.output).toBe(0);
      const routes = JSON.parse(listed.stdout) as { country: string; kind: string; method: string; connectors: string[]; overridden: boolean }[];
      expect(routes).toContainEqual(
        expect.objectContaining({ country: 'CM', kind: 'payment', method: 'mtn_momo', connectors: expect.arrayContaining(['mtn_momo']), overridden: false }),
      );
      expect(routes.filter((r) => r.overridden)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Each command boots the embedded database: slow when the machine is busy.
  }, 180_000);
});
