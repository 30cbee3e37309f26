import { type Command, InvalidArgumentError } from 'commander';
import { config, databaseLabel, examples, port, wholeNumber } from '../support.ts';

/** start, worker, migrate: the server, its workers, its database. */
export function registerServerCommands(program: Command): void {
  examples(
    program
      .command('start')
      .description('run the API server (and, unless --no-worker, the webhook dispatcher and expiry sweeper)')
      .option('--port <port>', 'port to listen on (default: PORT or 8080)', port)
      .option('--no-worker', 'do not run the background workers in this process')
      .option('--workers <n>', 'API processes sharing the port (node:cluster; PostgreSQL only; default: CAISSE_API_PROCESSES or 1)', wholeNumber),
    'npx caisse start --port 8081',
    'DATABASE_URL=postgres://caisse@127.0.0.1/caisse npx caisse start --workers 4 --no-worker',
  ).action(async (opts: { port?: number; worker: boolean; workers?: number }) => {
    const cfg = config();
    const processes = opts.workers ?? cfg.apiProcesses;
    if (processes < 1) throw new InvalidArgumentError('--workers is at least 1');
    if (processes > 1) {
      const { startCluster } = await import('../../cluster.ts');
      await startCluster(cfg, { port: opts.port ?? cfg.port, worker: opts.worker, processes });
      return;
    }
    const { startServer } = await import('../../runtime.ts');
    await startServer(cfg, { port: opts.port ?? cfg.port, worker: opts.worker });
  });

  examples(
    program.command('worker').description('run only the background workers (webhook dispatcher, expiry sweeper, pollers)'),
    'DATABASE_URL=postgres://caisse@127.0.0.1/caisse npx caisse worker',
  ).action(async () => {
    const { startWorkers } = await import('../../runtime.ts');
    await startWorkers(config());
  });

  examples(program.command('migrate').description('apply the database migrations and exit'), 'npx caisse migrate').action(async () => {
    const cfg = config();
    const { openRuntime } = await import('../../runtime.ts');
    const runtime = await openRuntime(cfg, { oneShot: true });
    await runtime.close();
    process.stdout.write(`migrations are up to date (${databaseLabel(cfg)})\n`);
  });
}
