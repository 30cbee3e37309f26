import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { assertCurrency, type Currency, formatAmount, parseAmount } from '../../platform/money.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import type { BalancesService } from '../balances/index.ts';
import { announceEvents } from '../events/index.ts';
import type { createPayoutDestinations } from './payouts.destination.ts';
import { type PayoutRow, type PayoutThresholdRow, payoutsRepository as repo, REVIEW_REJECTED } from './payouts.repository.ts';
import type { Payout } from './payouts.schema.ts';
import { type createPayoutSending, payoutView } from './payouts.sending.ts';

/** The operator who acts on a review: the payouts module keeps only their id and e-mail. */
export interface ReviewActor {
  operatorId: string;
  email: string;
}

function thresholdView(t: PayoutThresholdRow) {
  const currency = t.currency as Currency;
  return {
    object: 'payout_review_threshold' as const,
    livemode: t.mode === 'live',
    currency,
    amount: formatAmount(t.amount_minor, currency),
    setBy: { id: t.set_by, email: t.set_by_email },
    setAt: t.set_at.toISOString(),
  };
}

/** The review of large payouts (the operator console, decision 0041): thresholds, and approving or rejecting what went over one. */
export function createPayoutReviews(
  deps: Deps,
  collaborators: {
    balances: Pick<BalancesService, 'payoutFailed'>;
    /** Whether an operator froze the merchant: its payouts can only be rejected meanwhile. */
    isFrozen?: (merchantId: string, tx: Tx) => Promise<boolean>;
  },
  destinations: Pick<ReturnType<typeof createPayoutDestinations>, 'accountOf'>,
  sending: Pick<ReturnType<typeof createPayoutSending>, 'lifecycle' | 'recordEvent' | 'startIfPending'>,
) {
  const { db, clock } = deps;
  const { balances } = collaborators;
  const { accountOf } = destinations;
  const { lifecycle, recordEvent, startIfPending } = sending;
  return {
    /** The thresholds in force, per mode and currency. */
    thresholds: async () => (await repo.thresholds(db)).map(thresholdView),

    /**
     * Sets (or, with `amount` null, removes) the review threshold of a mode and currency; `within`
     * runs in the same transaction with the threshold before and after (the operator's audit entry).
     */
    async setThreshold(
      actor: ReviewActor,
      input: { mode: KeyMode; currency: string; amount: string | null },
      within: (tx: Tx, before: unknown, after: unknown) => Promise<void>,
    ) {
      const currency = assertCurrency(input.currency);
      const amount = input.amount === null ? null : parseAmount(input.amount, currency);
      return db.transaction().execute(async (tx) => {
        const current = await repo.threshold(tx, input.mode, currency);
        if (amount === null) await repo.deleteThreshold(tx, input.mode, currency);
        else
          await repo.saveThreshold(tx, {
            mode: input.mode,
            currency,
            amount_minor: amount,
            set_by: actor.operatorId,
            set_by_email: actor.email,
            set_at: clock.now(),
          });
        const saved = await repo.threshold(tx, input.mode, currency);
        await within(tx, current ? thresholdView(current) : null, saved ? thresholdView(saved) : null);
        return (await repo.thresholds(tx)).map(thresholdView);
      });
    },

    /** Every payout waiting for review, oldest first, with its merchant and who set its threshold. */
    async inReview(limit = 100) {
      return (await repo.listInReview(db, limit)).map((row) => ({
        ...payoutView(row),
        merchantId: row.merchant_id,
        thresholdSetBy: row.review_threshold_set_by,
      }));
    },

    /**
     * Approves (the payout goes to the provider) or rejects (its money back in `available`, with
     * `payout.failed`) a payout in REVIEW, once: under the payout's lock, only from REVIEW (409
     * `payout_state_invalid` otherwise, as for the second of two operators at the same moment).
     * The operator who set the threshold it went over may not decide (403 `four_eyes_required`).
     * `within` writes the audit entry in the same transaction.
     */
    async review(
      actor: ReviewActor,
      id: string,
      decision: { approve: boolean; reason: string },
      within: (tx: Tx, before: unknown, after: unknown) => Promise<void>,
    ): Promise<Payout> {
      const decided = await db.transaction().execute(async (tx) => {
        const row = await repo.lock(tx, id);
        if (!row) throw new ApiError('not_found', `No payout ${id}`, { param: 'id' });
        if (row.status !== 'REVIEW') throw new ApiError('payout_state_invalid', `Payout ${id} is ${row.status}, not waiting for review`, { param: 'id' });
        if (row.review_threshold_set_by === actor.operatorId) {
          throw new ApiError('four_eyes_required', 'You set the threshold this payout went over: another operator must review it', { param: 'id' });
        }
        if (decision.approve && (await collaborators.isFrozen?.(row.merchant_id, tx))) {
          throw new ApiError('merchant_frozen', 'The merchant is frozen: its payouts can only be rejected until it is unfrozen');
        }
        const now = clock.now();
        const scope = { merchantId: row.merchant_id, mode: row.mode };
        const reviewed = { reviewed_by: actor.operatorId, reviewed_at: now, updated_at: now };
        let updated: PayoutRow;
        if (decision.approve) {
          // Never sent yet: it goes through the account of today, not that of its creation.
          const account = await accountOf(scope, row.connector, tx);
          updated = await repo.update(tx, id, { ...reviewed, status: 'PENDING', provider_account: account });
          await lifecycle.release(tx, id, account);
        } else {
          const currency = row.currency as Currency;
          await balances.payoutFailed(tx, scope, { payoutId: row.id, currency, amount: row.amount_minor, reason: REVIEW_REJECTED });
          updated = await repo.update(tx, id, { ...reviewed, status: 'FAILED', failure_reason: REVIEW_REJECTED, completed_at: now });
          await recordEvent(tx, updated);
        }
        await within(tx, { status: row.status }, { status: updated.status, failureReason: updated.failure_reason });
        return updated;
      });
      if (decided.status === 'FAILED') announceEvents(deps);
      startIfPending(decided);
      return payoutView(decided);
    },
  };
}
