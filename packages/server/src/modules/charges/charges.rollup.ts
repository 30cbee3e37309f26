import type { Logger } from 'pino';
import { MINUTE } from '../../platform/clock.ts';
import { type BackgroundWorker, startWorker } from '../../platform/worker.ts';
import type { ChargesService } from './charges.service.ts';

/** A closed hour waits at most this long (plus the grace) before the overview reads it from the rollup. */
export const ROLLUP_INTERVAL_MS = MINUTE;

/**
 * The overview's rollup worker: rolls closed hours up one at a time (`rollUpNext`), without
 * waiting while hours are behind (a first start catches up on the whole history), then once a
 * minute. Any number of processes may run it: they take turns on the rollup's row lock.
 */
export function startChargeRollup(charges: Pick<ChargesService, 'rollUpNext'>, logger: Logger, opts: { intervalMs?: number } = {}): BackgroundWorker {
  return startWorker({
    name: 'charge-rollup',
    logger,
    firstDelayMs: opts.intervalMs ?? ROLLUP_INTERVAL_MS / 6,
    intervalMs: opts.intervalMs ?? ROLLUP_INTERVAL_MS,
    tick: () => charges.rollUpNext(),
  });
}
