import { randomBytes } from 'node:crypto';
import { accessSync, constants as fsConstants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How the server runs (development or production), not to be confused with an API key's KeyMode (test or live). */
export type RunMode = 'development' | 'production';

export interface Config {
  mode: RunMode;
  port: number;
  host: string;
  /** PostgreSQL URL; undefined means the embedded PGlite database in `dataDir`. */
  databaseUrl: string | undefined;
  /**
   * Where LISTEN connects (DATABASE_LISTEN_URL; default DATABASE_URL): a connection that keeps its
   * session, PostgreSQL itself or a session-mode pool, when DATABASE_URL is a pooler in
   * transaction mode (PgBouncer), which cannot deliver notifications to a client.
   */
  databaseListenUrl: string | undefined;
  /**
   * A streaming replica of DATABASE_URL's primary (DATABASE_READ_URL): the dashboard's heavy reads
   * go there while it keeps up (docs/scaling.md, decision 0091). Never money decisions.
   */
  databaseReadUrl: string | undefined;
  /** How far behind the primary the replica may be before reads go back to the primary (DATABASE_READ_MAX_LAG_MS, default 5000). */
  databaseReadMaxLagMs: number;
  dataDir: string;
  /** 32-byte key that encrypts secrets which must stay readable (webhook secrets). */
  masterKey: Buffer;
  logLevel: string;
  /** How log lines are written (CAISSE_LOG_FORMAT): readable on a development terminal, JSON otherwise. */
  logFormat: 'pretty' | 'json';
  redisUrl: string | undefined;
  /** Pool size for PostgreSQL (PGlite always uses one connection). */
  dbPoolSize: number;
  /**
   * Run statements as named prepared statements, parsed and planned once per connection
   * (DB_PREPARED_STATEMENTS, default on, PostgreSQL and PGlite; turn it off behind a pooler such
   * as PgBouncer in transaction mode, which does not keep them).
   */
  dbPreparedStatements: boolean;
  /** Embedded PGlite's engine in a worker thread beside the HTTP server (CAISSE_PGLITE_THREAD, default off: see docs/decisions/0015-performance.md). */
  pgliteThread: boolean;
  /**
   * Embedded PGlite's WebAssembly on V8's baseline compiler only (CAISSE_PGLITE_BASELINE, default
   * off for `caisse start`; the CLI's one-shot commands always): cheaper for a process that lives
   * seconds, 12–14 % fewer payments per second for one that runs (docs/decisions/0059-pglite-on-the-baseline-compiler.md).
   */
  pgliteBaseline: boolean;
  /** API processes of `caisse start` (node:cluster; CAISSE_API_PROCESSES, default 1; PostgreSQL only). */
  apiProcesses: number;
  /** HTTPS, proxies and rate limits (platform/http/security.ts). */
  security: SecurityConfig;
  /** Live outbox, metrics exposure and failed-authentication limits (issue 20). */
  hardening: HardeningConfig;
  /** Webhook delivery (docs/spec/webhooks.md). */
  webhooks: WebhooksConfig;
  /** Where live-mode SMS and e-mail go. Test mode always uses the outbox. */
  messaging: MessagingConfig;
  /** How long finished operational rows are kept (modules/retention). */
  retention: RetentionConfig;
  /** The providers' sandbox for test mode (docs/spec/running.md). */
  sandbox: SandboxConfig;
  /**
   * Every non-empty CAISSE_* variable, for the providers' settings: each provider's
   * description declares its own variables, and the connectors module reads and checks them
   * (`connectorSettings`), so that no provider is named here. Holds secrets: never logged.
   */
  providerEnv: Readonly<Record<string, string>>;
  /**
   * How providers' health is judged (modules/connectors/connectors.health.ts): the window of
   * recent outcomes (CAISSE_PROVIDER_HEALTH_WINDOW_MS, 5 min) and the cool-down before an
   * unavailable provider is probed again (CAISSE_PROVIDER_COOLDOWN_MS, 30 s). Shorter in tests.
   */
  providerHealth: { windowMs: number; coolDownMs: number };
  /** The default fee schedule of every merchant without its own (docs/spec/money-out.md). */
  fees: FeesConfig;
  /** CAISSE_SETTLEMENT_DELAY_DAYS (default 1): how long a charge's net stays pending (docs/spec/money-out.md). */
  settlementDelayDays: number;
  /**
   * CAISSE_PUBLIC_URL: the address people open the dashboard at (https://pay.example.com), for
   * links sent by e-mail. Unset: the address the server listens on, never a request's Host
   * header (the client's to forge: a reset link to its host would hand it the token).
   */
  publicUrl?: string;
}

export interface FeesConfig {
  /** CAISSE_FEE_PERCENT (default 1.5) in basis points. */
  bps: number;
  /** CAISSE_FEE_FIXED, e.g. "XAF:0,EUR:0.25": the fixed part per currency, in minor units (absent: 0). */
  fixedMinor: Record<string, bigint>;
}

/**
 * The providers' sandbox test mode uses (modules/connectors/sandbox). The providers' own accounts
 * are not read here: each provider's description declares its variables (`connectorSettings`).
 */
export interface SandboxConfig {
  /**
   * CAISSE_SANDBOX_URL (alias CAISSE_MOMO_SANDBOX_URL, its first name): test mode never calls a
   * real provider. Unset in development: `start` runs one in-process. Unset otherwise: test-mode
   * provider requests answer 503 `provider_unavailable`.
   */
  url: string | undefined;
  /**
   * CAISSE_SANDBOX_CALLBACKS_URL (alias CAISSE_MOMO_SANDBOX_CALLBACK_URL): this server's callbacks
   * base as the sandbox reaches it (`https://gw.example/callbacks`), each provider's under its
   * name. Unset: this server's own port on loopback (the registry's default).
   */
  callbacksUrl: string | undefined;
}

/**
 * Days before the retention worker deletes rows that are done with. Intents, charges, refunds,
 * the ledger and users are never deleted.
 */
export interface RetentionConfig {
  /** Events and webhook deliveries in a final state, with their attempts (CAISSE_RETENTION_EVENTS_DAYS, 30). */
  eventsDays: number;
  /** Expired OTP codes, their authorizations and failed sign-ins, dashboard and end users (CAISSE_RETENTION_OTP_DAYS, 1). */
  otpDays: number;
  /** SMS and e-mail records, the test-mode outbox included (CAISSE_RETENTION_MESSAGES_DAYS, 7). */
  messagesDays: number;
}

export type SmsConfig = { provider: 'outbox' } | { provider: 'africastalking'; url: string; username: string; apiKey: string; senderId: string | undefined };
export type EmailConfig = { provider: 'outbox' } | { provider: 'smtp'; url: string; from: string };
export interface MessagingConfig {
  sms: SmsConfig;
  email: EmailConfig;
}

export interface WebhooksConfig {
  /** Test-mode endpoints may point at loopback (CAISSE_WEBHOOK_ALLOW_LOOPBACK; default on in development). */
  allowLoopback: boolean;
  /** Deliveries in flight at once per dispatcher (CAISSE_WEBHOOK_CONCURRENCY). */
  concurrency: number;
}

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

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function databaseUrl(env: Env, name: 'DATABASE_URL' | 'DATABASE_LISTEN_URL' | 'DATABASE_READ_URL' = 'DATABASE_URL'): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a URL (expected postgres://user@host:port/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(name, `must use postgres:// or postgresql://, got ${url.protocol}//`);
  }
  return raw;
}

