import { type Executor, readExecutor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { type Scope, scopeOf } from '../../platform/tenancy.ts';
import type { UserRecords } from './users.records.ts';
import { usersRepository as repo } from './users.repository.ts';
import { type UserView, userView } from './users.views.ts';

/** The customers a merchant sees (linked to it): reading, listing, searching them, and linking one. */
export function createCustomerDirectory(deps: Pick<Deps, 'db'>, records: Pick<UserRecords, 'link' | 'remember'>) {
  const { db } = deps;
  const { link, remember } = records;
  return {
    /** Where a customer's codes go (the OTP module's PayerContacts): any customer of the mode, with their language. */
    async contact(scope: Scope, userId: string, executor: Executor = db) {
      const u = await repo.contactAhead(executor, { id: userId, mode: scope.mode, merchantId: scope.merchantId });
      if (!u) return undefined;
      // A link seen is committed (links are never removed): this process need not write it again.
      if (u.linked === true) remember(scope, userId);
      return { email: u.email, phoneNumber: u.phone_number, phoneVerified: u.phone_verified_at !== null, language: u.language, linked: u.linked === true };
    },

    /** Lets the merchant see the customer (a payment attempt), in the caller's transaction when given. */
    link: (scope: Scope, userId: string, executor: Executor = db) => link(executor, scope, userId),

    /** GET /users/{id}: a customer the merchant sees, or 404 `not_found`. No wallet: that is the customer's own. */
    async retrieve(scope: Scope, userId: string): Promise<UserView> {
      const user = await repo.findLinkedUser(db, scopeOf(scope), userId);
      if (!user) throw new ApiError('not_found', `No user ${userId}`, { param: 'id' });
      return userView(user);
    },

    /** The phone numbers of these customers the merchant sees, by id (the payments export). */
    async phoneNumbersOf(scope: Scope, userIds: readonly string[]): Promise<Map<string, string>> {
      const rows = await repo.phoneNumbersOfLinked(readExecutor(db), scopeOf(scope), userIds);
      return new Map(rows.map((r) => [r.id, r.phone_number]));
    },

    /** The merchant's customers whose phone number ends with these digits (the dashboard's search; digits only). */
    findByPhoneSuffix: (scope: Scope, digits: string, limit: number) => repo.findLinkedByPhoneSuffix(readExecutor(db), scopeOf(scope), digits, limit),

    /** GET /users: the merchant's customers, newest first. */
    async list(scope: Scope, q: { limit?: number; startingAfter?: string }) {
      const limit = q.limit ?? 20;
      const rows = await repo.listLinkedUsers(readExecutor(db), scopeOf(scope), { limit, startingAfter: q.startingAfter });
      return { object: 'list' as const, data: rows.slice(0, limit).map(userView), hasMore: rows.length > limit };
    },
  };
}
