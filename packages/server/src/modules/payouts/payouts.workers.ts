import type { Logger } from 'pino';
import { MINUTE, SECOND } from '../../platform/clock.ts';
import { type BackgroundWorker, startWorker } from '../../platform/worker.ts';
import type { PayoutsService } from './payouts.service.ts';

/** The payout scheduler: runs the daily and weekly schedules that are due, once a minute. */
export function startPayoutScheduler(payouts: Pick<PayoutsService, 'runDueSchedules'>, logger: Logger, opts: { intervalMs?: number } = {}): BackgroundWorker {
  return startWorker({
    name: 'payout-scheduler',
    logger,
    firstDelayMs: opts.intervalMs ?? 5 * SECOND,
    intervalMs: opts.intervalMs ?? MINUTE,
    tick: async () => {
      await payouts.runDueSchedules();
      return false;
    },
  });
}
