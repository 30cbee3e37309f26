import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import {
  checkEnvironmentAccounts,
  formatProvidersReport,
  providersReport,
  MTN_MOMO_CONNECTOR,
  newReference,
  ORANGE_MONEY_CONNECTOR,
  type Connector,
  type Sandbox,
  startSandbox,
  WAVE_CONNECTOR,
} from '../src/modules/connectors/index.ts';
import type { AnyConnectorDefinition } from '../src/modules/connectors/connectors.definition.ts';
import { sandboxSettings } from '../src/modules/connectors/connectors.registry.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { processEnv, runCaisse, spawnCaisse } from './processes.ts';

/**
 * Going live on one machine (issue 54): each connector's `check` (a harmless authenticated call)
 * against the sandbox, and `caisse sandbox --production`, which answers as the providers'
 * production APIs do: it refuses the sandbox's values and test-only keys, and takes production
 * ones with the same test numbers and pages.
 */

const clock = new ManualClock();
const deps = { clock, logger: { debug() {}, info() {}, warn() {} }, callbackKey: Buffer.alloc(32, 3) };
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function sandbox(opts: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sb = await startSandbox({ clock, tickMs: 0, ...opts });
  open.push(sb);
  return sb;
}

function connector(definition: AnyConnectorDefinition, settings: unknown): Connector {
  const c = definition.create(settings, deps);
  open.push(c);
  return c;
}

/** Test mode's connectors on this sandbox (the settings `start` gives them). */
function testModeConnector(sb: Sandbox, definition: AnyConnectorDefinition): Connector {
  const all = sandboxSettings(sb.url, { callbacksUrl: 'http://127.0.0.1:1/callbacks', secrets: sb.secrets });
  return connector(definition, all[definition.description.name]);
}

/** Live accounts pointed at the rehearsal sandbox: production values, keys of the production form. */
const liveMtn = (sb: Sandbox, extra: Record<string, unknown> = {}) => ({
  baseUrl: sb.urls.mtn_momo,
  targetEnvironment: 'mtncameroon',
  apiUser: '3f1d2c4b-5a69-4788-9aab-0c1d2e3f4a5b',
  apiKey: 'live-api-key-cm',
  collectionKey: 'live-collection-key-cm',
  disbursementKey: 'live-disbursement-key-cm',
  ...extra,
});
const liveOrange = (sb: Sandbox, extra: Record<string, unknown> = {}) => ({
  baseUrl: sb.urls.orange_money,
  environment: 'cm',
  clientId: 'live-client-cm',
  clientSecret: 'live-secret-cm',
  merchantKey: 'live-merchant-cm',
  callbackUrl: 'http://127.0.0.1:1/callbacks/orange_money',
  ...extra,
});
const liveWave = (sb: Sandbox, extra: Record<string, unknown> = {}) => ({
  baseUrl: sb.urls.wave,
  apiKey: 'wave_sn_prod_rehearsal0key',
  webhookSecret: sb.secrets.wave?.webhookSecret,
  ...extra,
});

const payment = (currency: 'XAF' | 'XOF', phoneNumber: string) => ({
  reference: newReference(),
  amount: 1500n,
  currency,
  phoneNumber,
  externalId: 'top_golive',
  returnUrl: 'https://shop.example/return',
});