/**
 * The master key: base64 of 32 bytes. Production must configure it. In development, when it is
 * not set, a key is generated once and kept in the data directory so that restarts can still
 * decrypt what was encrypted.
 */
function masterKey(env: Env, mode: RunMode, dataDir: string): Buffer {
  const raw = env.CAISSE_MASTER_KEY;
  if (raw !== undefined && raw !== '') {
    const key = Buffer.from(raw, 'base64');
    if (key.length !== 32 || key.toString('base64') !== raw.trim()) {
      throw new ConfigError('CAISSE_MASTER_KEY', 'must be the base64 encoding of exactly 32 bytes (openssl rand -base64 32)');
    }
    return key;
  }
  if (mode === 'production') throw new ConfigError('CAISSE_MASTER_KEY', 'is required in production mode');
  const file = join(dataDir, 'master.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  return key;
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(name, `must use https:// or http://, got ${url.protocol}//`);
  return raw.replace(/\/+$/, '');
}

/**
 * Test mode's sandbox: CAISSE_SANDBOX_URL and CAISSE_SANDBOX_CALLBACKS_URL, or their first names
 * (CAISSE_MOMO_SANDBOX_URL, and CAISSE_MOMO_SANDBOX_CALLBACK_URL, one provider's callback URL whose
 * last segment is dropped), kept as aliases (docs/decisions/0065-connector-folders.md). Both names
 * with different values: refused, rather than one silently winning.
 */
function sandbox(env: Env): SandboxConfig {
  const url = aliased(env, 'CAISSE_SANDBOX_URL', 'CAISSE_MOMO_SANDBOX_URL', (v) => v);
  const callbacksUrl = aliased(env, 'CAISSE_SANDBOX_CALLBACKS_URL', 'CAISSE_MOMO_SANDBOX_CALLBACK_URL', (v) => v.replace(/\/[^/]*$/, ''));
  return { url, callbacksUrl };
}

/** A URL variable or its older alias (`fromOld` turns the alias's value into the new one's meaning). */
function aliased(env: Env, name: string, old: string, fromOld: (value: string) => string): string | undefined {
  const current = env[name] ? httpUrl(env, name, '') : undefined;
  const former = env[old] ? fromOld(httpUrl(env, old, '')) : undefined;
  if (current !== undefined && former !== undefined && current !== former)
    throw new ConfigError(name, `and its older name ${old} are both set, to different values: keep ${name}`);
  return current ?? former;
}

function required(env: Env, name: string, why: string): string {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') throw new ConfigError(name, `is required ${why}`);
  return raw.trim();
}

/** SMS and e-mail providers for live mode (docs/spec/otp-and-charge.md). Secrets stay in the config object only. */
function messaging(env: Env): MessagingConfig {
  const smsProvider = oneOf(env, 'CAISSE_SMS_PROVIDER', ['outbox', 'africastalking'] as const, 'outbox');
  let sms: SmsConfig = { provider: 'outbox' };
  if (smsProvider === 'africastalking') {
    const why = 'when CAISSE_SMS_PROVIDER=africastalking';
    const username = required(env, 'AFRICASTALKING_USERNAME', why);
    const apiKey = required(env, 'AFRICASTALKING_API_KEY', why);
    const senderId = env.AFRICASTALKING_SENDER_ID?.trim() || undefined;
    if (senderId !== undefined && !/^[A-Za-z0-9 +]{1,16}$/.test(senderId)) {
      throw new ConfigError('AFRICASTALKING_SENDER_ID', 'must be a registered short code or alphanumeric sender id (1 to 16 letters or digits)');
    }
    const fallback = username === 'sandbox' ? 'https://api.sandbox.africastalking.com' : 'https://api.africastalking.com';
    sms = { provider: 'africastalking', url: httpUrl(env, 'AFRICASTALKING_URL', fallback), username, apiKey, senderId };
  }
  const emailProvider = oneOf(env, 'CAISSE_EMAIL_PROVIDER', ['outbox', 'smtp'] as const, 'outbox');
  let email: EmailConfig = { provider: 'outbox' };
  if (emailProvider === 'smtp') {
    const url = required(env, 'SMTP_URL', 'when CAISSE_EMAIL_PROVIDER=smtp');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ConfigError('SMTP_URL', 'is not a URL (expected smtp://user:password@host:587 or smtps://…:465)');
    }
    if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
      throw new ConfigError('SMTP_URL', `must use smtp:// or smtps://, got ${parsed.protocol}//`);
    }
    const from = env.CAISSE_MAIL_FROM?.trim() || 'Caisse <no-reply@caisse.local>';
    if (!/^[^<>@\s]+@[^<>@\s]+$|^[^<>]*<[^<>@\s]+@[^<>@\s]+>$/.test(from)) {
      throw new ConfigError('CAISSE_MAIL_FROM', 'must be an address, e.g. "Shop <no-reply@shop.cm>" or no-reply@shop.cm');
    }
    email = { provider: 'smtp', url, from };
  }
  return { sms, email };
}

