import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { systemClock } from '../../platform/clock.ts';
import { callbackSigner, isReference } from './connectors.references.ts';
import { readProviderSettings } from './connectors.settings.ts';
import { connectorSettings, createConnectorRegistry, sandboxSettings, sandboxTarget } from './connectors.registry.ts';
import { describeProvider, newReference, providerNames, type ProviderDescription } from './index.ts';

const deps = { clock: systemClock, logger: { debug() {}, info() {}, warn() {} }, callbackKey: Buffer.alloc(32, 1) };

describe('references', () => {
  it('are UUID v4 made from the injected random source', () => {
    const ref = newReference((n) => Buffer.alloc(n, 0xff));
    expect(ref).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(newReference((n) => Buffer.alloc(n, 0))).toBe('00000000-0000-4000-8000-000000000000');
    expect(isReference(newReference())).toBe(true);
    expect(newReference()).not.toBe(newReference());
    for (const bad of ['', 'order-1', 'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF', '00000000-0000-1000-8000-000000000000']) expect(isReference(bad)).toBe(false);
  });

  it('callback tokens are bound to the secret, the provider, the kind and the reference', () => {
    const ref = newReference();
    const signer = callbackSigner(Buffer.alloc(32, 1), 'mtn_momo');
    const token = signer.sign('collection', ref);
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(signer.verify('collection', ref, token)).toBe(true);
    expect(signer.verify('disbursement', ref, token)).toBe(false);
    expect(signer.verify('collection', newReference(), token)).toBe(false);
    expect(signer.verify('collection', ref, token.slice(0, -1))).toBe(false);
    expect(callbackSigner(Buffer.alloc(32, 2), 'mtn_momo').verify('collection', ref, token)).toBe(false);
    expect(callbackSigner(Buffer.alloc(32, 1), 'orange_money').verify('collection', ref, token)).toBe(false);
  });
});

