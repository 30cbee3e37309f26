import type { Logger } from 'pino';
import { MINUTE, SECOND } from '../../platform/clock.ts';
import { type BackgroundWorker, startWorker } from '../../platform/worker.ts';
import type { PayoutsService } from './payouts.service.ts';

export const PAYOUT_POLL_INTERVAL_MS = SECOND;
const BATCH = 20;

/**
 * The payout poller: asks the provider about every PENDING payout that is due, with backoff, until
 * the provider decides it; it also sends again (same reference) one the provider never received,
 * which recovers a crash between the payout's commit and its provider call.
 */
export function startPayoutPoller(payouts: Pick<PayoutsService, 'pollDue' | 'drain'>, logger: Logger, opts: { intervalMs?: number } = {}): BackgroundWorker {
  return startWorker({
    name: 'payout-poller',
    logger,
    firstDelayMs: opts.intervalMs ?? PAYOUT_POLL_INTERVAL_MS,
    intervalMs: opts.intervalMs ?? PAYOUT_POLL_INTERVAL_MS,
    tick: async () => (await payouts.pollDue(BATCH)) === BATCH,
    drain: () => payouts.drain(),
  });
}

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
