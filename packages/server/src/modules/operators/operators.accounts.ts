import { randomToken } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { hashPassword } from '../../platform/passwords.ts';
import type { AuditActor, RecordAudit } from './operators.audit.ts';
import { type OperatorRow, operatorsRepository as repo } from './operators.repository.ts';
import type { OperatorRole } from './operators.roles.ts';
import type { OperatorSession } from './operators.sessions.ts';

function operatorView(o: OperatorRow) {
  return {
    id: o.id,
    object: 'operator' as const,
    email: o.email,
    role: o.role,
    totpEnabled: o.totp_enabled_at !== null,
    createdAt: o.created_at.toISOString(),
  };
}

/** The operators themselves: made by the command line or invited by an admin, and listed. */
export function createOperatorAccounts(deps: Deps, record: RecordAudit) {
  const { db, clock, random, ids } = deps;

  /** A new operator with a generated password, shown once; the audit entry in the same transaction. */
  async function createOperator(input: { email: string; role: OperatorRole }, actor: AuditActor) {
    const email = input.email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
      throw new ApiError('validation_error', 'The e-mail address is not valid', { param: 'email' });
    const password = randomToken(random, 15);
    const passwordHash = await hashPassword(password);
    return db.transaction().execute(async (tx) => {
      if (await repo.findOperatorByEmail(tx, email))
        throw new ApiError('already_exists', `An operator with the e-mail ${email} exists already`, { param: 'email' });
      const row = await repo.insertOperator(tx, {
        id: ids('operator'),
        email,
        password_hash: passwordHash,
        role: input.role,
        invited_by: actor.operatorId,
        created_at: clock.now(),
      });
      await record(tx, actor, { action: 'operator.created', targetType: 'operator', targetId: row.id, after: { email, role: input.role } });
      return { ...operatorView(row), password };
    });
  }

  return {
    /**
     * `npx caisse operators create`: an admin, with a password shown once. Made by the command
     * line (no operator acts), so its audit entry names the CLI as the actor.
     */
    createFromCli: (email: string, role: OperatorRole = 'admin') => createOperator({ email, role }, { operatorId: null, email: 'cli' }),

    /** An admin invites an operator: the password is answered once, for the admin to hand over. */
    invite: (session: OperatorSession, input: { email: string; role: OperatorRole }) => createOperator(input, session),

    listOperators: async () => ({ object: 'list' as const, data: (await repo.listOperators(db)).map(operatorView) }),
  };
}
