import type { FastifyInstance } from 'fastify';
import type { Language } from '@caisse/intl';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import type { Logger } from 'pino';
import { registerAdminRoutes } from './admin.ts';
import { buildApp } from './app.ts';
import { formatBanner, serverVersion } from './banner.ts';
import type { Config } from './config.ts';
import { systemClock } from './platform/clock.ts';
import { systemRandom } from './platform/crypto.ts';
import { createReadRouter, databaseUnreachable, type OpenedDb, openDatabase, openPostgres, type ReadRouter } from './platform/db.ts';
import type { Deps } from './platform/deps.ts';
import { readTlsFiles } from './platform/http/https.ts';
import { idFactory } from './platform/ids.ts';
import { createLogger } from './platform/logger.ts';
import { listenMetrics } from './platform/metrics.ts';
import { migrate } from './platform/migrations.ts';
import { createWakeups } from './platform/wakeups.ts';
import type { BackgroundWorker } from './platform/worker.ts';
import { createServices, type Services } from './services.ts';
import {
  connectorSettings,
  createModeConnectors,
  type ModeConnectors,
  type Sandbox,
  sandboxDefaultsInUse,
  sandboxSecrets,
  startLocalSandbox,
} from './modules/connectors/index.ts';
import { startBackgroundWorkers } from './workers.ts';
import { startAutoAnalyze } from './platform/analyze.ts';

export interface Runtime {
  deps: Deps;
  database: OpenedDb;
  logger: Logger;
  close(): Promise<void>;
}

/**
 * Opens the configured database, applies migrations and assembles the production world.
 * `oneShot`: a CLI command that closes it again within seconds (the embedded engine then runs on
 * V8's baseline compiler, as CAISSE_PGLITE_BASELINE asks of a server).
 */
export async function openRuntime(config: Config, opts: { oneShot?: boolean } = {}): Promise<Runtime> {
  // A command's standard output is its result (`--json` is parsed by scripts): its logs go to stderr.
  const logger = createLogger({ level: config.logLevel, format: config.logFormat, toStderr: opts.oneShot === true });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    preparedStatements: config.dbPreparedStatements,
    pgliteThread: config.pgliteThread,
    pgliteBaseline: config.pgliteBaseline || opts.oneShot === true,
    listenUrl: config.databaseListenUrl,
  });
  try {
    const applied = await migrate(database.db);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  } catch (err) {
    await database.close();
    throw (config.databaseUrl === undefined ? undefined : databaseUnreachable(err, config.databaseUrl)) ?? err;
  }
  const wakeups = createWakeups(database, (err, what) => logger.warn({ err }, what));
  const replica = openReplica(config, database, logger);
  const deps: Deps = { config, db: database.db, clock: systemClock, random: systemRandom, ids: idFactory(systemClock), wakeups, reads: replica?.reads };
  return {
    deps,
    database,
    logger,
    close: async () => {
      await wakeups.close();
      await replica?.close();
      await database.close();
    },
  };
}

/**
 * DATABASE_READ_URL: a pool of its own on the replica, probed every second against the primary.
 * A replica that does not answer yet is no reason not to start: reads go to the primary meanwhile.
 */
function openReplica(config: Config, database: OpenedDb, logger: Logger): { reads: ReadRouter; close(): Promise<void> } | undefined {
  if (config.databaseReadUrl === undefined || database.kind !== 'postgres') return undefined;
  const replica = openPostgres(config.databaseReadUrl, config.dbPoolSize, {
    preparedStatements: config.dbPreparedStatements,
    applicationName: 'caisse-reads',
    // A replica that stops answering gives its reads to the primary within seconds, not TCP's minutes.
    connectTimeoutMs: 2000,
    queryTimeoutMs: 15_000,
  });
  const reads = createReadRouter({ primary: database.db, replica: replica.db, clock: systemClock, maxLagMs: config.databaseReadMaxLagMs, log: logger });
  reads.start();
  logger.info({ maxLagMs: config.databaseReadMaxLagMs }, 'dashboard reads may go to the read replica (DATABASE_READ_URL)');
  return {
    reads,
    close: async () => {
      reads.close();
      await replica.close();
    },
  };
}

