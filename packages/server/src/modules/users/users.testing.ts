import type { Country } from '../../platform/countries.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { languageToSave } from '../../platform/i18n.ts';
import { assertCurrency, minorUnits, parseAmount } from '../../platform/money.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { type Scope, scopeOf } from '../../platform/tenancy.ts';
import type { Balance, LedgerService, WalletView } from '../ledger/index.ts';
import { assertPhoneNumber, PASSWORD_MAX_LENGTH } from './users.policy.ts';
import { DEFAULT_CURRENCY, type UserRecords } from './users.records.ts';
import { usersRepository as repo } from './users.repository.ts';
import { type UserView, userView } from './users.views.ts';

/** The test-mode helpers: a customer with a funded wallet, and money into a wallet. */
export function createTestCustomers(
  deps: Pick<Deps, 'db' | 'clock'>,
  records: Pick<UserRecords, 'insertUser'>,
  ledger: Pick<LedgerService, 'userWallet' | 'fund' | 'wallet'>,
) {
  const { db, clock } = deps;
  const { insertUser } = records;
  return {
    /**
     * POST /test/users: a verified customer with a funded wallet, linked to the merchant (test mode
     * only). A number that already has a customer in test mode is 409 `already_exists`.
     */
    async createTestUser(
      merchant: Scope & { merchantCountry: Country },
      input: { phoneNumber: string; password: string; email?: string; balance?: string; currency?: string; language?: string },
    ): Promise<UserView & { balances: Balance[] }> {
      const scope = scopeOf(merchant);
      const phoneNumber = assertPhoneNumber(input.phoneNumber, merchant.merchantCountry);
      if (input.password.length === 0 || input.password.length > PASSWORD_MAX_LENGTH) {
        throw new ApiError('password_weak', `The password must have 1 to ${PASSWORD_MAX_LENGTH} characters`, { param: 'password' });
      }
      const currency = assertCurrency(input.currency ?? DEFAULT_CURRENCY);
      const amount = input.balance === undefined || input.balance === '0' ? minorUnits(0n) : parseAmount(input.balance, currency, 'balance');
      const passwordHash = await hashPassword(input.password);
      const user = await insertUser(
        scope,
        { phoneNumber, passwordHash, email: input.email, language: languageToSave(input.language, []) },
        clock.now(),
        async (tx, u) => {
          await ledger.userWallet(tx, { ...scope, userId: u.id, currency });
          if (amount > 0n) await ledger.fund(tx, { ...scope, userId: u.id, currency, amount });
        },
      );
      if (!user) throw new ApiError('already_exists', `A customer with phone number ${phoneNumber} already exists in test mode`, { param: 'phoneNumber' });
      const wallet = await ledger.wallet({ userId: user.id, mode: scope.mode }, db, 0);
      return { ...userView(user), balances: wallet.balances };
    },

    /** POST /test/wallets/fund: money from the external account into a customer's wallet. */
    async fundTestWallet(merchant: Scope, input: { userId: string; amount: string; currency: string }): Promise<WalletView> {
      const scope = scopeOf(merchant);
      const currency = assertCurrency(input.currency);
      const amount = parseAmount(input.amount, currency);
      const user = await repo.findLinkedUser(db, scope, input.userId);
      if (!user) throw new ApiError('not_found', `No user ${input.userId}`, { param: 'userId' });
      return db.transaction().execute(async (tx) => {
        await ledger.fund(tx, { ...scope, userId: user.id, currency, amount });
        return ledger.wallet({ userId: user.id, mode: scope.mode, merchantId: scope.merchantId }, tx);
      });
    },
  };
}
