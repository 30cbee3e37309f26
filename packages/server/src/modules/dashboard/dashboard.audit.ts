import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { type AuditAction, type AuditEntry, type DashboardAudit } from '../../platform/http/dashboard-api.ts';
import type { IdempotentAnswer } from '../../platform/http/idempotency.ts';
import type { Caller } from '../../platform/tenancy.ts';
import { type AuditRow, dashboardRepository as repo } from './dashboard.repository.ts';

/** Who did it: the signed-in dashboard user (their session, or the account an invitation made). */
export interface Actor {
  userId: string;
  email: string;
  merchantId: string;
}

function auditView(r: Omit<AuditRow, 'seq'>) {
  return {
    id: r.id,
    object: 'audit_entry' as const,
    // Written from AUDIT_ACTIONS only (AuditEntry.action).
    action: r.action as AuditAction,
    actor: { id: r.actor_id, email: r.actor_email },
    mode: r.mode,
    targetId: r.target_id,
    details: r.details,
    createdAt: r.created_at.toISOString(),
  };
}

/** The merchant's audit log: who did what in the dashboard. */
export function createDashboardAudit(deps: Pick<Deps, 'db' | 'clock' | 'ids'>) {
  const { db, clock, ids } = deps;

  /** Writes an audit entry on `executor` (the action's transaction, or the database after it). */
  async function record(executor: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
    await repo.insertAudit(executor, {
      id: ids('auditEntry'),
      merchant_id: actor.merchantId,
      mode: entry.mode,
      actor_id: actor.userId,
      actor_email: actor.email,
      action: entry.action,
      target_id: entry.targetId ?? null,
      details: JSON.stringify(entry.details ?? {}),
      created_at: clock.now(),
    });
  }

  /**
   * For a service that commits its outcome through an `IdempotentAnswer` (cancel, refund,
   * payout): the audit entry is written in that transaction, from the answer's body.
   */
  function inSameTransaction(
    actor: Actor,
    scope: Pick<Caller, 'mode'>,
    action: AuditAction,
    of: (body: unknown) => { targetId?: string; details?: Record<string, unknown> },
  ): IdempotentAnswer {
    return {
      record: (tx: Tx, _status: number, body: unknown) => record(tx, actor, { mode: scope.mode, action, ...of(body) }),
      recordProblem: async () => {},
      transaction: (db, fn) => db.transaction().execute(fn),
    };
  }

  return {
    /**
     * Writes an entry: in `executor`'s transaction when the action runs in one (so the entry
     * commits with it), else on the database right after the action succeeded.
     */
    record,

    /** The audit log as a feature's dashboard routes write it, for the signed-in user. */
    auditFor(actor: Actor): DashboardAudit {
      return {
        record: (executor, entry) => record(executor, actor, entry),
        withChange: (mode, action, of) => inSameTransaction(actor, { mode }, action, of),
      };
    },

    /** The merchant's entries, newest first, by action. */
    async list(actor: Actor, q: { limit?: number; startingAfter?: string; action?: string }) {
      const limit = q.limit ?? 20;
      const rows = await repo.listAudit(db, { merchantId: actor.merchantId, action: q.action, startingAfter: q.startingAfter, limit: limit + 1 });
      return { object: 'list' as const, data: rows.slice(0, limit).map(auditView), hasMore: rows.length > limit };
    },
  };
}
