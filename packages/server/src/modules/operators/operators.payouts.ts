import { ApiError } from '../../platform/errors.ts';
import type { PayoutsService } from '../payouts/index.ts';
import type { RecordAudit } from './operators.audit.ts';
import type { OperatorSession } from './operators.sessions.ts';

/** The review of large payouts (four eyes, decision 0041): the thresholds, and the payouts they hold. */
export function createOperatorPayoutReview(
  collaborators: { payouts: Pick<PayoutsService, 'thresholds' | 'setThreshold' | 'inReview' | 'review'> },
  record: RecordAudit,
) {
  const { payouts } = collaborators;
  return {
    payoutThresholds: async () => ({ object: 'list' as const, data: await payouts.thresholds() }),

    /** Sets or removes a threshold; the audit entry commits with it. */
    async setPayoutThreshold(s: OperatorSession, input: { mode: 'test' | 'live'; currency: string; amount: string | null }) {
      const data = await payouts.setThreshold(s, input, (tx, before, after) =>
        record(tx, s, { action: 'payout.threshold_set', targetType: 'payout_threshold', targetId: `${input.mode}:${input.currency}`, before, after }),
      );
      return { object: 'list' as const, data };
    },

    payoutsInReview: async () => ({ object: 'list' as const, data: await payouts.inReview() }),

    /** Approves or rejects a held payout (never one the operator's own threshold held); the audit entry commits with it. */
    async reviewPayout(s: OperatorSession, payoutId: string, approve: boolean, reason: string | undefined) {
      const text = (reason ?? '').trim();
      if (!approve && text === '') throw new ApiError('validation_error', 'Say why (reason): the audit log keeps it', { param: 'reason' });
      return payouts.review(s, payoutId, { approve, reason: text }, (tx, before, after) =>
        record(tx, s, {
          action: approve ? 'payout.approved' : 'payout.rejected',
          targetType: 'payout',
          targetId: payoutId,
          before,
          after,
          ...(text === '' ? {} : { reason: text }),
        }),
      );
    },
  };
}
