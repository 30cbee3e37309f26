import type { Logger } from 'pino';
import { DAY } from '../../platform/clock.ts';
import type { Country } from '../../platform/countries.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { assertCurrency, type Currency, formatAmount, parseAmount } from '../../platform/money.ts';
import type { Scope } from '../../platform/tenancy.ts';
import type { BalancesService } from '../balances/index.ts';
import { describeProvider } from '../connectors/index.ts';
import type { createPayoutDestinations } from './payouts.destination.ts';
import { type PayoutRow, type PayoutScheduleRow, payoutsRepository as repo } from './payouts.repository.ts';
import { type PayoutSchedule, type PayoutScheduleBody, WEEK_DAYS } from './payouts.schema.ts';
import type { createPayoutSending } from './payouts.sending.ts';

/** The next run of a schedule after `now`: the next 00:00 UTC (of the anchor day, weekly). */
export function nextRunAfter(now: Date, interval: 'manual' | 'daily' | 'weekly', weeklyAnchor: number | null): Date | null {
  if (interval === 'manual') return null;
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let next = midnight + DAY;
  if (interval === 'weekly') {
    const anchor = weeklyAnchor ?? 1;
    while (new Date(next).getUTCDay() !== anchor) next += DAY;
  }
  return new Date(next);
}

function scheduleView(scope: Scope, row: PayoutScheduleRow | undefined): PayoutSchedule {
  return {
    object: 'payout_schedule',
    livemode: scope.mode === 'live',
    interval: row?.interval ?? 'manual',
    weeklyAnchor: row?.weekly_anchor == null ? null : (WEEK_DAYS[row.weekly_anchor] ?? null),
    destination: row?.provider && row.phone_number ? { provider: row.provider, phoneNumber: row.phone_number } : null,
    minimumAmount: Object.fromEntries(Object.entries(row?.minimum ?? {}).map(([c, v]) => [c, formatAmount(BigInt(v), c as Currency)])),
    nextRunAt: row?.next_run_at?.toISOString() ?? null,
  };
}

