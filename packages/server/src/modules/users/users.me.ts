import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { languageToSave, translator } from '../../platform/i18n.ts';
import type { MerchantContext, UserContext } from '../../platform/tenancy.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { UserMessages } from './users.messages.ts';
import { usersRepository as repo } from './users.repository.ts';
import { type TopupCredited, type UserView, userView } from './users.views.ts';

/** The signed-in customer's own: their language, their wallet, and the notice of a top-up to it. */
export function createCustomerOwn(
  deps: Pick<Deps, 'db'>,
  shared: { messages: Pick<UserMessages, 'sms'> },
  collaborators: {
    ledger: Pick<LedgerService, 'wallet'>;
    /** A merchant's default language, for messages sent outside a request (the merchants module's). */
    merchantLanguage?: (merchantId: string) => Promise<string | undefined>;
  },
) {
  const { db } = deps;
  const { sms } = shared.messages;
  const { ledger } = collaborators;
  return {
    /** PATCH /users/me: the signed-in customer's language, for their messages from now on. */
    async setLanguage(merchant: MerchantContext, me: UserContext, language: string): Promise<UserView> {
      const chosen = languageToSave(language, []);
      if (!chosen) throw new ApiError('validation_error', 'language must be fr or en', { param: 'language' });
      const user = await repo.setLanguage(db, me.userId, chosen);
      if (!user || user.mode !== merchant.mode)
        throw new ApiError('access_token_invalid', 'The access token is not valid or has expired; sign in again with POST /auth/web');
      return userView(user);
    },

    /**
     * Tells the customer by SMS that a top-up reached their wallet, in their language (else the
     * merchant's default: no request asked for one). A provider outage loses the notice, not money.
     */
    async notifyTopupCredited(topup: TopupCredited): Promise<void> {
      const user = await repo.findUser(db, topup.mode, topup.userId);
      if (!user) return;
      const merchantLanguage = await collaborators.merchantLanguage?.(topup.merchantId);
      const t = translator({ saved: user.language, merchantDefault: merchantLanguage });
      await sms({ merchantId: topup.merchantId, mode: topup.mode, merchantLanguage }, user, [], 'topups.credited', 'topups.creditedSubject', {
        amount: t.amount(topup.amount, topup.currency),
        provider: topup.providerName,
      });
    },

    /** GET /wallet for the signed-in customer: balances, and the movements made with this merchant only. */
    wallet: (merchant: MerchantContext, user: UserContext) => ledger.wallet({ userId: user.userId, mode: merchant.mode, merchantId: merchant.merchantId }),
  };
}
