import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import type { Language } from '../../platform/i18n.ts';
import type { Currency } from '../../platform/money.ts';
import type { Scope } from '../../platform/tenancy.ts';
import type { LedgerService } from '../ledger/index.ts';
import { type UserRow, usersRepository as repo } from './users.repository.ts';

/** The wallet currency every customer starts with (the flow's currency). */
export const DEFAULT_CURRENCY: Currency = 'XAF';
const LINKS_REMEMBERED = 100_000;

/** A customer's rows: the account with its wallet, and its links to the merchants that see it. */
export function createUserRecords(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, ledger: Pick<LedgerService, 'userWallet'>) {
  const { db, clock, ids } = deps;

  /**
   * Links are never removed: one this process saw committed needs no insert again (a payment
   * links its customer when the code is sent and again when it is charged). Only links written
   * outside a transaction are remembered: a transaction's may still roll back.
   */
  const linked = new Set<string>();
  const linkKey = (scope: Scope, userId: string) => `${scope.merchantId}|${scope.mode}|${userId}`;
  function remember(scope: Scope, userId: string): void {
    if (linked.size >= LINKS_REMEMBERED) linked.clear();
    linked.add(linkKey(scope, userId));
  }
  async function link(executor: Executor, scope: Scope, userId: string): Promise<void> {
    if (linked.has(linkKey(scope, userId))) return;
    await repo.link(executor, { merchant_id: scope.merchantId, mode: scope.mode, user_id: userId, linked_at: clock.now() });
    if (!executor.isTransaction) remember(scope, userId);
  }

  /** Inserts the customer with its XAF wallet and its link to the merchant; `also` runs in the same transaction. */
  async function insertUser(
    scope: Scope,
    input: { phoneNumber: string; passwordHash: string; email?: string; language?: Language | null },
    verifiedAt: Date | null,
    also?: (tx: Tx, user: UserRow) => Promise<void>,
  ): Promise<UserRow | undefined> {
    return db.transaction().execute(async (tx) => {
      const user = await repo.insertUser(tx, {
        id: ids('user'),
        merchant_id: scope.merchantId,
        mode: scope.mode,
        phone_number: input.phoneNumber,
        email: input.email ?? null,
        password_hash: input.passwordHash,
        language: input.language ?? null,
        phone_verified_at: verifiedAt,
        created_at: clock.now(),
      });
      if (!user) return undefined;
      await link(tx, scope, user.id);
      await ledger.userWallet(tx, { ...scope, userId: user.id, currency: DEFAULT_CURRENCY });
      await also?.(tx, user);
      return user;
    });
  }

  return { remember, link, insertUser };
}

export type UserRecords = ReturnType<typeof createUserRecords>;
