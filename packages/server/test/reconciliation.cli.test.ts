/**
 * `npx caisse reconcile` as an operator runs it: a process of its own on an embedded database of
 * its own, asking a MoMo sandbox that holds a request of day 1 this database never made
 * (test/reconciliation.test.ts checks the reconciliation and the command's function).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connector, newReference } from '../src/modules/connectors/index.ts';
import { type MomoSandbox, startMomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import type { ReconciliationReport } from '../src/modules/reconciliation/index.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { createTestContext, seedDataDir, type TestContext } from './harness.ts';
import { processEnv, runCaisse } from './processes.ts';

let ctx: TestContext;
let sandbox: MomoSandbox;
let workDir: string;

beforeAll(async () => {
  const clock = new ManualClock('2026-11-01T10:00:00.000Z');
  sandbox = await startMomoSandbox({ clock, tickMs: 0 });
  ctx = await createTestContext({ clock, env: { CAISSE_SANDBOX_URL: sandbox.url } });
  workDir = mkdtempSync(join(tmpdir(), 'caisse-reconcile-'));
  // A collection on day 1 that the command's database never made.
  const momo = ctx.services.connectors.forMode('test').get('mtn_momo') as Connector;
  const collected = await momo.collect({ reference: newReference(), amount: 5000n, currency: 'XAF', phoneNumber: '+237650000059', externalId: 'top_cli' });
  expect(collected).toMatchObject({ status: 'PENDING' });
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('npx caisse reconcile', () => {
  it('exits 0 when all agree, 2 on a usage error, 1 on a mismatch', async () => {
    // A process of its own on an embedded database of its own (empty), asking the same sandbox.
    const dataDir = join(workDir, 'data');
    seedDataDir(dataDir);
    const env = processEnv({ CAISSE_DATA_DIR: dataDir, CAISSE_SANDBOX_URL: sandbox.url });
    // A day the sandbox has nothing of.
    const args = ['reconcile', '--provider', 'mtn_momo', '--mode', 'test', '--from', '2026-11-20', '--to', '2026-11-20'];
    const [agreed, usage] = await Promise.all([runCaisse(args, env), runCaisse(['reconcile', '--provider', 'mtn_momo', '--from', '2026-11-03'], env)]);
    expect(agreed.code, agreed.output).toBe(0);
    expect(agreed.stdout).toContain('all agree');
    expect(usage.code, usage.output).toBe(2);
    expect(usage.output).toContain("required option '--to <day>' not specified");
    // Day 1 in the sandbox has requests this empty database never made: unknown to it. Asked
    // without --mode on a development server that has no live MTN account: test mode, said so.
    const mismatched = await runCaisse(['reconcile', '--provider', 'mtn_momo', '--from', '2026-11-01', '--to', '2026-11-01', '--json'], env);
    expect(mismatched.code, mismatched.output).toBe(1);
    expect(mismatched.output).toContain('no live mtn_momo account on this server: reconciling test mode');
    // Live asked for by name is refused as before: nothing to ask.
    const live = await runCaisse([...args.slice(0, 3), '--mode', 'live', '--from', '2026-11-01', '--to', '2026-11-01'], env);
    expect(live.code, live.output).toBe(2);
    expect(
      (JSON.parse(mismatched.stdout.slice(mismatched.stdout.search(/^\{$/m))) as ReconciliationReport).mismatches.every((x) => x.kind === 'missing_here'),
    ).toBe(true);
  });
});