export type { BackgroundWorker };

/** The development merchant is named in its own language: its customers read "Payer Marchand de développement". */
const DEVELOPMENT_LANGUAGE: Language = 'fr';
export const DEVELOPMENT_MERCHANT: Record<Language, string> = { fr: 'Marchand de développement', en: 'Development merchant' };

/**
 * The development merchant, made on an empty database. Several processes starting together on one
 * PostgreSQL (hosts behind PgBouncer) may all see it empty: one creates it, the others' insert
 * fails on its unique e-mail and they go on without it.
 */
export async function developmentMerchant(merchants: Services['merchants']) {
  if ((await merchants.countMerchants()) > 0) return undefined;
  try {
    return await merchants.createMerchant({ name: DEVELOPMENT_MERCHANT[DEVELOPMENT_LANGUAGE], language: DEVELOPMENT_LANGUAGE, email: 'dev@caisse.local' });
  } catch (err) {
    if ((await merchants.countMerchants()) > 0) return undefined;
    throw err;
  }
}

export async function startServer(given: Config, opts: { port: number; worker: boolean; banner?: boolean }) {
  // `--port` wins over PORT everywhere, the webhook policy's "gateway's own port" included.
  const config = given.port === opts.port ? given : { ...given, port: opts.port };
  // Everything the configuration names is checked before the database is touched: a mistake in
  // it stops the start with one line, and no migration runs for a server that cannot start.
  const tls = preflight(config);
  const runtime = await openRuntime(config);
  const { deps, logger } = runtime;
  warnWithoutSms(config, logger);
  warnSandboxDefaults(config, logger);
  const services = createServices(deps);
  const { merchants } = services;
  const embedded = config.databaseUrl === undefined;
  // An empty database in development, embedded or PostgreSQL, gets a merchant to try things with.
  const created = embedded || config.mode === 'development' ? await developmentMerchant(merchants) : undefined;
  // Development without CAISSE_SANDBOX_URL: every provider's sandbox in this process serves
  // test mode, so a newcomer takes payments with no provider account anywhere.
  let sandbox: Sandbox | undefined;
  let connectors: ModeConnectors | undefined;
  if (config.mode === 'development' && config.sandbox.url === undefined) {
    const callbacksUrl = `http://127.0.0.1:${opts.port}/callbacks`;
    const secrets = sandboxSecrets(config.dataDir);
    sandbox = await startLocalSandbox(callbacksUrl, secrets);
    connectors = createModeConnectors(
      config,
      { clock: systemClock, logger, callbackKey: config.masterKey },
      { sandboxUrl: sandbox.url, sandboxCallbacksUrl: callbacksUrl, sandboxSecrets: secrets },
    );
    logger.info({ url: sandbox.url }, 'provider sandbox running in this process for test mode');
  }
  // With CAISSE_TLS_CERT_FILE and CAISSE_TLS_KEY_FILE the server terminates TLS itself.
  const app: FastifyInstance = await buildApp({ deps, logger, tls, connectors });
  // The embedded database opens in one process at a time: the CLI's merchant and key commands
  // reach it through this server's loopback admin endpoint while it runs (src/admin.ts). On
  // PostgreSQL too when this process runs the test-mode sandbox: `caisse reconcile --mode test`.
  const admin = embedded || sandbox !== undefined ? await registerAdminRoutes(app, config.dataDir, embedded ? 'embedded' : 'postgresql') : undefined;
  const workers = opts.worker ? startBackgroundWorkers(deps, app.services, logger) : [];
  // The embedded database has no autovacuum to keep its statistics, and so its plans, fresh.
  if (embedded) workers.push(startAutoAnalyze(deps.db, logger));
  const connections = trackConnections(app.server);
  await app.listen({ port: opts.port, host: config.host });
  // CAISSE_METRICS_PORT: /metrics on a listener of its own, and no longer on the API's port.
  const { port: metricsPort, host: metricsHost, token: metricsToken } = config.hardening.metrics;
  const metrics = metricsPort === undefined ? undefined : await listenMetrics(app.metrics, { port: metricsPort, host: metricsHost, token: metricsToken });
  if (metrics) logger.info({ host: metricsHost, port: metrics.port }, 'metrics listening');
  const url = localUrl(app, config);
  admin?.publish(url);
  if (opts.banner !== false) {
    const banner = formatBanner({
      version: serverVersion(),
      mode: config.mode,
      url,
      dataDir: embedded ? config.dataDir : undefined,
      ...(embedded ? {} : { databaseUrl: config.databaseUrl }),
      created,
      merchants: created ? [] : await merchants.listMerchants(3),
    });
    process.stdout.write(banner);
  }
  const stop = once(async () => {
    admin?.remove();
    // HTTP and workers stop together; the database closes once both have finished.
    const [httpClean] = await Promise.all([closeHttp(app, connections, logger, SHUTDOWN_DEADLINE_MS), ...workers.map((w) => w.stop()), metrics?.close()]);
    await sandbox?.close();
    await runtime.close();
    return httpClean;
  });
  installShutdown(logger, stop);
  return { app, runtime, workers, stop };
}

