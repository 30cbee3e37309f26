import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const KEY = Buffer.alloc(32, 1).toString('base64');
const base = { CAISSE_MASTER_KEY: KEY, CAISSE_DATA_DIR: '/tmp/caisse-config-test' };

function errorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ ...base, ...env });
  } catch (err) {
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has working defaults for development', () => {
    const c = loadConfig(base);
    expect(c).toMatchObject({ mode: 'development', port: 8080, host: '127.0.0.1', databaseUrl: undefined, databaseListenUrl: undefined });
    expect(c.masterKey.length).toBe(32);
  });

  it("keeps the embedded engine's optimizing compiler for a server unless CAISSE_PGLITE_BASELINE says otherwise", () => {
    expect(loadConfig(base).pgliteBaseline).toBe(false);
    expect(loadConfig({ ...base, CAISSE_PGLITE_BASELINE: 'true' }).pgliteBaseline).toBe(true);
    expect(() => loadConfig({ ...base, CAISSE_PGLITE_BASELINE: 'sometimes' })).toThrow(/CAISSE_PGLITE_BASELINE/);
  });

  it('takes a separate LISTEN path for a pooler in transaction mode', () => {
    const c = loadConfig({
      ...base,
      DATABASE_URL: 'postgres://pgbouncer:6432/caisse',
      DATABASE_LISTEN_URL: 'postgres://db:5432/caisse',
      DB_PREPARED_STATEMENTS: 'false',
    });
    expect(c).toMatchObject({ databaseUrl: 'postgres://pgbouncer:6432/caisse', databaseListenUrl: 'postgres://db:5432/caisse', dbPreparedStatements: false });
  });

  it('takes a read replica for the dashboard, 5 s behind at most by default', () => {
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://db/caisse', DATABASE_READ_URL: 'postgres://replica/caisse' })).toMatchObject({
      databaseReadUrl: 'postgres://replica/caisse',
      databaseReadMaxLagMs: 5000,
    });
    expect(loadConfig(base).databaseReadUrl).toBeUndefined();
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ CAISSE_MODE: 'staging' }, 'CAISSE_MODE'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_LISTEN_URL: 'redis://x' }, 'DATABASE_LISTEN_URL'],
    [{ DATABASE_LISTEN_URL: 'postgres://db/x' }, 'DATABASE_LISTEN_URL'],
    [{ DATABASE_READ_URL: 'postgres://replica/x' }, 'DATABASE_READ_URL'],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_READ_URL: 'http://replica' }, 'DATABASE_READ_URL'],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_READ_MAX_LAG_MS: '5' }, 'DATABASE_READ_MAX_LAG_MS'],
    [{ CAISSE_MASTER_KEY: 'c2hvcnQ=' }, 'CAISSE_MASTER_KEY'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ DB_POOL_SIZE: '0' }, 'DB_POOL_SIZE'],
  ])('%o names %s', (env, variable) => {
    const err = errorOf(env);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.variable).toBe(variable);
    expect(err.message).toContain(variable);
  });

  it('production refuses the embedded database and needs a master key', () => {
    expect(errorOf({ CAISSE_MODE: 'production' }).variable).toBe('DATABASE_URL');
    expect(() => loadConfig({ CAISSE_MODE: 'production', DATABASE_URL: 'postgres://db/x', CAISSE_DATA_DIR: '/tmp/x' })).toThrow(/CAISSE_MASTER_KEY/);
    expect(loadConfig({ ...base, CAISSE_MODE: 'production', DATABASE_URL: 'postgres://db/x', CAISSE_LIVE_OUTBOX: 'allow' }).mode).toBe('production');
  });

  it('metrics: a token of 16 characters or more, or a port of their own on an IP address (issue 20)', () => {
    expect(loadConfig(base).hardening.metrics).toEqual({ token: undefined, port: undefined, host: '127.0.0.1' });
    expect(
      loadConfig({ ...base, CAISSE_METRICS_TOKEN: 'a'.repeat(16), CAISSE_METRICS_PORT: '9464', CAISSE_METRICS_HOST: '10.0.0.5' }).hardening.metrics,
    ).toEqual({
      token: 'a'.repeat(16),
      port: 9464,
      host: '10.0.0.5',
    });
    expect(errorOf({ CAISSE_METRICS_TOKEN: 'short' }).variable).toBe('CAISSE_METRICS_TOKEN');
    expect(errorOf({ CAISSE_METRICS_TOKEN: 'with a space inside it' }).variable).toBe('CAISSE_METRICS_TOKEN');
    expect(errorOf({ CAISSE_METRICS_HOST: '10.0.0.5' }).variable).toBe('CAISSE_METRICS_HOST');
    expect(errorOf({ CAISSE_METRICS_PORT: '9464', CAISSE_METRICS_HOST: 'metrics.internal' }).variable).toBe('CAISSE_METRICS_HOST');
    expect(errorOf({ CAISSE_METRICS_PORT: '8080' }).variable).toBe('CAISSE_METRICS_PORT');
    expect(errorOf({ CAISSE_METRICS_PORT: '0' }).variable).toBe('CAISSE_METRICS_PORT');
    expect(errorOf({ CAISSE_RATE_LIMIT_AUTH_FAILURES: '0' }).variable).toBe('CAISSE_RATE_LIMIT_AUTH_FAILURES');
    expect(loadConfig(base).hardening.authFailuresPerMinute).toBe(60);
  });

  it('production starts without an SMS provider, and keeps no live code in the outbox unless CAISSE_LIVE_OUTBOX=allow (issue 54)', () => {
    const prod = { CAISSE_MODE: 'production', DATABASE_URL: 'postgres://db/x' };
    // A server whose merchants offer no wallet payment never sends an SMS: it starts.
    const config = loadConfig({ ...base, ...prod });
    expect(config.messaging.sms.provider).toBe('outbox');
    expect(config.hardening.liveOutbox).toBe(false);
    expect(errorOf({ ...prod, CAISSE_SMS_PROVIDER: 'outbox', CAISSE_LIVE_OUTBOX: 'yes' }).variable).toBe('CAISSE_LIVE_OUTBOX');
    expect(loadConfig({ ...base, ...prod, CAISSE_LIVE_OUTBOX: 'allow' }).hardening.liveOutbox).toBe(true);
    const sms = { CAISSE_SMS_PROVIDER: 'africastalking', AFRICASTALKING_USERNAME: 'shop', AFRICASTALKING_API_KEY: 'k' };
    expect(loadConfig({ ...base, ...prod, ...sms }).hardening.liveOutbox).toBe(false);
    expect(loadConfig(base).hardening.liveOutbox).toBe(false);
  });

  describe("test mode's sandbox", () => {
    it('CAISSE_SANDBOX_URL and CAISSE_SANDBOX_CALLBACKS_URL, unset by default', () => {
      expect(loadConfig(base).sandbox).toEqual({ url: undefined, callbacksUrl: undefined });
      expect(
        loadConfig({ ...base, CAISSE_SANDBOX_URL: 'http://127.0.0.1:8090/', CAISSE_SANDBOX_CALLBACKS_URL: 'https://gw.example/callbacks/' }).sandbox,
      ).toEqual({
        url: 'http://127.0.0.1:8090',
        callbacksUrl: 'https://gw.example/callbacks',
      });
      expect(errorOf({ CAISSE_SANDBOX_URL: 'ftp://x' }).variable).toBe('CAISSE_SANDBOX_URL');
    });

    it('takes their first names as aliases, and refuses both names set to different values', () => {
      const old = { CAISSE_MOMO_SANDBOX_URL: 'http://127.0.0.1:8090/', CAISSE_MOMO_SANDBOX_CALLBACK_URL: 'https://gw.example/callbacks/x/' };
      expect(loadConfig({ ...base, ...old }).sandbox).toEqual({ url: 'http://127.0.0.1:8090', callbacksUrl: 'https://gw.example/callbacks' });
      expect(loadConfig({ ...base, ...old, CAISSE_SANDBOX_URL: 'http://127.0.0.1:8090' }).sandbox.url).toBe('http://127.0.0.1:8090');
      expect(errorOf({ CAISSE_MOMO_SANDBOX_URL: 'ftp://x' }).variable).toBe('CAISSE_MOMO_SANDBOX_URL');
      expect(errorOf({ CAISSE_MOMO_SANDBOX_URL: 'http://127.0.0.1:8090', CAISSE_SANDBOX_URL: 'http://127.0.0.1:9090' }).variable).toBe('CAISSE_SANDBOX_URL');
    });

    it("reads no provider's account: each description declares its variables, kept for the connectors", () => {
      const c = loadConfig({ ...base, CAISSE_MOMO_API_KEY: 'k', CAISSE_WAVE_API_KEY: 'w', CAISSE_EMPTY: ' ', OTHER: 'x' });
      expect(c.providerEnv).toMatchObject({ CAISSE_MOMO_API_KEY: 'k', CAISSE_WAVE_API_KEY: 'w' });
      expect(c.providerEnv).not.toHaveProperty('CAISSE_EMPTY');
      expect(c.providerEnv).not.toHaveProperty('OTHER');
    });
  });
});
