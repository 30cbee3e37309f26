import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { systemClock } from '../../platform/clock.ts';
import { callbackSigner } from './connectors.references.ts';
import { readProviderSettings } from './connectors.settings.ts';
import {
  connectorSettings,
  createConnectorRegistry,
  describeProvider,
  isReference,
  newReference,
  PROVIDER_NAMES,
  type ProviderDescription,
  sandboxSettings,
} from './index.ts';

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
    const settings = sandboxSettings('http://127.0.0.1:8090', { callbackUrl: 'http://127.0.0.1:8080/callbacks/mtn_momo' });
    expect(settings.orange_money).toMatchObject({
      baseUrl: 'http://127.0.0.1:8090/orange-money',
      environment: 'dev',
      callbackUrl: 'http://127.0.0.1:8080/callbacks/orange_money',
    });
    expect(settings.wave).toMatchObject({ baseUrl: 'http://127.0.0.1:8090/wave' });
    const test = createConnectorRegistry(settings, deps);
    expect(test.providers()).toEqual(['mtn_momo', 'orange_money', 'wave']);
    await test.close();
    expect(PROVIDER_NAMES).toEqual(['mtn_momo', 'orange_money', 'wave']);
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
    expect(connectorSettings(loadConfig({ ...base, CAISSE_ORANGE_BASE_URL: '', CAISSE_WAVE_TIMEOUT_MS: '' }))).toEqual({});
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
