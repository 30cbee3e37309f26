import type { Logger } from 'pino';
import type { Deps } from '../../platform/deps.ts';
import { purgeIdempotencyKeys } from '../../platform/http/idempotency.ts';
import type { BackgroundWorker, Runtime } from '../../runtime.ts';
import { intentsRepository as repo } from './intents.repository.ts';
import { wakeDispatchers } from '../webhooks/events.ts';
import { applyTransition } from './intents.service.ts';

export const SWEEP_BATCH_SIZE = 100;
export const SWEEP_INTERVAL_MS = 1000;

/**
 * Expires, for good, every PENDING intent whose expiresAt has passed at `deps.clock.now()`:
 * status EXPIRED and a `payment.expired` event, in one transaction per batch. Batches are claimed
 * `FOR UPDATE SKIP LOCKED`, so sweepers of several processes share the work and never wait on an
 * intent that a charge holds. Returns how many intents it expired. Tests call it directly with
 * a ManualClock.
 */
export async function sweepExpiredIntents(deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'wakeups'>, batchSize = SWEEP_BATCH_SIZE): Promise<number> {
  let total = 0;
  for (;;) {
    const now = deps.clock.now();
    const swept = await deps.db.transaction().execute(async (tx) => {
      const due = await repo.claimDue(tx, now, batchSize);
      for (const { merchant_api_version, ...row } of due) {
        await applyTransition(tx, deps, row, 'EXPIRED', { apiVersion: merchant_api_version });
      }
      return due.length;
    });
    if (swept > 0) wakeDispatchers(deps);
    total += swept;
    if (swept < batchSize) return total;
  }
}

/** One round of housekeeping: expire due intents, purge idempotency records past 24 hours. */
export async function sweepOnce(deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'wakeups'>) {
  const expired = await sweepExpiredIntents(deps);
  const purged = await purgeIdempotencyKeys(deps);
  return { expired, purged };
}

/**
 * The sweeper worker: `sweepOnce` every `intervalMs` (measured from the end of the previous
 * round), until `stop()`, which waits for a round in progress to end.
 */
export function startSweeper(deps: Deps, logger: Logger, opts: { intervalMs?: number; onRound?: () => void } = {}): BackgroundWorker {
  const intervalMs = opts.intervalMs ?? SWEEP_INTERVAL_MS;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> | undefined;
  let stopped = false;

  const runRound = async () => {
    try {
      const { expired, purged } = await sweepOnce(deps);
      if (expired > 0 || purged > 0) logger.info({ expired, purged }, 'sweeper round');
    } catch (err) {
      logger.error({ err }, 'sweeper round failed');
    }
    opts.onRound?.();
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      round = runRound().finally(() => {
        round = undefined;
        schedule();
      });
    }, intervalMs);
  };
  schedule();

  return {
    name: 'sweeper',
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}

/** The factory registered in runtime.ts. */
export const sweeperWorker = (runtime: Runtime): BackgroundWorker => startSweeper(runtime.deps, runtime.logger);