describe('check(): one harmless authenticated call against the sandbox', () => {
  it("each connector's test-mode account passes, saying what it asked", async () => {
    const sb = await sandbox();
    expect(await testModeConnector(sb, MTN_MOMO_CONNECTOR).check?.()).toEqual({
      ok: true,
      detail: 'collection token issued; disbursement token issued; collection balance read (EUR) in sandbox',
    });
    expect(await testModeConnector(sb, ORANGE_MONEY_CONNECTOR).check?.()).toEqual({
      ok: true,
      detail: expect.stringMatching(/^token issued \(expires in \d+ s\) for Web Payment dev$/),
    });
    expect(await testModeConnector(sb, WAVE_CONNECTOR).check?.()).toEqual({
      ok: true,
      detail: 'checkout session search answered: no session for a new client_reference',
    });
    // Nothing was created at any provider.
    expect(sb.of(MTN_MOMO_CONNECTOR).requests()).toEqual([]);
    expect(sb.of(ORANGE_MONEY_CONNECTOR).payments()).toEqual([]);
  });

  it("a refused key fails the check in the provider's own words, never quoting a secret", async () => {
    const sb = await sandbox({
      options: {
        mtn_momo: { credentials: { apiUser: '3f1d2c4b-5a69-4788-9aab-0c1d2e3f4a5b', apiKey: 'right', collectionKey: 'right-coll' } },
        orange_money: { credentials: { clientId: 'right', clientSecret: 'right', merchantKey: 'right' } },
        wave: { apiKey: 'wave_sn_prod_right' },
      },
    });
    const mtn = await connector(
      MTN_MOMO_CONNECTOR,
      liveMtn(sb, { targetEnvironment: 'sandbox', collectionKey: 'wrong-secret-coll', disbursementKey: undefined }),
    ).check?.();
    expect(mtn).toEqual({ ok: false, detail: expect.stringMatching(/^collection token refused: HTTP 401 Access denied due to invalid subscription key/) });
    const mtnKey = await connector(
      MTN_MOMO_CONNECTOR,
      liveMtn(sb, { targetEnvironment: 'sandbox', collectionKey: 'right-coll', apiKey: 'wrong-secret-key', disbursementKey: undefined }),
    ).check?.();
    expect(mtnKey).toEqual({ ok: false, detail: 'collection token refused: HTTP 401 login_failed' });
    const orange = await connector(ORANGE_MONEY_CONNECTOR, liveOrange(sb, { environment: 'dev', clientSecret: 'wrong-secret' })).check?.();
    expect(orange).toEqual({ ok: false, detail: expect.stringMatching(/^token refused: HTTP 401 invalid_client: The requested service needs credentials/) });
    const wave = await connector(WAVE_CONNECTOR, liveWave(sb, { apiKey: 'wave_sn_prod_wrong' })).check?.();
    expect(wave).toEqual({ ok: false, detail: "checkout session search refused: HTTP 401 invalid-auth: Your HTTP auth header can't be processed." });
    for (const r of [mtn, mtnKey, orange, wave]) expect(r?.detail).not.toMatch(/wrong-secret|wave_sn_prod_wrong/);
    // A collection-only MTN account checks its one product.
    expect(
      await connector(
        MTN_MOMO_CONNECTOR,
        liveMtn(sb, { targetEnvironment: 'sandbox', apiKey: 'right', collectionKey: 'right-coll', disbursementKey: undefined }),
      ).check?.(),
    ).toEqual({
      ok: true,
      detail: 'collection token issued; collection balance read (EUR) in sandbox',
    });
  });

  it('a provider that does not answer fails the check with the reason', async () => {
    const sb = await sandbox();
    sb.setFaults(['answer500']);
    expect(await testModeConnector(sb, MTN_MOMO_CONNECTOR).check?.()).toEqual({
      ok: false,
      detail: 'collection token refused: HTTP 500 INTERNAL_PROCESSING_ERROR: An internal error occurred while processing.',
    });
    expect((await testModeConnector(sb, WAVE_CONNECTOR).check?.())?.ok).toBe(false);
  });
});