/**
 * The configuration's checks that need more than the environment, before the database is opened:
 * the providers' settings (read again when the connectors are made), and the TLS files.
 */
export function preflight(config: Config): ReturnType<typeof readTlsFiles> {
  connectorSettings(config);
  return readTlsFiles(config);
}

/**
 * A production server may start without an SMS provider: one whose merchants offer no wallet
 * payment never sends an SMS (docs/decisions/0076-going-live.md). Whoever runs it is told at the
 * start what is refused until one is configured: the wallet's codes (sign-up, phone
 * verification, payment), each answered 503 `unavailable`.
 */
export function warnWithoutSms(config: Config, logger: Pick<Logger, 'warn'>): boolean {
  if (config.mode !== 'production' || config.messaging.sms.provider !== 'outbox' || config.hardening.liveOutbox) return false;
  logger.warn(
    { variable: 'CAISSE_SMS_PROVIDER' },
    'no SMS provider: live wallet payments, customer sign-ups and phone verifications are refused (503 unavailable) until CAISSE_SMS_PROVIDER is set; mobile-money payments are not affected',
  );
  return true;
}

/**
 * Outside production a live account of the environment may run on a sandbox default (MTN's
 * target environment `sandbox`, Orange's `dev`): said at the start, never applied silently
 * (production refuses to start instead: docs/decisions/0076-going-live.md).
 */
export function warnSandboxDefaults(config: Config, logger: Pick<Logger, 'warn'>): number {
  const defaults = sandboxDefaultsInUse(config);
  for (const d of defaults) {
    logger.warn(
      { variable: d.variable, provider: d.connector },
      `${d.variable} is unset: live mode calls ${d.connector} with the sandbox's ${d.value}, which takes no real payment; set it before going live (production refuses to start without it)`,
    );
  }
  return defaults.length;
}

/** How a person on this machine reaches the server: loopback when it listens on every address. */
function localUrl(app: FastifyInstance, config: Config): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `${config.security.tls ? 'https' : 'http'}://${host}:${port}`;
}

export async function startWorkers(config: Config) {
  preflight(config);
  const runtime = await openRuntime(config);
  const workers = startBackgroundWorkers(runtime.deps, createServices(runtime.deps), runtime.logger);
  runtime.logger.info({ workers: workers.map((w) => w.name) }, 'workers started');
  const stop = once(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await runtime.close();
    return true;
  });
  installShutdown(runtime.logger, stop);
  return { runtime, workers, stop };
}

/** A graceful shutdown may take this long; then the connections still open are cut (exit 1). */
export const SHUTDOWN_DEADLINE_MS = 30_000;

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => (running ??= fn());
}

/** The server's open connections, each with the number of its requests still being answered. */
export interface Connections {
  /** Connections with no request being answered: keep-alive ones between requests, and new ones that have sent no request yet. */
  idle(): Socket[];
}

