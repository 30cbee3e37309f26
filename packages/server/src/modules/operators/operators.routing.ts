import { ApiError } from '../../platform/errors.ts';
import type { MobileRefunds } from '../charges/index.ts';
import type { RouteKey, RoutesService } from '../routes/index.ts';
import type { RecordAudit } from './operators.audit.ts';
import type { OperatorSession } from './operators.sessions.ts';

/** Routes (which connectors a payment or payout tries) and the late payments to return by hand (decision 0077). */
export function createOperatorRouting(
  collaborators: {
    routes: Pick<RoutesService, 'list' | 'set'>;
    /** Late payments whose connector cannot send them back, to return by hand. */
    lateReturns: Pick<MobileRefunds, 'manualReturns' | 'markReturned'>;
  },
  record: RecordAudit,
) {
  const { routes, lateReturns } = collaborators;
  return {
    routes: async (mode?: 'test' | 'live') => ({ object: 'list' as const, data: await routes.list({ mode }) }),

    /** Sets a route (connectors null: back to the default); the audit entry commits with it. */
    async setRoute(s: OperatorSession, key: RouteKey, connectors: string[] | null) {
      return routes.set(key, connectors, s.operatorId, (tx, before, after) =>
        record(tx, s, {
          action: 'route.set',
          targetType: 'route',
          targetId: `${key.mode}:${key.country}:${key.kind}:${key.method}`,
          before: before.connectors,
          after: after.connectors,
        }),
      );
    },

    lateReturns: async (status?: 'TO_RETURN' | 'RETURNED') => ({ object: 'list' as const, data: await lateReturns.manualReturns({ status }) }),

    /** An operator returned a late payment by hand: a note is required; the audit entry commits with it. */
    async markReturned(s: OperatorSession, id: string, note: string) {
      const text = note.trim();
      if (text === '') throw new ApiError('validation_error', 'Say how it was returned (note): the audit log keeps it', { param: 'note' });
      return lateReturns.markReturned(id, s.operatorId, text, (tx, before, after) =>
        record(tx, s, { action: 'late_payment.returned', targetType: 'manual_return', targetId: id, before: before.status, after: after.status, reason: text }),
      );
    },
  };
}