/** CAISSE_FEE_PERCENT and CAISSE_FEE_FIXED: the default fee schedule. */
function fees(env: Env): FeesConfig {
  const percent = env.CAISSE_FEE_PERCENT?.trim() || '1.5';
  if (!/^(100(\.0{1,2})?|[0-9]{1,2}(\.[0-9]{1,2})?)$/.test(percent)) {
    throw new ConfigError('CAISSE_FEE_PERCENT', `must be a percentage from 0 to 100 with at most 2 decimals (1.5 = 150 basis points), got "${percent}"`);
  }
  const [whole, fraction = ''] = percent.split('.');
  const bps = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  const fixedMinor: Record<string, bigint> = {};
  for (const part of (env.CAISSE_FEE_FIXED ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const m = /^([A-Z]{3}):(0|[1-9][0-9]{0,11})(?:\.([0-9]{1,2}))?$/.exec(part);
    const exponent = m ? ({ XAF: 0, XOF: 0, EUR: 2, USD: 2 } as Record<string, number>)[m[1] as string] : undefined;
    if (!m || exponent === undefined || (m[3] ?? '').length > exponent) {
      throw new ConfigError('CAISSE_FEE_FIXED', `must list CURRENCY:amount pairs such as "XAF:0,EUR:0.25" (XAF, XOF, EUR, USD), got "${part}"`);
    }
    fixedMinor[m[1] as string] = BigInt(m[2] as string) * 10n ** BigInt(exponent) + BigInt((m[3] ?? '').padEnd(exponent, '0') || '0');
  }
  return { bps, fixedMinor };
}

/** A credential sent in an HTTP header: printable ASCII, no spaces. Its value is never quoted back. */
function credential(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!/^[\x21-\x7e]{1,256}$/.test(raw)) throw new ConfigError(name, 'must be printable ASCII without spaces (at most 256 characters)');
  return raw;
}

