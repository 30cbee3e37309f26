import type { Logger } from 'pino';
import { DAY, MINUTE } from '../../platform/clock.ts';
import type { Deps } from '../../platform/deps.ts';
import { purgeIdempotencyKeys } from '../../platform/http/idempotency.ts';
import { createThrottle } from '../../platform/throttle.ts';
import { type BackgroundWorker, startWorker } from '../../platform/worker.ts';
import type { AttemptsService } from '../charges/index.ts';
import type { DashboardService } from '../dashboard/index.ts';
import type { OperatorsService } from '../operators/index.ts';
import type { EventsService } from '../events/index.ts';
import type { MessagingService } from '../messaging/index.ts';
import type { OtpService } from '../otp/index.ts';
import type { UsersService } from '../users/index.ts';
import type { WebhooksService } from '../webhooks/index.ts';

/** The purges each module offers on its public entry; retention only schedules them. */
export interface Purgers {
  webhooks: Pick<WebhooksService, 'purgeFinished'>;
  events: Pick<EventsService, 'purgeBefore'>;
  otp: Pick<OtpService, 'purgeCodesBefore' | 'purgeDailyFailuresBefore'>;
  messaging: Pick<MessagingService, 'purgeBefore'>;
  dashboard: Pick<DashboardService, 'purgeExpiredSessions'>;
  operators: Pick<OperatorsService, 'purgeExpiredSessions'>;
  users: { account: Pick<UsersService['account'], 'purgeExpired'> };
  attempts: Pick<AttemptsService, 'eraseCardholdersBefore'>;
}

/** Rows one delete statement takes at most: each batch commits on its own, so no lock is held long. */
export const RETENTION_BATCH_SIZE = 5000;
/** Between the end of one retention round and the start of the next. */
export const RETENTION_INTERVAL_MS = 10 * MINUTE;
/** The first round, after a process starts (a restart loop must not keep retention from running). */
export const RETENTION_FIRST_ROUND_MS = MINUTE;

/** Rows deleted (or, for card holders, erased) by one round, per kind. */
export interface PurgeCounts {
  deliveryAttempts: number;
  deliveries: number;
  events: number;
  otpCodes: number;
  otpDailyFailures: number;
  messages: number;
  dashboardSessions: number;
  operatorSessions: number;
  accountSessions: number;
  throttleAttempts: number;
  idempotencyKeys: number;
  /** Decided card attempts whose holder's details were erased. */
  cardholders: number;
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
 *   they bought, the daily counts of wrong codes of days before then, and failed sign-ins
 *   (dashboard and end users) as old;
 * - stored Idempotency-Key answers past their 24 hours;
 * - messages (the test-mode outbox and live records) older than `messagesDays`;
 * - dashboard and operator console sessions, and the customers' account-page sessions and sign-in
 *   codes, past their expiry;
 * - the card holder's details (`payment_attempts.customer`) of card attempts decided more than
 *   `cardholderDays` ago are erased, the attempt itself staying; a PENDING attempt keeps them, as
 *   its request may be sent again (decision 0097).
 *
 * Intents, charges, refunds, the ledger and users are never touched. Returns the counts.
 */
export async function purgeExpired(deps: Pick<Deps, 'db' | 'clock' | 'config'>, purgers: Purgers, opts: PurgeOptions = {}): Promise<PurgeCounts> {
  const { db, config } = deps;
  const limit = opts.batchSize ?? RETENTION_BATCH_SIZE;
  const now = deps.clock.now();
  const ago = (days: number) => new Date(now.getTime() - days * DAY);
  const events = ago(config.retention.eventsDays);
  const otp = ago(config.retention.otpDays);
  const messages = ago(config.retention.messagesDays);
  const cardholders = ago(config.retention.cardholderDays);

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

  const throttle = createThrottle({ db, clock: deps.clock });
  // Attempts, then deliveries, then events: each step frees the rows the next one needs free.
  const finished = await purgers.webhooks.purgeFinished(events, limit, drain);
  return {
    ...finished,
    events: await drain(() => purgers.events.purgeBefore(events, limit)),
    otpCodes: await drain(() => purgers.otp.purgeCodesBefore(otp, limit)),
    otpDailyFailures: await drain(() => purgers.otp.purgeDailyFailuresBefore(otp, limit)),
    messages: await drain(() => purgers.messaging.purgeBefore(messages, limit)),
    dashboardSessions: await drain(() => purgers.dashboard.purgeExpiredSessions(now, limit)),
    operatorSessions: await drain(() => purgers.operators.purgeExpiredSessions(now, limit)),
    accountSessions: await drain(() => purgers.users.account.purgeExpired(now, limit)),
    throttleAttempts: await drain(() => throttle.purgeBefore(otp, limit)),
    idempotencyKeys: await purgeIdempotencyKeys({ db, clock: deps.clock }),
    cardholders: await drain(() => purgers.attempts.eraseCardholdersBefore(cardholders, limit)),
  };
}

/**
 * The retention worker: `purgeExpired` a first time `firstRoundMs` after the start, then every
 * `intervalMs` after the end of the previous round, until `stop()`, which ends the round in
 * progress after its current batch and waits for it.
 */
export function startRetention(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  purgers: Purgers,
  logger: Logger,
  opts: { intervalMs?: number; firstRoundMs?: number; batchSize?: number; onRound?: (counts: PurgeCounts | undefined) => void } = {},
): BackgroundWorker {
  let counts: PurgeCounts | undefined;
  return startWorker({
    name: 'retention',
    logger,
    firstDelayMs: opts.firstRoundMs ?? RETENTION_FIRST_ROUND_MS,
    intervalMs: opts.intervalMs ?? RETENTION_INTERVAL_MS,
    async tick(signal) {
      counts = undefined;
      counts = await purgeExpired(deps, purgers, { batchSize: opts.batchSize, signal });
      if (Object.values(counts).some((n) => n > 0)) logger.info({ deleted: counts }, 'retention round');
    },
    onTick: () => opts.onRound?.(counts),
  });
}