describe('caisse sandbox --production', () => {
  it("refuses test mode's sandbox values and test-only keys", async () => {
    const sb = await sandbox({ production: true });
    expect(await testModeConnector(sb, MTN_MOMO_CONNECTOR).check?.()).toEqual({
      ok: false,
      detail: expect.stringMatching(/^collection token refused: HTTP 401 Access denied due to invalid subscription key/),
    });
    expect(await testModeConnector(sb, ORANGE_MONEY_CONNECTOR).check?.()).toEqual({
      ok: false,
      detail: expect.stringMatching(/^token refused: HTTP 401 invalid_client/),
    });
    expect(await testModeConnector(sb, WAVE_CONNECTOR).check?.()).toEqual({
      ok: false,
      detail: "checkout session search refused: HTTP 401 no-matching-api-key: The key you provided doesn't exist in our system.",
    });
    // Production keys with the sandbox's environments: MTN's `sandbox`, Orange's `dev` are refused.
    const mtnSandboxEnv = await connector(MTN_MOMO_CONNECTOR, liveMtn(sb, { targetEnvironment: 'sandbox' })).check?.();
    expect(mtnSandboxEnv).toEqual({ ok: false, detail: expect.stringMatching(/balance refused: HTTP 400 NOT_ALLOWED_TARGET_ENVIRONMENT/) });
    const orangeDev = await connector(ORANGE_MONEY_CONNECTOR, liveOrange(sb, { environment: 'dev' })).collect(payment('XAF', '+237690000000'));
    expect(orangeDev.status).toBe('FAILED');
    const orangeTestKey = await connector(ORANGE_MONEY_CONNECTOR, liveOrange(sb, { merchantKey: 'sandbox' })).collect(payment('XAF', '+237690000000'));
    expect(orangeTestKey.status).toBe('FAILED');
    expect(sb.of(ORANGE_MONEY_CONNECTOR).payments()).toEqual([]);
  });

  it('takes production values: MTN markets in their currency, Orange countries, Wave production keys, with the same test numbers and pages', async () => {
    const sb = await sandbox({ production: true });
    const mtn = connector(MTN_MOMO_CONNECTOR, liveMtn(sb));
    expect(await mtn.check?.()).toEqual({
      ok: true,
      detail: 'collection token issued; disbursement token issued; collection balance read (XAF) in mtncameroon',
    });
    const paid = payment('XAF', '+237677000000');
    expect(await mtn.collect(paid)).toMatchObject({ status: 'PENDING' });
    clock.advance(2_000);
    await sb.tick();
    expect(await mtn.status('collection', paid.reference)).toMatchObject({ status: 'SUCCESSFUL', amount: 1500n, currency: 'XAF' });
    // 104 fails as in test mode; XOF is not mtncameroon's currency.
    const poor = payment('XAF', '+237677000104');
    await mtn.collect(poor);
    clock.advance(2_000);
    await sb.tick();
    expect(await mtn.status('collection', poor.reference)).toMatchObject({ status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' });
    expect(await mtn.collect(payment('XOF', '+237677000000'))).toMatchObject({ status: 'FAILED', reason: 'INVALID_CURRENCY' });
    // Côte d'Ivoire's market takes XOF.
    const ci = connector(MTN_MOMO_CONNECTOR, liveMtn(sb, { targetEnvironment: 'mtnivorycoast' }));
    expect(await ci.collect(payment('XOF', '+225050000000'))).toMatchObject({ status: 'PENDING' });

    for (const [environment, currency, phone] of [
      ['cm', 'XAF', '+237690000000'],
      ['sn', 'XOF', '+221770000000'],
    ] as const) {
      const orange = connector(ORANGE_MONEY_CONNECTOR, liveOrange(sb, { environment, clientId: `live-client-${environment}` }));
      expect(await orange.check?.()).toMatchObject({ ok: true, detail: expect.stringContaining(`Web Payment ${environment}`) });
      const sent = await orange.collect(payment(currency, phone));
      expect(sent).toMatchObject({ status: 'PENDING', redirectUrl: expect.stringContaining('/orange-money/pay/') });
    }
    const wave = connector(WAVE_CONNECTOR, liveWave(sb));
    expect(await wave.check?.()).toMatchObject({ ok: true });
    expect(await wave.collect(payment('XOF', '+221770000000'))).toMatchObject({ status: 'PENDING', redirectUrl: expect.stringContaining('/wave/pay/') });
  });
});

describe('caisse providers list --check', () => {
  it("checks the environment's live accounts now and shows each result; unchecked ones say so", async () => {
    const sb = await sandbox({ production: true });
    const env = {
      CAISSE_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'),
      CAISSE_DATA_DIR: '/tmp/caisse-golive-check',
      CAISSE_MOMO_BASE_URL: sb.urls.mtn_momo as string,
      CAISSE_MOMO_TARGET_ENVIRONMENT: 'mtncameroon',
      CAISSE_MOMO_API_USER: '3f1d2c4b-5a69-4788-9aab-0c1d2e3f4a5b',
      CAISSE_MOMO_API_KEY: 'live-api-key-cm',
      CAISSE_MOMO_COLLECTION_KEY: 'live-collection-key-cm',
      CAISSE_WAVE_BASE_URL: sb.urls.wave as string,
      CAISSE_WAVE_API_KEY: 'wave_sandbox_key',
      CAISSE_WAVE_WEBHOOK_SECRET: 'whsec_golive',
    };
    const config = loadConfig(env);
    const checks = await checkEnvironmentAccounts(config, deps);
    expect([...checks.keys()]).toEqual(['mtn_momo', 'wave']);
    expect(checks.get('mtn_momo')).toEqual({ ok: true, at: clock.now().toISOString(), detail: expect.stringContaining('balance read (XAF) in mtncameroon') });
    expect(checks.get('wave')).toMatchObject({ ok: false, detail: expect.stringContaining('no-matching-api-key') });
    const text = formatProvidersReport(providersReport(config, env, undefined, checks));
    expect(text).toContain(`  check: ok at ${clock.now().toISOString()}: collection token issued`);
    expect(text).toContain('  check: FAILED at');
    // Orange is not configured here: nothing to check.
    expect(text.split('\n\n')[1]).toContain('  check: -');
    expect(formatProvidersReport(providersReport(config, env))).toContain('  check: not checked (npx caisse providers list --check)');
    expect(JSON.stringify(providersReport(config, env, undefined, checks))).not.toMatch(/live-api-key-cm|live-collection-key-cm|whsec_golive/);
  });
});

describe('the commands', () => {
  it('caisse sandbox --production says so, and caisse providers list --check checks against it (exit 1 on a failure)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'caisse-golive-cli-'));
    const proc = spawnCaisse(['sandbox', '--port', '0', '--production'], processEnv({ CAISSE_DATA_DIR: dataDir }));
    try {
      const line = await proc.waitForLine(/Sandbox listening on http:\/\/127\.0\.0\.1:\d+/, 30_000);
      await proc.waitForLine(/production behaviour: sandbox values and test-only keys are refused/, 5_000);
      await proc.waitForLine(/wave .*production: API keys of Wave's form/, 5_000);
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0] as string;
      const env = (extra: Record<string, string>) =>
        processEnv({
          CAISSE_DATA_DIR: dataDir,
          PORT: '9',
          CAISSE_MOMO_BASE_URL: url,
          CAISSE_MOMO_TARGET_ENVIRONMENT: 'mtncameroon',
          CAISSE_MOMO_API_USER: '3f1d2c4b-5a69-4788-9aab-0c1d2e3f4a5b',
          CAISSE_MOMO_API_KEY: 'live-api-key-cm',
          CAISSE_MOMO_COLLECTION_KEY: 'live-collection-key-cm',
          ...extra,
        });
      const ok = await runCaisse(['providers', 'list', '--check'], env({}));
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/check: ok at \S+: collection token issued; collection balance read \(XAF\) in mtncameroon/);
      expect(ok.output).not.toContain('live-api-key-cm');
      const refused = await runCaisse(['providers', 'list', '--check', '--json'], env({ CAISSE_MOMO_TARGET_ENVIRONMENT: 'sandbox' }));
      expect(refused.code).toBe(1);
      const [mtn] = JSON.parse(refused.stdout) as { lastCheck: { ok: boolean; detail: string } }[];
      expect(mtn?.lastCheck).toMatchObject({ ok: false, detail: expect.stringContaining('NOT_ALLOWED_TARGET_ENVIRONMENT') });
    } finally {
      proc.kill('SIGTERM');
    }
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    rmSync(dataDir, { recursive: true, force: true });
  }, 90_000);
});
