import { ConfigError, type Env, flag, httpUrl, integer, oneOf, type RunMode } from './config/env.ts';
import { type FeesConfig, fees } from './config/fees.ts';
import { type MessagingConfig, messaging } from './config/messaging.ts';
import { type SandboxConfig, sandbox } from './config/sandbox.ts';
import { type HardeningConfig, hardening, type SecurityConfig, security } from './config/security.ts';
import { databaseUrl, dataDirectory, logFormat, masterKey } from './config/storage.ts';

export { ConfigError, type RunMode };
export type { FeesConfig } from './config/fees.ts';
export type { EmailConfig, MessagingConfig, SmsConfig } from './config/messaging.ts';
export type { SandboxConfig } from './config/sandbox.ts';
export type { HardeningConfig, MetricsConfig, SecurityConfig } from './config/security.ts';
export { dataDirectory, projectRoot } from './config/storage.ts';

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

/**
 * Days before the retention worker deletes rows that are done with, or erases the personal data a
 * decided row no longer needs. Intents, charges, refunds, the ledger and users are never deleted.
 */
export interface RetentionConfig {
  /** Events and webhook deliveries in a final state, with their attempts (CAISSE_RETENTION_EVENTS_DAYS, 30). */
  eventsDays: number;
  /** Expired OTP codes, their authorizations and failed sign-ins, dashboard and end users (CAISSE_RETENTION_OTP_DAYS, 1). */
  otpDays: number;
  /** SMS and e-mail records, the test-mode outbox included (CAISSE_RETENTION_MESSAGES_DAYS, 7). */
  messagesDays: number;
  /** A decided card attempt's holder details, counted from its decision (CAISSE_RETENTION_CARDHOLDER_DAYS, 120; decision 0097). */
  cardholderDays: number;
}

export interface WebhooksConfig {
  /** Test-mode endpoints may point at loopback (CAISSE_WEBHOOK_ALLOW_LOOPBACK; default on in development). */
  allowLoopback: boolean;
  /** Deliveries in flight at once per dispatcher (CAISSE_WEBHOOK_CONCURRENCY). */
  concurrency: number;
}

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
      cardholderDays: integer(env, 'CAISSE_RETENTION_CARDHOLDER_DAYS', 120, 1, 3650),
    },
    sandbox: sandbox(env),
    providerHealth: {
      windowMs: integer(env, 'CAISSE_PROVIDER_HEALTH_WINDOW_MS', 300_000, 1_000, 3_600_000),
      coolDownMs: integer(env, 'CAISSE_PROVIDER_COOLDOWN_MS', 30_000, 100, 3_600_000),
    },
    providerEnv: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => /^CAISSE_[A-Z0-9_]+$/.test(e[0]) && (e[1] ?? '').trim() !== '')),
  };
}