/** Scheduled payouts: a merchant's schedule, and the scheduler's rounds that pay out what is available. */
export function createPayoutSchedules(
  deps: Pick<Deps, 'db' | 'clock'>,
  collaborators: {
    balances: Pick<BalancesService, 'availableMinor'>;
    /** Whether an operator froze the merchant: its schedule makes no payout meanwhile. */
    isFrozen?: (merchantId: string, tx: Tx) => Promise<boolean>;
    /** Whether the merchant is approved for live mode: no live payout, asked for or scheduled, without it. */
    isApproved: (merchantId: string, executor?: Executor) => Promise<boolean>;
    logger?: Logger;
  },
  destinations: Pick<ReturnType<typeof createPayoutDestinations>, 'connectorFor' | 'registryOf' | 'checkDestination'>,
  sending: Pick<ReturnType<typeof createPayoutSending>, 'createInTx' | 'startIfPending'>,
) {
  const { db, clock } = deps;
  const { balances } = collaborators;
  const log = collaborators.logger;
  const { connectorFor, registryOf, checkDestination } = destinations;
  const { createInTx, startIfPending } = sending;
  return {
    async schedule(scope: Scope): Promise<PayoutSchedule> {
      return scheduleView(scope, await repo.schedule(db, scope));
    },

    /** PUT /payout-schedule: manual, daily or weekly, where to, and the least amount worth paying per currency. */
    async setSchedule(scope: Scope & { merchantCountry: Country }, body: PayoutScheduleBody): Promise<PayoutSchedule> {
      const current = await repo.schedule(db, scope);
      const given =
        body.destination ?? (current?.provider && current.phone_number ? { provider: current.provider, phoneNumber: current.phone_number } : undefined);
      const registry = await registryOf(scope, db, scope.merchantCountry);
      const destination = given && checkDestination(scope.mode, scope.merchantCountry, given, undefined, registry);
      if (body.interval !== 'manual' && !destination) {
        throw new ApiError('validation_error', 'An automatic schedule needs a destination: {provider, phoneNumber}', {
          param: 'destination',
          errors: [{ param: 'destination', message: 'required for daily and weekly' }],
        });
      }
      if (body.weeklyAnchor !== undefined && body.interval !== 'weekly') {
        throw new ApiError('validation_error', 'weeklyAnchor is for a weekly schedule', {
          param: 'weeklyAnchor',
          errors: [{ param: 'weeklyAnchor', message: 'only with interval weekly' }],
        });
      }
      const minimum: Record<string, string> = {};
      for (const [code, value] of Object.entries(body.minimumAmount ?? {})) {
        const currency = assertCurrency(code, `minimumAmount.${code}`);
        minimum[currency] = parseAmount(value, currency, `minimumAmount.${code}`).toString();
      }
      const anchor = body.interval === 'weekly' ? WEEK_DAYS.indexOf(body.weeklyAnchor ?? 'monday') : null;
      const now = clock.now();
      const saved = await repo.saveSchedule(db, {
        merchant_id: scope.merchantId,
        mode: scope.mode,
        interval: body.interval,
        weekly_anchor: anchor,
        provider: destination?.provider ?? null,
        phone_number: destination?.phoneNumber ?? null,
        minimum,
        next_run_at: nextRunAfter(now, body.interval, anchor),
        updated_at: now,
      });
      return scheduleView(scope, saved);
    },

    /**
     * The scheduler's round: for each schedule due, in one transaction with moving it to its next
     * run, a payout of the whole available balance of each currency that reaches the minimum (a
     * merchant whose balance is zero or negative gets none). Returns how many payouts it made.
     */
    async runDueSchedules(limit = 20): Promise<number> {
      const now = clock.now();
      const made = await db.transaction().execute(async (tx) => {
        const rows: PayoutRow[] = [];
        for (const s of await repo.lockDueSchedules(tx, now, limit)) {
          const scope = { merchantId: s.merchant_id, mode: s.mode };
          await repo.setNextRun(tx, scope, nextRunAfter(now, s.interval, s.weekly_anchor));
          if (await collaborators.isFrozen?.(s.merchant_id, tx)) {
            log?.warn({ merchant: s.merchant_id, mode: s.mode }, 'payout schedule skipped: the merchant is frozen');
            continue;
          }
          if (s.mode === 'live' && !(await collaborators.isApproved(s.merchant_id, tx))) {
            log?.warn({ merchant: s.merchant_id, mode: s.mode }, 'payout schedule skipped: the merchant is not approved for live mode');
            continue;
          }
          if (!s.provider || !s.phone_number || !connectorFor(s.mode, s.provider)) {
            log?.warn({ merchant: s.merchant_id, mode: s.mode }, 'payout schedule skipped: its destination cannot be paid');
            continue;
          }
          const limits = describeProvider(s.provider)?.limits ?? {};
          for (const { currency, amount: available } of await balances.availableMinor(scope, tx)) {
            const minimum = BigInt(s.minimum[currency] ?? '1');
            if (available <= 0n || available < minimum) continue;
            // One payout is at most what the provider moves at once; the rest waits for the next run.
            const bounds = limits[currency];
            if (bounds === undefined) continue;
            const amount = available > bounds.max ? bounds.max : available;
            if (amount < bounds.min) continue;
            try {
              rows.push(
                await createInTx(tx, scope, { amount, currency, provider: s.provider, phoneNumber: s.phone_number, description: null, method: 'scheduled' }),
              );
            } catch (err) {
              // A payout made meanwhile took part of it, its provider account is disabled, or no
              // account of the route pays that operator (checked before any write): next time.
              if (!(err instanceof ApiError && ['balance_insufficient', 'provider_unavailable', 'destination_unsupported'].includes(err.code))) throw err;
            }
          }
        }
        return rows;
      });
      for (const row of made) startIfPending(row);
      return made.length;
    },
  };
}
