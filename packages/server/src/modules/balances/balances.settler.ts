import type { Logger } from 'pino';
import { SECOND } from '../../platform/clock.ts';
import { type BackgroundWorker, startWorker } from '../../platform/worker.ts';
import type { BalancesService } from './balances.service.ts';

export const SETTLEMENT_INTERVAL_MS = SECOND;
const GROUPS = 20;

/** The settlement worker: moves matured pending money, then due reserve holds, to available, every second. */
export function startSettlement(
  balances: Pick<BalancesService, 'settleDue' | 'releaseDue'>,
  logger: Logger,
  opts: { intervalMs?: number } = {},
): BackgroundWorker {
  return startWorker({
    name: 'settlement',
    logger,
    firstDelayMs: opts.intervalMs ?? SETTLEMENT_INTERVAL_MS,
    intervalMs: opts.intervalMs ?? SETTLEMENT_INTERVAL_MS,
    tick: async () => {
      await balances.settleDue(GROUPS);
      await balances.releaseDue(GROUPS);
      return false;
    },
  });
}
