import type { Deps } from '../../platform/deps.ts';
import type { LedgerService } from '../ledger/index.ts';
import { type CustomerLimits, maskPhoneNumber, type UsersService } from '../users/index.ts';
import type { RecordAudit } from './operators.audit.ts';
import type { OperatorSession } from './operators.sessions.ts';

/** Support's customers: the lookup by phone number, the lock, the password reset, and the limits (decision 0042); every act audited. */
export function createOperatorCustomers(
  deps: Pick<Deps, 'db'>,
  collaborators: {
    users: Pick<UsersService, 'findForOperator' | 'setLocked' | 'sendPasswordResetForOperator'>;
    ledger: Pick<LedgerService, 'wallet'>;
    customerLimits: Pick<CustomerLimits, 'list' | 'set'>;
  },
  record: RecordAudit,
) {
  const { db } = deps;
  const { users, ledger, customerLimits } = collaborators;
  return {
    /**
     * Support's customer lookup by phone number: each mode's account, its lock, its wallet
     * balances and latest movements across merchants, and the tier-0 limits of its mode. Audited.
     */
    async customers(s: OperatorSession, phoneNumber: string) {
      const found = await users.findForOperator(phoneNumber);
      const limits = await customerLimits.list();
      const data = [];
      for (const u of found) {
        const wallet = await ledger.wallet({ userId: u.id, mode: u.mode });
        data.push({
          object: 'operator_customer' as const,
          id: u.id,
          mode: u.mode,
          phoneNumber: u.phone_number,
          phoneVerified: u.phone_verified_at !== null,
          createdAt: u.created_at.toISOString(),
          locked: u.locked_at !== null,
          lockedAt: u.locked_at?.toISOString() ?? null,
          lockedReason: u.locked_reason,
          balances: wallet.balances,
          movements: wallet.movements,
          limits: limits.filter((l) => l.livemode === (u.mode === 'live') && l.tier === 0),
        });
      }
      // The log keeps who looked for which customer, not a number anyone reading it could call.
      await record(db, s, {
        action: 'customer.looked_up',
        targetType: 'customer',
        targetId: maskPhoneNumber(phoneNumber),
        after: { found: data.map((c) => c.id) },
      });
      return { object: 'list' as const, data };
    },

    /** Locks (a reason required) or unlocks a customer; the audit entry commits with it. */
    async lockCustomer(s: OperatorSession, id: string, lock: boolean, reason: string) {
      const after = await users.setLocked(id, lock ? { reason } : null, (tx, before) =>
        record(tx, s, {
          action: lock ? 'customer.locked' : 'customer.unlocked',
          targetType: 'customer',
          targetId: id,
          before: { locked: before.locked_at !== null },
          after: { locked: lock },
          reason,
        }),
      );
      return { object: 'customer_lock' as const, id: after.id, locked: after.locked_at !== null, lockedReason: after.locked_reason };
    },

    /** Sends the customer the password reset code by SMS (as POST /auth/password-reset); audited. */
    async sendPasswordReset(s: OperatorSession, id: string) {
      const { user, expiresAt } = await users.sendPasswordResetForOperator(id);
      await record(db, s, { action: 'customer.password_reset_sent', targetType: 'customer', targetId: user.id, after: { channel: 'sms' } });
      return { object: 'customer_password_reset' as const, id: user.id, channel: 'sms' as const, expiresAt: expiresAt.toISOString() };
    },

    customerLimits: async () => ({ object: 'list' as const, data: await customerLimits.list() }),

    /** Sets a tier's caps in a mode and currency; the audit entry commits with them. */
    setCustomerLimits(s: OperatorSession, input: Parameters<CustomerLimits['set']>[1]) {
      return customerLimits.set(s, input, (tx, before, after) =>
        record(tx, s, {
          action: 'customer_limits.set',
          targetType: 'customer_limits',
          targetId: `${input.mode}:${input.tier}:${input.currency}`,
          before,
          after,
        }),
      );
    },
  };
}
