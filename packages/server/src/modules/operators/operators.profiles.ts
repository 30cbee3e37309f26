import { ApiError } from '../../platform/errors.ts';
import type { OnboardingService } from '../onboarding/index.ts';
import type { RecordAudit } from './operators.audit.ts';
import type { OperatorSession } from './operators.sessions.ts';

/** The review of merchants' business profiles (live mode's approval): what waits, a profile and its document, the decision. */
export function createOperatorProfiles(
  collaborators: { onboarding: Pick<OnboardingService, 'listSubmitted' | 'profile' | 'document' | 'review'> },
  record: RecordAudit,
) {
  const { onboarding } = collaborators;
  return {
    submittedProfiles: () => onboarding.listSubmitted(),
    profile: (merchantId: string) => onboarding.profile(merchantId),
    document: (merchantId: string) => onboarding.document(merchantId),

    /** Approves or rejects a submitted profile; the audit entry commits with the decision. */
    async review(s: OperatorSession, merchantId: string, approve: boolean, reason: string | undefined) {
      const text = (reason ?? '').trim();
      if (!approve && text === '')
        throw new ApiError('validation_error', 'Say why (reason): the merchant is told, the audit log keeps it', { param: 'reason' });
      const decision = approve ? { approve: true as const } : { approve: false as const, reason: text };
      return onboarding.review(merchantId, decision, s.operatorId, (tx, before, after) =>
        record(tx, s, {
          action: approve ? 'merchant.approved' : 'merchant.rejected',
          targetType: 'merchant',
          targetId: merchantId,
          before,
          after,
          ...(text === '' ? {} : { reason: text }),
        }),
      );
    },
  };
}
