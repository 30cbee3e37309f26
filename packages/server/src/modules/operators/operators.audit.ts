import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { type OperatorAuditRow, operatorsRepository as repo } from './operators.repository.ts';
import type { OperatorAuditAction } from './operators.roles.ts';

/** Who acted: an operator, or the command line (`operatorId` null). */
export interface AuditActor {
  operatorId: string | null;
  email: string;
}

export interface AuditInput {
  action: OperatorAuditAction;
  targetType?:
    | 'operator'
    | 'merchant'
    | 'ledger'
    | 'payout'
    | 'payout_threshold'
    | 'customer_limits'
    | 'customer'
    | 'provider_account'
    | 'route'
    | 'manual_return';
  targetId?: string;
  before?: unknown;
  after?: unknown;
  reason?: string;
}

/** Writes one audit entry with `executor`: inside the transaction of the change it records, when there is one. */
export type RecordAudit = (executor: Executor, actor: AuditActor, entry: AuditInput) => Promise<void>;

function auditView(r: OperatorAuditRow) {
  return {
    id: r.id,
    object: 'operator_audit_entry' as const,
    action: r.action,
    actor: { id: r.actor_id, email: r.actor_email },
    targetType: r.target_type,
    targetId: r.target_id,
    before: r.before ?? null,
    after: r.after ?? null,
    reason: r.reason,
    createdAt: r.created_at.toISOString(),
  };
}

/** The audit log of every operator action: the writer every use case shares, and the console's read of it. */
export function createOperatorAudit(deps: Pick<Deps, 'db' | 'clock' | 'ids'>) {
  const { db, clock, ids } = deps;

  const record: RecordAudit = async (executor, actor, entry) => {
    await repo.insertAudit(executor, {
      id: ids('operatorAuditEntry'),
      actor_id: actor.operatorId,
      actor_email: actor.email,
      action: entry.action,
      target_type: entry.targetType ?? null,
      target_id: entry.targetId ?? null,
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
      reason: entry.reason ?? null,
      created_at: clock.now(),
    });
  };

  return {
    record,

    async listAudit(q: { targetId?: string; startingAfter?: string; limit: number }) {
      const rows = await repo.listAudit(db, { ...q, limit: q.limit + 1 });
      return { object: 'list' as const, data: rows.slice(0, q.limit).map(auditView), hasMore: rows.length > q.limit };
    },
  };
}