/**
 * Follows the server's connections (TLS ones once their handshake is done) and their requests
 * with public events only: a request counts from 'request' until its response closes.
 */
export function trackConnections(server: FastifyInstance['server']): Connections {
  const busy = new Map<Socket, number>();
  const add = (socket: Socket) => {
    busy.set(socket, 0);
    socket.once('close', () => busy.delete(socket));
  };
  server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', add);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    if (!busy.has(socket)) return;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.once('close', () => {
      if (busy.has(socket)) busy.set(socket, Math.max(0, (busy.get(socket) ?? 1) - 1));
    });
  });
  return { idle: () => [...busy].filter(([, n]) => n === 0).map(([socket]) => socket) };
}

/**
 * Stops the HTTP server gracefully and resolves true, or false if the deadline cut requests.
 * `app.close()` stops accepting connections, runs the preClose hooks (open event streams end),
 * answers requests that arrive on already-open keep-alive connections with 503 and
 * `connection: close`, and waits for every connection to end. Node closes only the keep-alive
 * connections idle at that instant, and never one that has sent no request yet (it counts as
 * waiting for headers, up to 60 s): a connection whose request finishes later, or a client that
 * opened one and sent nothing, would hold the close up, so every 100 ms the connections with no
 * request being answered are closed.
 */
export async function closeHttp(app: FastifyInstance, connections: Connections, logger: Logger, deadlineMs: number): Promise<boolean> {
  const server = app.server as { closeAllConnections?: () => void };
  const sweep = setInterval(() => {
    for (const socket of connections.idle()) socket.destroy();
  }, 100);
  let timer: NodeJS.Timeout | undefined;
  const closing = app.close().then(() => true);
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), deadlineMs);
  });
  try {
    if (await Promise.race([closing, deadline])) return true;
    logger.warn({ deadlineMs }, 'requests still running at the shutdown deadline: closing their connections');
    server.closeAllConnections?.();
    await closing;
    return false;
  } finally {
    clearInterval(sweep);
    clearTimeout(timer);
  }
}

/**
 * SIGTERM or SIGINT: stop gracefully (no new connections, requests and webhook deliveries in
 * flight finish, the database closes), then exit 0 — or 1 if the deadline cut something or the
 * stop failed. A second signal during the shutdown exits at once with 1.
 */
function installShutdown(logger: Logger, stop: () => Promise<boolean>) {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal during shutdown: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: refusing new connections, finishing requests and deliveries in flight');
    stop()
      .then((clean) => {
        logger.info({ clean }, 'shut down: database closed');
        process.exit(clean ? 0 : 1);
      })
      .catch((err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  onParentGone(() => onSignal('SIGTERM'));
}

/**
 * The process that started this one, read when this module loads, before the database opens and
 * the port listens. Read later (when the shutdown is installed, after the listen and the banner's
 * query), it could already be the process that adopted an orphan: a SIGTERM to npm in between
 * (a supervisor that saw /healthz answer) left the server running for good.
 */
const STARTED_BY = process.ppid;

/** How often a server started by npm looks whether npm is still there. */
const PARENT_POLL_MS = 500;

/**
 * `npx caisse start` runs the server under npm and a shell: a SIGTERM to npm ends npm and the
 * shell, and the shell does not pass it on, so the server, orphaned, would run on. Started by npm
 * (which sets npm_execpath), the server stops as on SIGTERM when the process that started it is
 * gone. Only then: a server started by hand and left behind on purpose (setsid, nohup) runs on.
 * `parent`: the process that started it (by default, as read when the server began).
 */
export function onParentGone(stop: () => void, env: NodeJS.ProcessEnv = process.env, parent: number = STARTED_BY): void {
  if (env.npm_execpath === undefined) return;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    // The terminal or pipe our output went to may be gone with the parent.
    process.stdout.on('error', () => {});
    process.stderr.on('error', () => {});
    stop();
  }, PARENT_POLL_MS);
  watch.unref();
}
