import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { readTlsFiles, serverOptions } from '../src/platform/http/https.ts';

const base = { CAISSE_MASTER_KEY: Buffer.alloc(32, 3).toString('base64'), CAISSE_DATA_DIR: '/tmp/caisse-security-config-test' };
const dir = mkdtempSync(join(tmpdir(), 'caisse-tls-'));
const certFile = join(dir, 'cert.pem');
const keyFile = join(dir, 'key.pem');
writeFileSync(certFile, 'CERT');
writeFileSync(keyFile, 'KEY');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('security configuration', () => {
  it('defaults: no TLS, no trusted proxy, 100/s live, 25/s test, 20/min per address', () => {
    const c = loadConfig(base);
    expect(c.security).toEqual({
      tls: undefined,
      trustedProxies: [],
      rateLimit: { live: 100, test: 25, ipPerMinute: 20, callbacksPerMinute: 120 },
      redisPrefix: 'caisse:',
    });
    expect(serverOptions(c, undefined)).toEqual({ trustProxy: false });
    expect(readTlsFiles(c)).toBeUndefined();
  });

  it('reads every variable', () => {
    const c = loadConfig({
      ...base,
      CAISSE_TLS_CERT_FILE: certFile,
      CAISSE_TLS_KEY_FILE: keyFile,
      CAISSE_TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.7,loopback, ::1, fd00::/8',
      CAISSE_RATE_LIMIT_LIVE: '500',
      CAISSE_RATE_LIMIT_TEST: '50',
      CAISSE_RATE_LIMIT_IP: '7',
      CAISSE_RATE_LIMIT_CALLBACKS: '6000',
      CAISSE_REDIS_PREFIX: 'shop-a:',
    });
    expect(c.security).toEqual({
      tls: { certFile, keyFile },
      trustedProxies: ['10.0.0.0/8', '192.168.1.7', 'loopback', '::1', 'fd00::/8'],
      rateLimit: { live: 500, test: 50, ipPerMinute: 7, callbacksPerMinute: 6000 },
      redisPrefix: 'shop-a:',
    });
    expect(readTlsFiles(c)).toEqual({ cert: Buffer.from('CERT'), key: Buffer.from('KEY') });
    expect(serverOptions(c, { cert: Buffer.from('CERT'), key: Buffer.from('KEY') })).toMatchObject({
      trustProxy: c.security.trustedProxies,
      https: { cert: Buffer.from('CERT'), key: Buffer.from('KEY'), minVersion: 'TLSv1.2' },
    });
  });

  it.each([
    [{ CAISSE_TRUSTED_PROXIES: 'proxy.internal' }, 'CAISSE_TRUSTED_PROXIES'],
    [{ CAISSE_TRUSTED_PROXIES: '10.0.0.0/33' }, 'CAISSE_TRUSTED_PROXIES'],
    [{ CAISSE_TRUSTED_PROXIES: '10.0.0.1,,10.0.0.2' }, 'CAISSE_TRUSTED_PROXIES'],
    [{ CAISSE_TRUSTED_PROXIES: '10.0.0.0/8/1' }, 'CAISSE_TRUSTED_PROXIES'],
    [{ CAISSE_TLS_CERT_FILE: join(dir, 'missing.pem'), CAISSE_TLS_KEY_FILE: keyFile }, 'CAISSE_TLS_CERT_FILE'],
    [{ CAISSE_TLS_CERT_FILE: certFile }, 'CAISSE_TLS_KEY_FILE'],
    [{ CAISSE_TLS_KEY_FILE: keyFile }, 'CAISSE_TLS_CERT_FILE'],
    [{ CAISSE_RATE_LIMIT_LIVE: '0' }, 'CAISSE_RATE_LIMIT_LIVE'],
    [{ CAISSE_RATE_LIMIT_TEST: 'many' }, 'CAISSE_RATE_LIMIT_TEST'],
    [{ CAISSE_RATE_LIMIT_IP: '-1' }, 'CAISSE_RATE_LIMIT_IP'],
    [{ CAISSE_RATE_LIMIT_CALLBACKS: '0' }, 'CAISSE_RATE_LIMIT_CALLBACKS'],
    [{ CAISSE_REDIS_PREFIX: 'has space' }, 'CAISSE_REDIS_PREFIX'],
  ])('%o is refused by a ConfigError naming %s', (env, variable) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(expect.objectContaining({ variable, message: expect.stringContaining(variable) }));
  });
});