describe('the registry', () => {
  const base = { CAISSE_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'), CAISSE_DATA_DIR: '/tmp/caisse-connectors-test' };

  it('has no connector when no provider is configured', async () => {
    const registry = createConnectorRegistry(connectorSettings(loadConfig(base)), deps);
    expect(registry.providers()).toEqual([]);
    expect(registry.get('mtn_momo')).toBeUndefined();
    await registry.close();
  });

  it('builds mtn_momo from the configuration, or from a sandbox URL; unknown names have none', async () => {
    const config = loadConfig({
      ...base,
      CAISSE_MOMO_BASE_URL: 'https://sandbox.momodeveloper.mtn.com',
      CAISSE_MOMO_API_USER: '0efc4721-b2ec-409c-bcd4-429b4cb8e8e5',
      CAISSE_MOMO_API_KEY: 'k',
      CAISSE_MOMO_COLLECTION_KEY: 'c',
      CAISSE_MOMO_DISBURSEMENT_KEY: 'd',
    });
    expect(connectorSettings(config).mtn_momo).toMatchObject({ baseUrl: 'https://sandbox.momodeveloper.mtn.com', collectionKey: 'c', timeoutMs: 10_000 });
    const live = createConnectorRegistry(connectorSettings(config), deps);
    expect(live.providers()).toEqual(['mtn_momo']);
    expect(live.get('mtn_momo')?.provider).toBe('mtn_momo');
    expect(live.get('orange_money')).toBeUndefined();
    expect(live.get('__proto__')).toBeUndefined();
    await live.close();
    // The sandbox serves every provider, each under its own path.
    const settings = sandboxSettings('http://127.0.0.1:8090', { callbacksUrl: 'http://127.0.0.1:8080/callbacks/' });
    expect(settings.orange_money).toMatchObject({
      baseUrl: 'http://127.0.0.1:8090/orange-money',
      environment: 'dev',
      callbackUrl: 'http://127.0.0.1:8080/callbacks/orange_money',
    });
    expect(settings.wave).toMatchObject({ baseUrl: 'http://127.0.0.1:8090/wave' });
    expect(settings.pawapay).toMatchObject({ baseUrl: 'http://127.0.0.1:8090/pawapay', callbackSignatures: 'required' });
    const test = createConnectorRegistry(settings, deps);
    expect(test.providers()).toEqual(['mtn_momo', 'orange_money', 'wave', 'cinetpay', 'pawapay']);
    await test.close();
    expect(providerNames()).toEqual(['mtn_momo', 'orange_money', 'wave', 'cinetpay', 'pawapay']);
  });

  const orange = {
    CAISSE_ORANGE_BASE_URL: 'https://api.orange.com',
    CAISSE_ORANGE_ENVIRONMENT: 'cm',
    CAISSE_ORANGE_CLIENT_ID: 'client-id',
    CAISSE_ORANGE_CLIENT_SECRET: 'client-secret',
    CAISSE_ORANGE_MERCHANT_KEY: 'merchant-key',
    CAISSE_ORANGE_CALLBACK_URL: 'https://pay.example.com/callbacks/orange_money',
  };
  const wave = { CAISSE_WAVE_API_KEY: 'wave_sn_prod_key', CAISSE_WAVE_WEBHOOK_SECRET: 'wave_sn_whsec' };

  it('builds orange_money and wave from their CAISSE_ORANGE_* and CAISSE_WAVE_* variables, with defaults', async () => {
    const config = loadConfig({ ...base, ...orange, ...wave, CAISSE_WAVE_TIMEOUT_MS: '5000' });
    const settings = connectorSettings(config);
    expect(settings.orange_money).toEqual({
      baseUrl: 'https://api.orange.com',
      environment: 'cm',
      clientId: 'client-id',
      clientSecret: 'client-secret',
      merchantKey: 'merchant-key',
      callbackUrl: 'https://pay.example.com/callbacks/orange_money',
    });
    expect(settings.wave).toEqual({ baseUrl: 'https://api.wave.com', apiKey: 'wave_sn_prod_key', webhookSecret: 'wave_sn_whsec', timeoutMs: 5000 });
    expect(settings.mtn_momo).toBeUndefined();
    const registry = createConnectorRegistry(settings, deps);
    expect(registry.providers()).toEqual(['orange_money', 'wave']);
    expect(registry.get('wave')?.provider).toBe('wave');
    await registry.close();
    // Each set of variables is an account of its own, named after its settings, never its secrets.
    const id = registry.account('wave') as string;
    expect(id).toMatch(/^pac_env_wave_[0-9a-f]{12}$/);
    const accountOf = async (env: Record<string, string>, provider: string, accounts: 'env' | 'sandbox' = 'env') => {
      const other = createConnectorRegistry(connectorSettings(loadConfig({ ...base, ...env })), deps, undefined, accounts);
      await other.close();
      return other.account(provider);
    };
    expect(await accountOf({ ...wave, CAISSE_WAVE_TIMEOUT_MS: '5000' }, 'wave')).toBe(id);
    expect(await accountOf({ ...wave, CAISSE_WAVE_API_KEY: 'wave_sn_prod_key2', CAISSE_WAVE_TIMEOUT_MS: '5000' }, 'wave')).not.toBe(id);
    expect(await accountOf({ ...wave, CAISSE_WAVE_TIMEOUT_MS: '6000' }, 'wave')).not.toBe(id);
    expect(registry.account('mtn_momo')).toBeUndefined();
    // Test mode's registry is the sandbox's implicit accounts.
    expect(await accountOf(wave, 'wave', 'sandbox')).toBe('pac_sandbox_wave');
    expect(connectorSettings(loadConfig({ ...base, CAISSE_ORANGE_BASE_URL: '', CAISSE_WAVE_TIMEOUT_MS: '' }))).toEqual({});
  });

  describe('mtn_momo from its CAISSE_MOMO_* variables (its description, not config.ts)', () => {
    const account = {
      CAISSE_MOMO_BASE_URL: 'https://sandbox.momodeveloper.mtn.com/',
      CAISSE_MOMO_API_USER: '0efc4721-b2ec-409c-bcd4-429b4cb8e8e5',
      CAISSE_MOMO_API_KEY: 'apikey-secret-value-1',
      CAISSE_MOMO_COLLECTION_KEY: 'collection-secret-value-2',
      CAISSE_MOMO_DISBURSEMENT_KEY: 'disbursement-secret-value-3',
    };
    const mtn = (env: Record<string, string>) => connectorSettings(loadConfig({ ...base, ...env })).mtn_momo as Record<string, unknown> | undefined;
    const variableOf = (env: Record<string, string>) => {
      try {
        mtn(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).variable;
      }
      throw new Error('expected a ConfigError');
    };

    it('reads a whole account, with target environment sandbox and 10 s per call by default', () => {
      expect(mtn(account)).toEqual({
        baseUrl: 'https://sandbox.momodeveloper.mtn.com',
        targetEnvironment: 'sandbox',
        apiUser: account.CAISSE_MOMO_API_USER,
        apiKey: account.CAISSE_MOMO_API_KEY,
        collectionKey: account.CAISSE_MOMO_COLLECTION_KEY,
        disbursementKey: account.CAISSE_MOMO_DISBURSEMENT_KEY,
        timeoutMs: 10_000,
      });
      expect(
        mtn({
          ...account,
          CAISSE_MOMO_TARGET_ENVIRONMENT: 'mtncameroon',
          CAISSE_MOMO_CALLBACK_URL: 'https://pay.example.cm/connectors/mtn_momo/callbacks/',
          CAISSE_MOMO_TIMEOUT_MS: '2500',
        }),
      ).toMatchObject({ targetEnvironment: 'mtncameroon', callbackUrl: 'https://pay.example.cm/connectors/mtn_momo/callbacks', timeoutMs: 2500 });
      expect(mtn({})).toBeUndefined();
    });

    it.each([
      [{ CAISSE_MOMO_BASE_URL: 'ftp://momo' }, 'CAISSE_MOMO_BASE_URL'],
      [{ CAISSE_MOMO_BASE_URL: 'not a url' }, 'CAISSE_MOMO_BASE_URL'],
      [{ CAISSE_MOMO_TARGET_ENVIRONMENT: 'MTN Cameroon' }, 'CAISSE_MOMO_TARGET_ENVIRONMENT'],
      [{ CAISSE_MOMO_API_USER: 'bob' }, 'CAISSE_MOMO_API_USER'],
      [{ CAISSE_MOMO_API_KEY: 'has a space' }, 'CAISSE_MOMO_API_KEY'],
      [{ CAISSE_MOMO_COLLECTION_KEY: 'tab\tinside' }, 'CAISSE_MOMO_COLLECTION_KEY'],
      [{ CAISSE_MOMO_DISBURSEMENT_KEY: 'é' }, 'CAISSE_MOMO_DISBURSEMENT_KEY'],
      [{ CAISSE_MOMO_CALLBACK_URL: 'https://pay.example.cm/cb?x=1' }, 'CAISSE_MOMO_CALLBACK_URL'],
      [{ CAISSE_MOMO_TIMEOUT_MS: '10s' }, 'CAISSE_MOMO_TIMEOUT_MS'],
      [{ CAISSE_MOMO_TIMEOUT_MS: '5' }, 'CAISSE_MOMO_TIMEOUT_MS'],
    ])('%o names %s', (env, variable) => {
      expect(variableOf({ ...account, ...env })).toBe(variable);
    });

    it('needs every collection credential with a base URL, and a base URL with any credential; the disbursement key is optional', () => {
      const { CAISSE_MOMO_DISBURSEMENT_KEY: _omitted, ...withoutDisbursement } = account;
      // A collection-only account (common): it collects, and refuses refunds and payouts saying why.
      expect(mtn(withoutDisbursement)).not.toHaveProperty('disbursementKey');
      expect(mtn(withoutDisbursement)).toMatchObject({ collectionKey: account.CAISSE_MOMO_COLLECTION_KEY });
      const { CAISSE_MOMO_COLLECTION_KEY: _collection, ...withoutCollection } = account;
      expect(variableOf(withoutCollection)).toBe('CAISSE_MOMO_COLLECTION_KEY');
      expect(variableOf({ CAISSE_MOMO_API_KEY: 'k' })).toBe('CAISSE_MOMO_BASE_URL');
    });

    it('production talks to MTN over HTTPS only, and no error quotes a secret', () => {
      const prod = { CAISSE_MODE: 'production', DATABASE_URL: 'postgres://db/x', CAISSE_LIVE_OUTBOX: 'allow' };
      expect(variableOf({ ...prod, ...account, CAISSE_MOMO_BASE_URL: 'http://momo.local' })).toBe('CAISSE_MOMO_BASE_URL');
      expect(variableOf({ ...prod, ...account, CAISSE_MOMO_CALLBACK_URL: 'http://pay.example.cm/cb' })).toBe('CAISSE_MOMO_CALLBACK_URL');
      expect(mtn({ ...prod, ...account, CAISSE_MOMO_TARGET_ENVIRONMENT: 'mtncameroon' })?.baseUrl).toBe('https://sandbox.momodeveloper.mtn.com');
      for (const name of ['CAISSE_MOMO_API_KEY', 'CAISSE_MOMO_COLLECTION_KEY', 'CAISSE_MOMO_DISBURSEMENT_KEY']) {
        expect(() => mtn({ ...account, [name]: 'top secret value' })).toThrow(/^(?![\s\S]*top secret value)/);
      }
    });

    it("test mode's sandbox: its callbacks to this server's port unless told otherwise", () => {
      const target = (env: Record<string, string>) => sandboxTarget(loadConfig({ ...base, ...env }));
      expect(target({})).toEqual({ url: undefined, callbacksUrl: 'http://127.0.0.1:8080/callbacks' });
      expect(target({ PORT: '9001', CAISSE_SANDBOX_URL: 'http://127.0.0.1:8090/' })).toEqual({
        url: 'http://127.0.0.1:8090',
        callbacksUrl: 'http://127.0.0.1:9001/callbacks',
      });
      expect(target({ CAISSE_SANDBOX_CALLBACKS_URL: 'https://gw.example/callbacks' }).callbacksUrl).toBe('https://gw.example/callbacks');
      // The first name, one provider's callback URL, still points every provider's callbacks beside it.
      expect(target({ CAISSE_MOMO_SANDBOX_CALLBACK_URL: 'https://gw.example/callbacks/mtn_momo' }).callbacksUrl).toBe('https://gw.example/callbacks');
    });

    it("each sandbox connector's call bound is its own variable's: MTN's is no longer every provider's", () => {
      const env = { CAISSE_MOMO_TIMEOUT_MS: '1000', CAISSE_WAVE_TIMEOUT_MS: '3000' };
      const settings = sandboxSettings('http://127.0.0.1:8090', { env, mode: 'development' }) as Record<string, { timeoutMs?: number }>;
      expect(settings.mtn_momo?.timeoutMs).toBe(1000);
      expect(settings.wave?.timeoutMs).toBe(3000);
      // Orange's own variable unset: its connector's default, not MTN's.
      expect(settings.orange_money?.timeoutMs).toBeUndefined();
    });
  });

  it('a call time limit alone opens no account: it tunes the sandbox', () => {
    const settings = connectorSettings(loadConfig({ ...base, CAISSE_MOMO_TIMEOUT_MS: '1500' }));
    expect(Object.values(settings).filter((account) => account !== undefined)).toEqual([]);
  });

  it('refuses an incomplete or malformed provider account, naming the variable', () => {
    const refused = (env: Record<string, string>) => () => connectorSettings(loadConfig({ ...base, ...env }));
    expect(refused({ CAISSE_WAVE_API_KEY: 'wave_sn_prod_key' })).toThrow('CAISSE_WAVE_WEBHOOK_SECRET: is required when CAISSE_WAVE_API_KEY is set');
    expect(refused({ ...orange, CAISSE_ORANGE_MERCHANT_KEY: ' ' })).toThrow('CAISSE_ORANGE_MERCHANT_KEY: is required');
    expect(refused({ ...orange, CAISSE_ORANGE_BASE_URL: 'ftp://api.orange.com' })).toThrow('CAISSE_ORANGE_BASE_URL: must use https:// or http://');
    expect(refused({ ...orange, CAISSE_ORANGE_CALLBACK_URL: 'https://pay.example.com/cb?x=1' })).toThrow(
      'CAISSE_ORANGE_CALLBACK_URL: must not have a query string',
    );
    expect(refused({ ...orange, CAISSE_ORANGE_ENVIRONMENT: 'c m' })).toThrow('CAISSE_ORANGE_ENVIRONMENT');
    // Wave: a webhook strategy or a key scope Wave does not have.
    expect(refused({ ...wave, CAISSE_WAVE_WEBHOOK_STRATEGY: 'hmac' })).toThrow('CAISSE_WAVE_WEBHOOK_STRATEGY: must be signing or shared, got "hmac"');
    expect(refused({ ...wave, CAISSE_WAVE_SCOPES: 'checkout,refunds' })).toThrow('CAISSE_WAVE_SCOPES: "refunds" is not a Wave API');
    expect(
      connectorSettings(
        loadConfig({ ...base, ...wave, CAISSE_WAVE_WEBHOOK_STRATEGY: 'shared', CAISSE_WAVE_SIGNING_SECRET: 'wave_sn_AKS_x', CAISSE_WAVE_SCOPES: 'checkout' }),
      ).wave,
    ).toMatchObject({ webhookStrategy: 'shared', signingSecret: 'wave_sn_AKS_x', scopes: 'checkout' });
    // Orange's currency goes with its environment: `cm` with XOF would fail every payment.
    expect(refused({ ...orange, CAISSE_ORANGE_CURRENCY: 'XOF' })).toThrow("CAISSE_ORANGE_CURRENCY: is XOF, but Orange's environment cm takes XAF only");
    expect(refused({ ...orange, CAISSE_ORANGE_ENVIRONMENT: 'sn', CAISSE_ORANGE_CURRENCY: 'XAF' })).toThrow('CAISSE_ORANGE_CURRENCY');
    expect(refused({ ...orange, CAISSE_ORANGE_ENVIRONMENT: 'dev', CAISSE_ORANGE_CURRENCY: 'XAF' })).toThrow('takes OUV only');
    expect(refused({ ...orange, CAISSE_ORANGE_ENVIRONMENT: 'cameroon' })).toThrow(
      'CAISSE_ORANGE_ENVIRONMENT: must be dev or an Orange Money Web Payment country',
    );
    expect(connectorSettings(loadConfig({ ...base, ...orange, CAISSE_ORANGE_CURRENCY: 'XAF' })).orange_money).toMatchObject({
      environment: 'cm',
      currency: 'XAF',
    });
    // The sandbox's environment and unit.
    expect(connectorSettings(loadConfig({ ...base, ...orange, CAISSE_ORANGE_ENVIRONMENT: 'dev', CAISSE_ORANGE_CURRENCY: 'OUV' })).orange_money).toMatchObject({
      environment: 'dev',
      currency: 'OUV',
    });
    expect(refused({ ...wave, CAISSE_WAVE_TIMEOUT_MS: '10s' })).toThrow('CAISSE_WAVE_TIMEOUT_MS: must be a whole number');
    expect(refused({ ...wave, CAISSE_WAVE_API_KEY: 'has space' })).toThrow('CAISSE_WAVE_API_KEY: must be printable ASCII');
    const leaked = (() => {
      try {
        refused({ ...wave, CAISSE_WAVE_API_KEY: 'secret value' })();
      } catch (err) {
        return String(err);
      }
    })();
    expect(leaked).not.toContain('secret value');
    // Production talks to providers over HTTPS only.
    const http = { ...wave, CAISSE_WAVE_BASE_URL: 'http://api.wave.com' };
    expect(readProviderSettings(describeProvider('wave') as ProviderDescription, http, 'development')).toMatchObject({ baseUrl: 'http://api.wave.com' });
    expect(() => readProviderSettings(describeProvider('wave') as ProviderDescription, http, 'production')).toThrow(
      'CAISSE_WAVE_BASE_URL: must use https:// in production mode',
    );
  });
});