function readableFile(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const path = resolve(raw);
  try {
    accessSync(path, fsConstants.R_OK);
  } catch {
    throw new ConfigError(name, `cannot read the file ${path}`);
  }
  return path;
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

function security(env: Env): SecurityConfig {
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
function hardening(env: Env): HardeningConfig {
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

// --- Newcomer defaults (issue 21): one data directory for every entry point, log format. ---

/**
 * The directory a relative CAISSE_DATA_DIR (and the default `.caisse`) is taken from: the root of
 * the npm workspace this server is part of (the nearest directory above it whose package.json has
 * `workspaces`), so `npm start` (which runs in packages/server) and `npx caisse` run from the
 * root or any other folder of the clone open the same database. Outside a workspace: the
 * current directory.
 */
export function projectRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { workspaces?: unknown };
      if (manifest.workspaces !== undefined) return dir;
    } catch {
      /* no package.json here */
    }
    if (dirname(dir) === dir) return process.cwd();
  }
}

/** CAISSE_DATA_DIR, absolute; relative paths and the default `.caisse` are taken from projectRoot(). */
export function dataDirectory(env: Env): string {
  const raw = env.CAISSE_DATA_DIR || '.caisse';
  return isAbsolute(raw) ? resolve(raw) : resolve(projectRoot(), raw);
}

