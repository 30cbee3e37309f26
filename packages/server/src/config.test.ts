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
    expect(c).toMatchObject({ mode: 'development', port: 8080, host: '127.0.0.1', databaseUrl: undefined });
    expect(c.masterKey.length).toBe(32);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ CAISSE_MODE: 'staging' }, 'CAISSE_MODE'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
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
    expect(loadConfig({ ...base, CAISSE_MODE: 'production', DATABASE_URL: 'postgres://db/x' }).mode).toBe('production');
  });
});
