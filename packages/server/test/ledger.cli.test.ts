import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { systemRandom } from '../src/platform/crypto.ts';
import { openPglite } from '../src/platform/db.ts';
import type { Deps } from '../src/platform/deps.ts';
import { idFactory } from '../src/platform/ids.ts';
import { migrate } from '../src/platform/migrations.ts';
import { createServices } from '../src/services.ts';
import { seedDataDir, TEST_MASTER_KEY } from './harness.ts';

/** `caisse ledger verify` as an operator runs it (test/ledger.test.ts checks the verification itself). */
describe('`caisse ledger verify`', () => {
  it('the command exits 0 on a consistent ledger and 1 on any difference', async () => {
    // Its own embedded database in a data directory, as an operator would run it (migrated).
    const dir = mkdtempSync(join(tmpdir(), 'caisse-ledger-'));
    const env = { ...process.env, CAISSE_DATA_DIR: dir, CAISSE_MASTER_KEY: TEST_MASTER_KEY, DATABASE_URL: '', LOG_LEVEL: 'silent' };
    try {
      seedDataDir(dir);
      const opened = await openPglite(dir);
      await migrate(opened.db);
      const clock = new ManualClock();
      const deps: Deps = {
        config: loadConfig({ CAISSE_MASTER_KEY: TEST_MASTER_KEY, CAISSE_DATA_DIR: dir }),
        db: opened.db,
        clock,
        random: systemRandom,
        ids: idFactory(clock),
      };
      const services = createServices(deps);
      const merchant = await services.merchants.createMerchant({ name: 'CLI shop' });
      const user = await services.users.createTestUser(
        { merchantId: merchant.merchantId, mode: 'test', merchantCountry: 'CM' },
        { phoneNumber: '+237699000001', password: 'x', balance: '900' },
      );
      await opened.close();

      const cli = () => spawnSync(process.execPath, ['bin/caisse.js', 'ledger', 'verify'], { env, encoding: 'utf8', timeout: 80_000 });
      const clean = cli();
      expect(clean.stderr).toBe('');
      expect(clean.status).toBe(0);
      expect(clean.stdout).toContain('ledger is consistent');

      const again = await openPglite(dir);
      await sql`update ledger_accounts set balance = balance + 1 where user_id = ${user.id}`.execute(again.db);
      await again.close();
      const broken = cli();
      expect(broken.status).toBe(1);
      expect(broken.stdout).toMatch(/DIFFERENCE balance acc_\w+: user_wallet XAF: balance 901 but postings sum to 900/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Two PGlite boots here and one in each command: minutes when the machine is busy.
  }, 180_000);
});
