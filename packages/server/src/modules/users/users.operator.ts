import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Throttle } from '../../platform/throttle.ts';
import { subject, type UserMessages } from './users.messages.ts';
import { assertPhoneNumber } from './users.policy.ts';
import { type UserRow, usersRepository as repo } from './users.repository.ts';
import type { VersionCache } from './users.versions.ts';

/** The operator console's support: finding a customer in any mode, a reset code for them, a lock. */
export function createOperatorSupport(
  deps: Pick<Deps, 'db' | 'clock'>,
  shared: { throttle: Throttle; messages: Pick<UserMessages, 'codeExpiry' | 'sendReset'>; versions: Pick<VersionCache, 'changed'> },
  collaborators: {
    /** A merchant's default language, for messages sent outside a request (the merchants module's). */
    merchantLanguage?: (merchantId: string) => Promise<string | undefined>;
  },
) {
  const { db, clock } = deps;
  const { throttle, versions } = shared;
  const { codeExpiry, sendReset } = shared.messages;
  return {
    /**
     * The operator console (support): the same reset code by SMS as POST /auth/password-reset,
     * to a customer named by id, through the merchant that registered them (its language when
     * the customer chose none). The number's send limit applies as for the customer's own request.
     */
    async sendPasswordResetForOperator(id: string): Promise<{ user: UserRow; expiresAt: Date }> {
      const user = await repo.findAnyUser(db, id);
      if (!user) throw new ApiError('not_found', `No customer ${id}`, { param: 'id' });
      await throttle.send(subject('send:reset', user.mode, user.phone_number));
      const merchantLanguage = await collaborators.merchantLanguage?.(user.merchant_id);
      await sendReset({ merchantId: user.merchant_id, mode: user.mode, merchantLanguage }, user, []);
      return { user, expiresAt: codeExpiry() };
    },

    /** The operator console (support): every mode's customer of a phone number, and one by id. */
    /** No merchant in the request: the number must carry its country code. */
    findForOperator: async (phoneNumber: string) => repo.findUsersByPhone(db, assertPhoneNumber(phoneNumber, undefined, 'phone')),
    findAnyForOperator: async (id: string) => repo.findAnyUser(db, id),

    /**
     * Locks or unlocks a customer; `within` runs in the same transaction (the operator's audit
     * entry). A lock raises the token version: the customer's access tokens stop at once.
     */
    async setLocked(id: string, lock: { reason: string } | null, within: (tx: Executor, before: UserRow) => Promise<void>): Promise<UserRow> {
      const after = await db.transaction().execute(async (tx) => {
        const before = await repo.findAnyUser(tx, id);
        if (!before) throw new ApiError('not_found', `No customer ${id}`, { param: 'id' });
        await repo.setLocked(tx, id, lock ? { at: clock.now(), reason: lock.reason } : null);
        await within(tx, before);
        return (await repo.findAnyUser(tx, id)) as UserRow;
      });
      await versions.changed(id);
      return after;
    },
  };
}