/** CAISSE_LOG_FORMAT: `pretty` (one readable line per entry) or `json`; default pretty only on a terminal in development. */
function logFormat(env: Env, mode: RunMode, terminal: boolean): 'pretty' | 'json' {
  return oneOf(env, 'CAISSE_LOG_FORMAT', ['pretty', 'json'] as const, mode === 'development' && terminal ? 'pretty' : 'json');
}

// --- end of newcomer defaults ---

/** Environment → one validated, typed config. Throws a ConfigError that names the bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const mode = oneOf(env, 'CAISSE_MODE', ['development', 'production'] as const, 'development');
  const dbUrl = databaseUrl(env);
  if (mode === 'production' && dbUrl === undefined) {
    throw new ConfigError('DATABASE_URL', 'is required in production mode: the embedded database runs without fsync and is for development only');
  }
  const listenUrl = databaseUrl(env, 'DATABASE_LISTEN_URL');
  if (listenUrl !== undefined && dbUrl === undefined) throw new ConfigError('DATABASE_LISTEN_URL', 'needs DATABASE_URL (the embedded database has no LISTEN)');
  const readUrl = databaseUrl(env, 'DATABASE_READ_URL');
  if (readUrl !== undefined && dbUrl === undefined) throw new ConfigError('DATABASE_READ_URL', 'needs DATABASE_URL (the embedded database has no replica)');
  const dataDir = dataDirectory(env);
  const logLevel = oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info');
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  }
  return {
    mode,
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || (mode === 'production' ? '0.0.0.0' : '127.0.0.1'),
    databaseUrl: dbUrl,
    databaseListenUrl: listenUrl,
    databaseReadUrl: readUrl,
    databaseReadMaxLagMs: integer(env, 'DATABASE_READ_MAX_LAG_MS', 5000, 100, 3_600_000),
    dataDir,
    masterKey: masterKey(env, mode, dataDir),
    logLevel,
    logFormat: logFormat(env, mode, process.stdout.isTTY === true),
    redisUrl,
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10, 1, 500),
    dbPreparedStatements: flag(env, 'DB_PREPARED_STATEMENTS', true),
    pgliteThread: flag(env, 'CAISSE_PGLITE_THREAD', false),
    pgliteBaseline: flag(env, 'CAISSE_PGLITE_BASELINE', false),
    apiProcesses: integer(env, 'CAISSE_API_PROCESSES', 1, 1, 64),
    security: security(env),
    hardening: hardening(env),
    webhooks: {
      allowLoopback: flag(env, 'CAISSE_WEBHOOK_ALLOW_LOOPBACK', mode === 'development'),
      concurrency: integer(env, 'CAISSE_WEBHOOK_CONCURRENCY', 32, 1, 1000),
    },
    messaging: messaging(env),
    fees: fees(env),
    settlementDelayDays: integer(env, 'CAISSE_SETTLEMENT_DELAY_DAYS', 1, 0, 365),
    publicUrl: env.CAISSE_PUBLIC_URL ? httpUrl(env, 'CAISSE_PUBLIC_URL', '') : undefined,
    retention: {
      eventsDays: integer(env, 'CAISSE_RETENTION_EVENTS_DAYS', 30, 1, 3650),
      otpDays: integer(env, 'CAISSE_RETENTION_OTP_DAYS', 1, 1, 3650),
      messagesDays: integer(env, 'CAISSE_RETENTION_MESSAGES_DAYS', 7, 1, 3650),
    },
    sandbox: sandbox(env),
    providerHealth: {
      windowMs: integer(env, 'CAISSE_PROVIDER_HEALTH_WINDOW_MS', 300_000, 1_000, 3_600_000),
      coolDownMs: integer(env, 'CAISSE_PROVIDER_COOLDOWN_MS', 30_000, 100, 3_600_000),
    },
    providerEnv: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => /^CAISSE_[A-Z0-9_]+$/.test(e[0]) && (e[1] ?? '').trim() !== '')),
  };
}
