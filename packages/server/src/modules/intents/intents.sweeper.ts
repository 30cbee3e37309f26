import type { Logger } from 'pino';
import { type BackgroundWorker, startWorker } from '../../platform/worker.ts';
import type { IntentsService } from './intents.service.ts';

export const SWEEP_INTERVAL_MS = 1000;

/**
 * The sweeper worker: expires due intents (`sweepExpired`) every `intervalMs`, measured from the
 * end of the previous round, until stopped.
 */
export function startSweeper(
  intents: Pick<IntentsService, 'sweepExpired'>,
  logger: Logger,
  opts: { intervalMs?: number; onRound?: () => void } = {},
): BackgroundWorker {
  return startWorker({
    name: 'sweeper',
    logger,
    firstDelayMs: opts.intervalMs ?? SWEEP_INTERVAL_MS,
    intervalMs: opts.intervalMs ?? SWEEP_INTERVAL_MS,
    async tick() {
      const expired = await intents.sweepExpired();
      if (expired > 0) logger.info({ expired }, 'sweeper round');
    },
    onTick: opts.onRound,
  });
}
