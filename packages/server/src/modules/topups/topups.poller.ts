import type { Logger } from 'pino';
import { SECOND } from '../../platform/clock.ts';
import { type BackgroundWorker, startWorker } from '../../platform/worker.ts';
import type { TopupsService } from './topups.service.ts';

export const TOPUP_POLL_INTERVAL_MS = SECOND;
const BATCH = 20;

/**
 * The top-up poller: asks the provider about every PENDING top-up that is due, with backoff,
 * until each is decided or times out after 15 minutes. It also recovers a crash between the
 * commit of a top-up and its provider call (the provider has never seen the reference: sent again).
 */
export function startTopupPoller(topups: Pick<TopupsService, 'pollDue' | 'drain'>, logger: Logger, opts: { intervalMs?: number } = {}): BackgroundWorker {
  return startWorker({
    name: 'topup-poller',
    logger,
    firstDelayMs: opts.intervalMs ?? TOPUP_POLL_INTERVAL_MS,
    intervalMs: opts.intervalMs ?? TOPUP_POLL_INTERVAL_MS,
    tick: async () => (await topups.pollDue(BATCH)) === BATCH,
    drain: () => topups.drain(),
  });
}
