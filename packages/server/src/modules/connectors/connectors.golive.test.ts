import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { preflight, warnSandboxDefaults } from '../../runtime.ts';
import { connectorSettings } from './connectors.registry.ts';
import { checkLiveSettings, sandboxDefaultsInUse } from './index.ts';
import { liveUrlProblem } from './connectors.live.ts';

/** Live refusals (issue 54): what adding a live account answers, and what stops a production start. */

const live = (countries: string[] = [], production = false) => ({ mode: 'live' as const, countries, production });

describe('checkLiveSettings', () => {
  it('says nothing in test mode: test mode only ever calls the sandbox', () => {
    expect(checkLiveSettings('mtn_momo', { targetEnvironment: 'sandbox' }, { mode: 'test', countries: ['CM'], production: true })).toEqual([]);
    expect(
      checkLiveSettings('orange_money', { environment: 'dev', baseUrl: 'http://127.0.0.1:8090' }, { mode: 'test', countries: ['CM'], production: true }),
    ).toEqual([]);
  });

  it("MTN: the target environment is required, never sandbox, and the market of the account's country", () => {
    expect(checkLiveSettings('mtn_momo', {}, live(['CM']))).toEqual([
      { setting: 'targetEnvironment', message: expect.stringMatching(/^is required in live mode/) },
    ]);
    const [sandbox] = checkLiveSettings('mtn_momo', { targetEnvironment: 'sandbox' }, live(['CM']));
    expect(sandbox).toEqual({ setting: 'targetEnvironment', message: expect.stringMatching(/^is sandbox, .*\(mtncameroon\)$/) });
    expect(checkLiveSettings('mtn_momo', { targetEnvironment: 'mtncameroon' }, live(['CM']))).toEqual([]);
    expect(checkLiveSettings('mtn_momo', { targetEnvironment: 'mtnivorycoast' }, live(['CI']))).toEqual([]);
    expect(checkLiveSettings('mtn_momo', { targetEnvironment: 'mtncameroon' }, live(['CM', 'CI']))).toEqual([
      { setting: 'targetEnvironment', message: expect.stringMatching(/MTN's market of CM, but the account is for CI/) },
    ]);
    // A market Caisse does not know yet is not refused; the environment's account (no countries) is not compared.
    expect(checkLiveSettings('mtn_momo', { targetEnvironment: 'mtnnewmarket' }, live(['CM']))).toEqual([]);
    expect(checkLiveSettings('mtn_momo', { targetEnvironment: 'mtnivorycoast' }, live())).toEqual([]);
  });

  it("Orange: the environment is required, never dev nor OUV, its currency its own, and the account's country", () => {
    expect(checkLiveSettings('orange_money', {}, live(['CM']))).toEqual([
      { setting: 'environment', message: expect.stringMatching(/^is required in live mode/) },
    ]);
    expect(checkLiveSettings('orange_money', { environment: 'dev' }, live(['CM']))).toEqual([
      { setting: 'environment', message: expect.stringMatching(/^is dev, Orange's test environment/) },
    ]);
    expect(checkLiveSettings('orange_money', { environment: 'cm', currency: 'OUV' }, live(['CM']))).toEqual([
      { setting: 'currency', message: expect.stringMatching(/^is OUV/) },
    ]);
    expect(checkLiveSettings('orange_money', { environment: 'cm', currency: 'XOF' }, live(['CM']))).toEqual([
      { setting: 'currency', message: expect.stringMatching(/takes XAF only/) },
    ]);
    expect(checkLiveSettings('orange_money', { environment: 'xx' }, live(['CM']))[0]?.setting).toBe('environment');
    expect(checkLiveSettings('orange_money', { environment: 'cm' }, live(['CM', 'SN']))).toEqual([
      { setting: 'environment', message: expect.stringMatching(/the account is for SN: make one account per country/) },
    ]);
    expect(checkLiveSettings('orange_money', { environment: 'sn', currency: 'XOF' }, live(['SN']))).toEqual([]);
    expect(checkLiveSettings('orange_money', { environment: 'ci' }, live(['CI']))).toEqual([]);
  });

  it('in production, every live base URL is https and reaches a public address', () => {
    const prod = live(['SN'], true);
    expect(checkLiveSettings('wave', { baseUrl: 'https://api.wave.com' }, prod)).toEqual([]);
    expect(checkLiveSettings('wave', { baseUrl: 'http://api.wave.com' }, prod)).toEqual([{ setting: 'baseUrl', message: expect.stringMatching(/https/) }]);
    expect(checkLiveSettings('wave', { baseUrl: 'https://127.0.0.1:8090/wave' }, prod)).toEqual([
      { setting: 'baseUrl', message: expect.stringMatching(/loopback address 127\.0\.0\.1$/) },
    ]);
    // Outside production a live account may point at the rehearsal sandbox on this machine.
    expect(checkLiveSettings('wave', { baseUrl: 'http://127.0.0.1:8090/wave' }, live(['SN']))).toEqual([]);
    // Both problems of one account, each naming its setting.
    expect(checkLiveSettings('mtn_momo', { baseUrl: 'https://10.1.2.3', targetEnvironment: 'sandbox' }, live(['CM'], true)).map((p) => p.setting)).toEqual([
      'targetEnvironment',
      'baseUrl',
    ]);
    expect(checkLiveSettings('pawapay_unknown', {}, prod)).toEqual([{ setting: 'connector', message: expect.stringMatching(/^is not a connector/) }]);
  });

  it.each([
    ['https://localhost/x', false],
    ['https://api.localhost', false],
    ['https://10.0.0.5', false],
    ['https://172.20.1.1', false],
    ['https://192.168.1.10', false],
    ['https://169.254.169.254', false],
    ['https://100.64.0.1', false],
    ['https://0.0.0.0', false],
    ['https://[::1]', false],
    ['https://[::ffff:127.0.0.1]', false],
    ['https://[fd00::1]', false],
    ['https://[fe80::1]', false],
    ['ftp://api.orange.com', false],
    ['not a url', false],
    ['https://api.orange.com', true],
    ['https://172.32.0.1', true],
    ['https://[2001:db8::1]', true],
    ['https://41.202.219.1', true],
  ])('liveUrlProblem(%s): usable %s', (url, usable) => {
    expect(liveUrlProblem('baseUrl', url) === undefined).toBe(usable);
  });
});

describe('a production server with sandbox values in its variables does not start', () => {
  const base = { CAISSE_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'), CAISSE_DATA_DIR: '/tmp/caisse-golive-test' };
  const prod = { ...base, CAISSE_MODE: 'production', DATABASE_URL: 'postgres://db/x' };
  const mtn = {
    CAISSE_MOMO_BASE_URL: 'https://proxy.momoapi.mtn.com',
    CAISSE_MOMO_API_USER: '0efc4721-b2ec-409c-bcd4-429b4cb8e8e5',
    CAISSE_MOMO_API_KEY: 'k',
    CAISSE_MOMO_COLLECTION_KEY: 'c',
  };
  const orange = {
    CAISSE_ORANGE_BASE_URL: 'https://api.orange.com',
    CAISSE_ORANGE_CLIENT_ID: 'id',
    CAISSE_ORANGE_CLIENT_SECRET: 'secret',
    CAISSE_ORANGE_MERCHANT_KEY: 'merchant',
    CAISSE_ORANGE_CALLBACK_URL: 'https://pay.example.cm/callbacks',
  };
  function refusal(env: Record<string, string>): ConfigError {
    const config = loadConfig(env);
    try {
      // What `caisse start` (and `caisse worker`) check before the database is opened.
      preflight(config);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return err as ConfigError;
    }
    throw new Error('the configuration was accepted');
  }

  it('names the variable, with the message adding such an account answers', () => {
    const sandbox = refusal({ ...prod, ...mtn, CAISSE_MOMO_TARGET_ENVIRONMENT: 'sandbox' });
    expect(sandbox.variable).toBe('CAISSE_MOMO_TARGET_ENVIRONMENT');
    const [same] = checkLiveSettings('mtn_momo', { targetEnvironment: 'sandbox' }, live([], true));
    expect(sandbox.message).toBe(`CAISSE_MOMO_TARGET_ENVIRONMENT: ${same?.message}`);
    expect(refusal({ ...prod, ...orange, CAISSE_ORANGE_ENVIRONMENT: 'dev' }).variable).toBe('CAISSE_ORANGE_ENVIRONMENT');
    expect(refusal({ ...prod, ...orange, CAISSE_ORANGE_ENVIRONMENT: 'cm', CAISSE_ORANGE_CURRENCY: 'OUV' }).variable).toBe('CAISSE_ORANGE_CURRENCY');
    expect(refusal({ ...prod, ...mtn, CAISSE_MOMO_TARGET_ENVIRONMENT: 'mtncameroon', CAISSE_MOMO_BASE_URL: 'https://192.168.0.4' }).variable).toBe(
      'CAISSE_MOMO_BASE_URL',
    );
    expect(
      refusal({ ...prod, CAISSE_WAVE_API_KEY: 'wave_sn_prod_x', CAISSE_WAVE_WEBHOOK_SECRET: 'w', CAISSE_WAVE_BASE_URL: 'https://localhost:9000' }).variable,
    ).toBe('CAISSE_WAVE_BASE_URL');
  });

  it('a sandbox default never applies in production: the variable is required there, and still defaults in development', () => {
    const momo = refusal({ ...prod, ...mtn });
    expect(momo.variable).toBe('CAISSE_MOMO_TARGET_ENVIRONMENT');
    expect(momo.message).toMatch(/is required in live mode/);
    expect(refusal({ ...prod, ...orange }).variable).toBe('CAISSE_ORANGE_ENVIRONMENT');
    expect(connectorSettings(loadConfig({ ...prod, ...mtn, CAISSE_MOMO_TARGET_ENVIRONMENT: 'mtncameroon' })).mtn_momo).toMatchObject({
      targetEnvironment: 'mtncameroon',
    });
    expect(connectorSettings(loadConfig({ ...prod, ...orange, CAISSE_ORANGE_ENVIRONMENT: 'sn' })).orange_money).toMatchObject({ environment: 'sn' });
    // Development keeps the defaults (a live account may point at the rehearsal sandbox), and says so at the start.
    expect(connectorSettings(loadConfig({ ...base, ...mtn })).mtn_momo).toMatchObject({ targetEnvironment: 'sandbox' });
    expect(connectorSettings(loadConfig({ ...base, ...orange })).orange_money).toMatchObject({ environment: 'dev' });
    const warned: unknown[][] = [];
    const logger = { warn: (...args: unknown[]) => void warned.push(args) };
    expect(warnSandboxDefaults(loadConfig({ ...base, ...mtn, ...orange, CAISSE_ORANGE_ENVIRONMENT: 'cm' }), logger)).toBe(1);
    expect(warned).toEqual([
      [
        { variable: 'CAISSE_MOMO_TARGET_ENVIRONMENT', provider: 'mtn_momo' },
        expect.stringMatching(/^CAISSE_MOMO_TARGET_ENVIRONMENT is unset: live mode calls mtn_momo with the sandbox's sandbox/),
      ],
    ]);
    expect(sandboxDefaultsInUse(loadConfig({ ...base, ...orange })).map((d) => d.variable)).toEqual(['CAISSE_ORANGE_ENVIRONMENT']);
    // No provider configured, or every variable set: nothing to say.
    expect(sandboxDefaultsInUse(loadConfig(base))).toEqual([]);
    expect(sandboxDefaultsInUse(loadConfig({ ...prod, ...mtn, CAISSE_MOMO_TARGET_ENVIRONMENT: 'mtncameroon' }))).toEqual([]);
  });
});
