import { decrypt, encrypt } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Language } from '../../platform/i18n.ts';
import { type KeyMode, liveModeOpen } from '../../platform/tenancy.ts';
import type { IntentsService } from '../intents/index.ts';
import type { MerchantsService } from '../merchants/index.ts';
import { dashboardRepository as repo } from './dashboard.repository.ts';

/** The name of the API key the hosted checkout page runs with (one per merchant and mode). */
export const CHECKOUT_KEY_NAME = 'Hosted checkout';

export interface CheckoutPageConfig {
  apiKey: string;
  merchantName: string;
  livemode: boolean;
  /** The merchant's default language: the page's choice when the browser asks for neither French nor English. */
  merchantLanguage: Language;
}

class LostRace extends Error {}

/** The hosted checkout page's settings, with the publishable key it runs with. */
export function createCheckoutPages(
  deps: Pick<Deps, 'db' | 'clock' | 'random' | 'config'>,
  services: { merchants: MerchantsService; intents: Pick<IntentsService, 'sessionOwner'> },
) {
  const { db, clock, random, config } = deps;
  const { merchants, intents } = services;

  /** The publishable key the hosted checkout embeds for this merchant and mode, made on first use. */
  async function checkoutKey(merchantId: string, mode: KeyMode): Promise<string> {
    for (let round = 0; round < 3; round++) {
      const now = clock.now();
      const existing = await repo.findCheckoutKey(db, merchantId, mode);
      if (existing && (await merchants.isKeyUsable(existing.api_key_id))) {
        return decrypt(config.masterKey, existing.key_encrypted);
      }
      const made = await db
        .transaction()
        .execute(async (tx) => {
          const key = await merchants.createKey(merchantId, { kind: 'publishable', mode, name: CHECKOUT_KEY_NAME }, tx);
          const row = { merchant_id: merchantId, mode, api_key_id: key.id, key_encrypted: encrypt(config.masterKey, key.secret, random), created_at: now };
          // Another request made one first: roll this one back and use theirs.
          if (!(await repo.putCheckoutKey(tx, row, existing?.api_key_id))) throw new LostRace();
          return key.secret;
        })
        .catch((err: unknown) => {
          if (err instanceof LostRace) return undefined;
          throw err;
        });
      if (made !== undefined) return made;
    }
    throw new ApiError('unavailable', 'The checkout page could not get its key; reload the page');
  }

  return {
    /**
     * What the hosted checkout page of a session token embeds: the merchant's name and the
     * publishable key of the intent's merchant and mode (never a secret key). Null when no intent
     * has this token: the page then says the link is not valid.
     */
    async checkoutPage(sessionToken: string): Promise<CheckoutPageConfig | null> {
      const owner = await intents.sessionOwner(sessionToken);
      const merchant = owner && (await merchants.findMerchant(owner.merchantId));
      // Live mode not open to the merchant: no page, and no live key made for one.
      if (!owner || !merchant || !liveModeOpen(merchant, owner.mode)) return null;
      return {
        apiKey: await checkoutKey(owner.merchantId, owner.mode),
        merchantName: merchant.name,
        livemode: owner.mode === 'live',
        merchantLanguage: merchant.language,
      };
    },
  };
}
