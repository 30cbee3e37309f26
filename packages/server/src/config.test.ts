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

  it('takes a separate LISTEN path for a pooler in transaction mode', () => {
    const c = loadConfig({
      ...base,
      DATABASE_URL: 'postgres://pgbouncer:6432/caisse',
      DATABASE_LISTEN_URL: 'postgres://db:5432/caisse',
      DB_PREPARED_STATEMENTS: 'false',
    });
    expect(c).toMatchObject({ databaseUrl: 'postgres://pgbouncer:6432/caisse', databaseListenUrl: 'postgres://db:5432/caisse', dbPreparedStatements: false });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ CAISSE_MODE: 'staging' }, 'CAISSE_MODE'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_LISTEN_URL: 'redis://x' }, 'DATABASE_LISTEN_URL'],
    [{ DATABASE_LISTEN_URL: 'postgres://db/x' }, 'DATABASE_LISTEN_URL'],
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

  it('production refuses to keep live codes in the outbox unless CAISSE_LIVE_OUTBOX=allow (issue 20)', () => {
    const prod = { CAISSE_MODE: 'production', DATABASE_URL: 'postgres://db/x' };
    const err = errorOf(prod);
    expect(err.variable).toBe('CAISSE_SMS_PROVIDER');
    expect(err.message).toMatch(/CAISSE_LIVE_OUTBOX=allow/);
    expect(errorOf({ ...prod, CAISSE_SMS_PROVIDER: 'outbox', CAISSE_LIVE_OUTBOX: 'yes' }).variable).toBe('CAISSE_LIVE_OUTBOX');
    expect(loadConfig({ ...base, ...prod, CAISSE_LIVE_OUTBOX: 'allow' }).hardening.liveOutbox).toBe(true);
    const sms = { CAISSE_SMS_PROVIDER: 'africastalking', AFRICASTALKING_USERNAME: 'shop', AFRICASTALKING_API_KEY: 'k' };
    expect(loadConfig({ ...base, ...prod, ...sms }).hardening.liveOutbox).toBe(false);
    expect(loadConfig(base).hardening.liveOutbox).toBe(false);
  });

  describe('MTN MoMo (CAISSE_MOMO_*)', () => {
    const account = {
      CAISSE_MOMO_BASE_URL: 'https://sandbox.momodeveloper.mtn.com/',
      CAISSE_MOMO_API_USER: '0efc4721-b2ec-409c-bcd4-429b4cb8e8e5',
      CAISSE_MOMO_API_KEY: 'apikey-secret-value-1',
      CAISSE_MOMO_COLLECTION_KEY: 'collection-secret-value-2',
      CAISSE_MOMO_DISBURSEMENT_KEY: 'disbursement-secret-value-3',
    };

    it('is unset by default: no account, target environment sandbox, 10 s per call', () => {
      expect(loadConfig(base).momo).toEqual({
        baseUrl: undefined,
        targetEnvironment: 'sandbox',
        apiUser: undefined,
        apiKey: undefined,
        collectionKey: undefined,
        disbursementKey: undefined,
        callbackUrl: undefined,
        sandboxUrl: undefined,
        sandboxCallbackUrl: 'http://127.0.0.1:8080/callbacks/mtn_momo',
        timeoutMs: 10_000,
      });
    });

    it("test mode's sandbox: CAISSE_MOMO_SANDBOX_URL, and its callbacks to this server's port unless told otherwise", () => {
      expect(loadConfig({ ...base, PORT: '9001', CAISSE_MOMO_SANDBOX_URL: 'http://127.0.0.1:8090/' }).momo).toMatchObject({
        sandboxUrl: 'http://127.0.0.1:8090',
        sandboxCallbackUrl: 'http://127.0.0.1:9001/callbacks/mtn_momo',
      });
      expect(loadConfig({ ...base, CAISSE_MOMO_SANDBOX_CALLBACK_URL: 'https://gw.example/callbacks/mtn_momo' }).momo.sandboxCallbackUrl).toBe(
        'https://gw.example/callbacks/mtn_momo',
      );
      expect(() => loadConfig({ ...base, CAISSE_MOMO_SANDBOX_URL: 'ftp://x' })).toThrow(/CAISSE_MOMO_SANDBOX_URL/);
    });

    it('reads a whole account', () => {
      const m = loadConfig({
        ...base,
        ...account,
        CAISSE_MOMO_TARGET_ENVIRONMENT: 'mtncameroon',
        CAISSE_MOMO_CALLBACK_URL: 'https://pay.example.cm/connectors/mtn_momo/callbacks/',
        CAISSE_MOMO_TIMEOUT_MS: '2500',
      }).momo;
      expect(m).toEqual({
        baseUrl: 'https://sandbox.momodeveloper.mtn.com',
        targetEnvironment: 'mtncameroon',
        apiUser: account.CAISSE_MOMO_API_USER,
        apiKey: account.CAISSE_MOMO_API_KEY,
        collectionKey: account.CAISSE_MOMO_COLLECTION_KEY,
        disbursementKey: account.CAISSE_MOMO_DISBURSEMENT_KEY,
        callbackUrl: 'https://pay.example.cm/connectors/mtn_momo/callbacks',
        sandboxUrl: undefined,
        sandboxCallbackUrl: 'http://127.0.0.1:8080/callbacks/mtn_momo',
        timeoutMs: 2500,
      });
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
      const err = errorOf({ ...account, ...env });
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.variable).toBe(variable);
    });

    it('needs every credential with a base URL, and a base URL with any credential', () => {
      const { CAISSE_MOMO_DISBURSEMENT_KEY: _omitted, ...withoutDisbursement } = account;
      expect(errorOf(withoutDisbursement).variable).toBe('CAISSE_MOMO_DISBURSEMENT_KEY');
      expect(errorOf({ CAISSE_MOMO_API_KEY: 'k' }).variable).toBe('CAISSE_MOMO_BASE_URL');
    });

    it('production talks to MTN over HTTPS only', () => {
      const prod = { CAISSE_MODE: 'production', DATABASE_URL: 'postgres://db/x', CAISSE_LIVE_OUTBOX: 'allow' };
      expect(errorOf({ ...prod, ...account, CAISSE_MOMO_BASE_URL: 'http://momo.local' }).variable).toBe('CAISSE_MOMO_BASE_URL');
      expect(errorOf({ ...prod, CAISSE_MOMO_CALLBACK_URL: 'http://pay.example.cm/cb' }).variable).toBe('CAISSE_MOMO_CALLBACK_URL');
      expect(loadConfig({ ...base, ...prod, ...account }).momo.baseUrl).toBe('https://sandbox.momodeveloper.mtn.com');
    });

    it('never quotes a secret in its errors', () => {
      for (const name of ['CAISSE_MOMO_API_KEY', 'CAISSE_MOMO_COLLECTION_KEY', 'CAISSE_MOMO_DISBURSEMENT_KEY']) {
        const secret = 'top secret value';
        expect(errorOf({ ...account, [name]: secret }).message).not.toContain(secret);
      }
    });
  });
});
