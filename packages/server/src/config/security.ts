import { isIP } from 'node:net';
import { ConfigError, credential, type Env, integer, oneOf, readableFile } from './env.ts';

export interface SecurityConfig {
  /** When both are set the server terminates TLS itself with these PEM files. */
  tls: { certFile: string; keyFile: string } | undefined;
  /**
   * Proxies whose X-Forwarded-For / X-Forwarded-Proto headers are believed: addresses, CIDR
   * ranges, or `loopback`, `linklocal`, `uniquelocal`. Empty: no proxy is trusted.
   */
  trustedProxies: string[];
  rateLimit: {
    /** Requests per second per live API key. */
    live: number;
    /** Requests per second per test API key. */
    test: number;
    /** Requests per minute per client IP on login and registration (live mode). */
    ipPerMinute: number;
    /** Provider callbacks per minute per client address (each costs a status read at the provider). */
    callbacksPerMinute: number;
  };
  /** Prefix of every Redis key this deployment writes (rate-limit counters). */
  redisPrefix: string;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** CAISSE_TRUSTED_PROXIES: comma-separated addresses, CIDR ranges or proxy-addr's names. */
function trustedProxies(env: Env): string[] {
  const raw = env.CAISSE_TRUSTED_PROXIES;
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((part) => {
    const entry = part.trim();
    if (PROXY_NAMES.includes(entry)) return entry;
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= max);
    if (family === 0 || extra !== undefined || !prefixOk) {
      throw new ConfigError('CAISSE_TRUSTED_PROXIES', `"${entry}" is not an IP address, a CIDR range (10.0.0.0/8) or one of ${PROXY_NAMES.join(', ')}`);
    }
    return entry;
  });
}

export function security(env: Env): SecurityConfig {
  const certFile = readableFile(env, 'CAISSE_TLS_CERT_FILE');
  const keyFile = readableFile(env, 'CAISSE_TLS_KEY_FILE');
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new ConfigError(certFile === undefined ? 'CAISSE_TLS_CERT_FILE' : 'CAISSE_TLS_KEY_FILE', 'must be set together with the other TLS file');
  }
  const redisPrefix = env.CAISSE_REDIS_PREFIX ?? 'caisse:';
  if (!/^[\w:.-]{0,64}$/.test(redisPrefix)) {
    throw new ConfigError('CAISSE_REDIS_PREFIX', 'may hold only letters, digits and _ : . - (at most 64)');
  }
  return {
    tls: certFile !== undefined && keyFile !== undefined ? { certFile, keyFile } : undefined,
    trustedProxies: trustedProxies(env),
    rateLimit: {
      live: integer(env, 'CAISSE_RATE_LIMIT_LIVE', 100, 1, 1_000_000),
      test: integer(env, 'CAISSE_RATE_LIMIT_TEST', 25, 1, 1_000_000),
      ipPerMinute: integer(env, 'CAISSE_RATE_LIMIT_IP', 20, 1, 1_000_000),
      callbacksPerMinute: integer(env, 'CAISSE_RATE_LIMIT_CALLBACKS', 120, 1, 1_000_000),
    },
    redisPrefix,
  };
}

export interface MetricsConfig {
  /** CAISSE_METRICS_TOKEN: `Authorization: Bearer <token>` required on /metrics. */
  token: string | undefined;
  /** CAISSE_METRICS_PORT: /metrics on a listener of its own (and not on the API's port). */
  port: number | undefined;
  /** CAISSE_METRICS_HOST: the address of that listener (default 127.0.0.1). */
  host: string;
}

export interface HardeningConfig {
  /**
   * CAISSE_LIVE_OUTBOX=allow: production may keep live messages in the outbox when no provider
   * is configured (a staging deployment). Development always may. A live row never keeps the code.
   * Without it, production refuses to send a live message with no provider (the wallet's codes).
   */
  liveOutbox: boolean;
  /** Who reads /metrics: with neither a token nor a listener of its own, production answers loopback only. */
  metrics: MetricsConfig;
  /** Failed API-key authentications per minute per client address (CAISSE_RATE_LIMIT_AUTH_FAILURES, 60). */
  authFailuresPerMinute: number;
}

/** CAISSE_LIVE_OUTBOX, CAISSE_METRICS_*, CAISSE_RATE_LIMIT_AUTH_FAILURES. */
export function hardening(env: Env): HardeningConfig {
  const liveOutboxAllowed = oneOf(env, 'CAISSE_LIVE_OUTBOX', ['allow', 'refuse'] as const, 'refuse') === 'allow';
  // No SMS provider no longer stops a production start: a server whose merchants offer no wallet
  // payment never sends an SMS. A live code that would be sent is refused then (503 `unavailable`,
  // messaging), and the start warns (docs/decisions/0076-going-live.md).
  const token = credential(env, 'CAISSE_METRICS_TOKEN');
  if (token !== undefined && token.length < 16) throw new ConfigError('CAISSE_METRICS_TOKEN', 'must be at least 16 characters (openssl rand -hex 24)');
  const port = env.CAISSE_METRICS_PORT ? integer(env, 'CAISSE_METRICS_PORT', 0, 1, 65535) : undefined;
  const host = env.CAISSE_METRICS_HOST?.trim() || '127.0.0.1';
  if (port === undefined && env.CAISSE_METRICS_HOST) throw new ConfigError('CAISSE_METRICS_HOST', 'needs CAISSE_METRICS_PORT');
  if (isIP(host) === 0 && host !== 'localhost') throw new ConfigError('CAISSE_METRICS_HOST', `must be an IP address, got "${host}"`);
  if (port !== undefined && port === integer(env, 'PORT', 8080, 0, 65535)) throw new ConfigError('CAISSE_METRICS_PORT', 'must differ from PORT');
  return {
    liveOutbox: liveOutboxAllowed,
    metrics: { token, port, host },
    authFailuresPerMinute: integer(env, 'CAISSE_RATE_LIMIT_AUTH_FAILURES', 60, 1, 1_000_000),
  };
}
