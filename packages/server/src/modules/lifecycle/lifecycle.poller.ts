import type { Logger } from 'pino';
import { SECOND } from '../../platform/clock.ts';
import { type BackgroundWorker, startWorker } from '../../platform/worker.ts';

const BATCH = 20;

/**
 * A lifecycle's poller: asks the provider about every PENDING request that is due, with backoff,
 * until each is decided; it also sends again (same reference) a request the provider never
 * received, which recovers a crash between the commit and the provider call; and it reads the
 * callbacks' news that the process which recorded it left unread.
 */
export function startLifecyclePoller(
  name: string,
  lifecycle: { pollDue(limit: number): Promise<number>; readCallbacks?(limit: number): Promise<number>; drain(): Promise<void> },
  logger: Logger,
  opts: { intervalMs?: number } = {},
): BackgroundWorker {
  return startWorker({
    name,
    logger,
    firstDelayMs: opts.intervalMs ?? SECOND,
    intervalMs: opts.intervalMs ?? SECOND,
    tick: async () => {
      const polled = await lifecycle.pollDue(BATCH);
      // Callbacks' news whose reader died or failed, once its lease ended.
      const read = (await lifecycle.readCallbacks?.(BATCH)) ?? 0;
      return polled === BATCH || read === BATCH;
    },
    drain: () => lifecycle.drain(),
  });
}
