import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { systemClock } from './platform/clock.ts';
import { systemRandom } from './platform/crypto.ts';
import { type OpenedDb, openDatabase } from './platform/db.ts';
import type { Deps } from './platform/deps.ts';
import { readTlsFiles } from './platform/http/https.ts';
import { idFactory } from './platform/ids.ts';
import { createLogger } from './platform/logger.ts';
import { migrate } from './platform/migrations.ts';
import { webhookDispatcherWorker } from './modules/webhooks/dispatcher.ts';
import { sweeperWorker } from './modules/intents/intents.sweeper.ts';

export interface Runtime {
  deps: Deps;
  database: OpenedDb;
  logger: Logger;
  close(): Promise<void>;
}

/** Opens the configured database, applies migrations and assembles the production world. */
export async function openRuntime(config: Config): Promise<Runtime> {
  const logger = createLogger({ level: config.logLevel });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize });
  try {
    const applied = await migrate(database.db);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  } catch (err) {
    await database.close();
    throw err;
  }
  const deps: Deps = { config, db: database.db, clock: systemClock, random: systemRandom, ids: idFactory(systemClock) };
  return { deps, database, logger, close: () => database.close() };
}

/** A long-running piece of the process (dispatcher, sweeper) that stops on shutdown. */
export interface BackgroundWorker {
  name: string;
  stop(): Promise<void>;
}

export type WorkerFactory = (runtime: Runtime) => BackgroundWorker;

/** Workers started by `start` (unless --no-worker) and by `worker`. Modules add theirs here. */
export const workerFactories: WorkerFactory[] = [];
workerFactories.push(webhookDispatcherWorker);
workerFactories.push(sweeperWorker);

export async function startServer(config: Config, opts: { port: number; worker: boolean }) {
  const runtime = await openRuntime(config);
  const { deps, logger } = runtime;
  const { merchants } = (await import('./services.ts')).createServices(deps);
  if (config.databaseUrl === undefined && (await merchantsCount(runtime)) === 0) {
    const created = await merchants.createMerchant({ name: 'Development merchant', email: 'dev@caisse.local' });
    process.stdout.write(
      [
        '',
        'Created a development merchant on the empty database:',
        `  merchant id:      ${created.merchantId}`,
        `  test API key:     ${created.test.apiKey}`,
        `  test secret key:  ${created.test.secretKey}`,
        `  dashboard login:  ${created.dashboard.email} / ${created.dashboard.password}`,
        'Keep them: the keys are stored only as hashes and will not be shown again.',
        '',
      ].join('\n'),
    );
  }
  // With CAISSE_TLS_CERT_FILE and CAISSE_TLS_KEY_FILE the server terminates TLS itself.
  const app: FastifyInstance = await buildApp({ deps, logger, tls: readTlsFiles(config) });
  const workers = opts.worker ? workerFactories.map((f) => f(runtime)) : [];
  await app.listen({ port: opts.port, host: config.host });
  installShutdown(logger, async () => {
    await app.close();
    await Promise.all(workers.map((w) => w.stop()));
    await runtime.close();
  });
  return { app, runtime, workers };
}

export async function startWorkers(config: Config) {
  const runtime = await openRuntime(config);
  const workers = workerFactories.map((f) => f(runtime));
  runtime.logger.info({ workers: workers.map((w) => w.name) }, 'workers started');
  installShutdown(runtime.logger, async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await runtime.close();
  });
  return { runtime, workers };
}

async function merchantsCount(runtime: Runtime): Promise<number> {
  const { merchantsRepository } = await import('./modules/merchants/merchants.repository.ts');
  return merchantsRepository.countMerchants(runtime.deps.db);
}

function installShutdown(logger: Logger, stop: () => Promise<void>) {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stop()
      .then(() => process.exit(0))
      .catch((err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
}
