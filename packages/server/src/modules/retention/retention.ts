import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { DAY, MINUTE } from '../../platform/clock.ts';
import type { Deps } from '../../platform/deps.ts';
import { firstIdAt } from '../../platform/ids.ts';
import type { BackgroundWorker, Runtime } from '../../runtime.ts';
import { dashboardRepository } from '../dashboard/dashboard.repository.ts';
import { messagesRepository } from '../messaging/messaging.repository.ts';
import { otpRepository } from '../otp/otp.repository.ts';
import { usersRepository } from '../users/users.repository.ts';
import { eventsRepository } from '../webhooks/events.repository.ts';
import { webhooksRepository } from '../webhooks/webhooks.repository.ts';

/** Rows one delete statement takes at most: each batch commits on its own, so no lock is held long. */
export const RETENTION_BATCH_SIZE = 5000;
/** Between the end of one retention round and the start of the next. */
export const RETENTION_INTERVAL_MS = 10 * MINUTE;
/** The first round, after a process starts (a restart loop must not keep retention from running). */
export const RETENTION_FIRST_ROUND_MS = MINUTE;

/** Rows deleted by one round, per kind. */
export interface PurgeCounts {
  deliveryAttempts: number;
  deliveries: number;
  events: number;
  otpCodes: number;
  messages: number;
  dashboardSessions: number;
  dashboardLoginAttempts: number;
  userLoginAttempts: number;
}

export interface PurgeOptions {
  batchSize?: number;
  /** Aborted: the round stops after the batch in progress (shutdown). */
  signal?: AbortSignal;
}

/**
 * One retention round at `deps.clock.now()`: deletes, batch by batch, what is past its period
 * (config.retention):
 *
 * - webhook deliveries that reached a final state (succeeded, failed) more than `eventsDays` ago,
 *   their attempts first; pending deliveries stay, parked or retrying, whatever their age;
 * - events older than `eventsDays` that no delivery names any more: an event with a pending
 *   delivery, or a final one still inside the period (a recent resend), stays, so GET /events and
 *   resend work for every event of the period;
 * - OTP codes sent more than `otpDays` ago (expired, consumed or not) with the authorizations
 *   they bought, and failed sign-ins (dashboard and end users) as old;
 * - messages (the test-mode outbox and live records) older than `messagesDays`;
 * - dashboard sessions past their expiry.
 *
 * Intents, charges, refunds, the ledger and users are never touched. Returns the counts.
 */
export async function purgeExpired(deps: Pick<Deps, 'db' | 'clock' | 'config'>, opts: PurgeOptions = {}): Promise<PurgeCounts> {
  const { db, config } = deps;
  const limit = opts.batchSize ?? RETENTION_BATCH_SIZE;
  const now = deps.clock.now();
  const ago = (days: number) => new Date(now.getTime() - days * DAY);
  const events = ago(config.retention.eventsDays);
  const otp = ago(config.retention.otpDays);
  const messages = ago(config.retention.messagesDays);

  /** Runs one batch after another until a batch comes back short (or the round is aborted). */
  const drain = async (batch: () => Promise<number>): Promise<number> => {
    let total = 0;
    while (!opts.signal?.aborted) {
      const deleted = await batch();
      total += deleted;
      if (deleted < limit) break;
    }
    return total;
  };

  return {
    // Attempts, then deliveries, then events: each step frees the rows the next one needs free.
    deliveryAttempts: await drain(() => webhooksRepository.purgeFinishedAttempts(db, events, limit)),
    deliveries: await drain(() => webhooksRepository.purgeFinishedDeliveries(db, events, limit)),
    events: await drain(() => eventsRepository.purgeUndelivered(db, events, firstIdAt('event', events), limit)),
    otpCodes: await drain(() => otpRepository.purgeCodesBefore(db, { before: otp, beforeId: firstIdAt('otp', otp), now, limit })),
    messages: await drain(() => messagesRepository.purgeBefore(db, messages, firstIdAt('message', messages), limit)),
    dashboardSessions: await drain(() => dashboardRepository.purgeExpiredSessions(db, now, limit)),
    dashboardLoginAttempts: await drain(() => dashboardRepository.purgeLoginAttemptsBefore(db, otp, limit)),
    userLoginAttempts: await drain(() => usersRepository.purgeLoginAttemptsBefore(db, otp, limit)),
  };
}

/**
 * The retention worker: `purgeExpired` a first time `firstRoundMs` after the start, then every
 * `intervalMs` after the end of the previous round, until `stop()`, which ends the round in
 * progress after its current batch and waits for it.
 */
export function startRetention(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  logger: Logger,
  opts: { intervalMs?: number; firstRoundMs?: number; batchSize?: number; onRound?: (counts: PurgeCounts | undefined) => void } = {},
): BackgroundWorker {
  const stopping = new AbortController();
  const { signal } = stopping;
  const loop = (async () => {
    let wait = opts.firstRoundMs ?? RETENTION_FIRST_ROUND_MS;
    for (;;) {
      try {
        await sleep(wait, undefined, { signal });
      } catch {
        return; // stopped while waiting
      }
      wait = opts.intervalMs ?? RETENTION_INTERVAL_MS;
      let counts: PurgeCounts | undefined;
      try {
        counts = await purgeExpired(deps, { batchSize: opts.batchSize, signal });
        if (Object.values(counts).some((n) => n > 0)) logger.info({ deleted: counts }, 'retention round');
      } catch (err) {
        logger.error({ err }, 'retention round failed');
      }
      opts.onRound?.(counts);
    }
  })();

  return {
    name: 'retention',
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}

/** The factory registered in runtime.ts. */
export const retentionWorker = (runtime: Runtime): BackgroundWorker => startRetention(runtime.deps, runtime.logger);
