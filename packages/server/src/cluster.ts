import cluster, { type Worker } from 'node:cluster';
import { ConfigError, type Config } from './config.ts';
import { type BackgroundWorker, onParentGone, openRuntime, preflight, SHUTDOWN_DEADLINE_MS, startServer } from './runtime.ts';
import { createServices } from './services.ts';
import { startBackgroundWorkers } from './workers.ts';

/** Set in the environment of the API processes the primary forks. */
const API_PROCESS_ENV = 'CAISSE_API_PROCESS';
/** A process that dies this soon after its start is not restarted in a loop faster than this. */
const RESTART_DELAY_MS = 1000;
/** The primary's word to an API process: shut down gracefully (as on SIGTERM). */
const SHUTDOWN_MESSAGE = 'caisse:shutdown';

/**
 * `caisse start` with several API processes (node:cluster, `--workers N` or CAISSE_API_PROCESSES):
 * the primary forks N processes that share the port and each run the HTTP API with its own
 * PostgreSQL pool, and runs the background workers (webhook dispatcher, expiry sweeper) itself,
 * unless --no-worker. The API processes wake the primary's dispatcher through PostgreSQL NOTIFY
 * when they commit events, and hear API-key revocations the same way.
 *
 * Per-process state: each process has its own API-key cache (kept coherent by those broadcasts)
 * and, without REDIS_URL, its own rate-limit counters, so the per-key limits apply per process.
 *
 * Shutdown: SIGTERM or SIGINT to the primary reaches every API process, which finishes its
 * requests; then the background workers finish their deliveries and the database closes. An API
 * process that dies is replaced.
 */
export async function startCluster(config: Config, opts: { port: number; worker: boolean; processes: number }): Promise<void> {
  if (cluster.isWorker || process.env[API_PROCESS_ENV] === '1') {
    // One banner for the cluster: the first API process prints it (a replacement prints none).
    const { stop } = await startServer(config, { port: opts.port, worker: false, banner: cluster.worker?.id === 1 });
    // A message rather than a signal: a Ctrl-C reaches every process of the group already, and
    // a second signal would cut the requests in flight.
    process.on('message', (message) => {
      if (message !== SHUTDOWN_MESSAGE) return;
      stop().then(
        (clean) => process.exit(clean ? 0 : 1),
        () => process.exit(1),
      );
    });
    return;
  }
  if (config.databaseUrl === undefined) {
    throw new ConfigError('CAISSE_API_PROCESSES', 'several API processes need PostgreSQL (DATABASE_URL): the embedded database is single-process');
  }
  preflight(config);
  const runtime = await openRuntime(config);
  const { logger } = runtime;
  const background: BackgroundWorker[] = opts.worker ? startBackgroundWorkers(runtime.deps, createServices(runtime.deps), logger) : [];
  let stopping = false;

  const fork = (): Worker => cluster.fork({ [API_PROCESS_ENV]: '1', PORT: String(opts.port) });
  const startedAt = new Map<number, number>();
  cluster.on('fork', (w) => startedAt.set(w.id, Date.now()));
  cluster.on('exit', (w, code, signal) => {
    const lived = Date.now() - (startedAt.get(w.id) ?? 0);
    startedAt.delete(w.id);
    if (stopping) return;
    logger.error({ pid: w.process.pid, code, signal }, 'an API process died: starting another');
    setTimeout(
      () => {
        if (!stopping) fork();
      },
      Math.max(0, RESTART_DELAY_MS - lived),
    );
  });
  const listening = Array.from({ length: opts.processes }, () => {
    const w = fork();
    return new Promise<void>((resolve, reject) => {
      w.once('listening', () => resolve());
      w.once('exit', (code) => reject(new Error(`an API process exited with ${code} before it listened`)));
    });
  });
  await Promise.all(listening);
  logger.info({ processes: opts.processes, port: opts.port, workers: background.map((b) => b.name) }, 'API processes listening');

  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal during shutdown: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down the API processes, then the background workers');
    const exits = Object.values(cluster.workers ?? {}).map(
      (w) =>
        new Promise<number>((resolve) => {
          if (!w || w.isDead()) return resolve(0);
          w.once('exit', (code) => resolve(code ?? 1));
          w.send(SHUTDOWN_MESSAGE);
          setTimeout(() => w.process.kill('SIGKILL'), SHUTDOWN_DEADLINE_MS + 5000).unref();
        }),
    );
    const codes = await Promise.all(exits);
    await Promise.allSettled(background.map((b) => b.stop()));
    await runtime.close();
    process.exit(codes.every((c) => c === 0) ? 0 : 1);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  onParentGone(() => void stop('SIGTERM'));
}
