import { type Country, currencyOf } from '../../platform/countries.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { type Currency, formatAmount, isCurrency } from '../../platform/money.ts';
import type { Scope } from '../../platform/tenancy.ts';
import {
  type ConnectorSource,
  describeProvider,
  PROVIDER_NAMES,
  providerDescriptions,
  providerPrefixes,
  type ProviderName,
  providersServing,
} from '../connectors/index.ts';
import { methodsRepository as repo } from './methods.repository.ts';
import type { PaymentMethod, PaymentMethodList, PaymentMethodSettings, PaymentMethodSettingsBody } from './methods.schema.ts';

export interface MethodsCollaborators {
  connectors: ConnectorSource;
  /** The intent a session token opens, in the caller's mode (404 otherwise): its currency. */
  intentBySessionToken(scope: Scope, sessionToken: string): Promise<{ currency: string }>;
  /** The merchant's country (merchants.findMerchant). */
  merchant(merchantId: string): Promise<{ country: Country } | undefined>;
}

/** What a merchant offers in one mode, resolved: the wallet, and the providers in the merchant's order. */
interface Offer {
  country: Country;
  wallet: boolean;
  /** The merchant's own list, or undefined for the default. */
  chosen: readonly string[] | undefined;
}

/**
 * The payment methods an intent may use (docs/spec/mobile-money-payments.md) and the merchant's choice of them per mode.
 * A provider is offered when the merchant enabled it (by default: all), this mode has a connector
 * for it, and it serves the merchant's country in the intent's currency.
 */
export function createMethodsService(deps: Deps, c: MethodsCollaborators) {
  const { db } = deps;

  async function offerOf(scope: Scope): Promise<Offer> {
    const merchant = await c.merchant(scope.merchantId);
    if (merchant === undefined) throw new ApiError('not_found', `No merchant ${scope.merchantId}`);
    const row = await repo.find(db, scope);
    return { country: merchant.country, wallet: row?.wallet ?? true, chosen: row?.providers ?? undefined };
  }

  function configured(scope: Scope, provider: ProviderName): boolean {
    return c.connectors.forMode(scope.mode).get(provider) !== undefined;
  }

  /** The providers this offer gives for a currency, in registry order. */
  /** From the provider's recent outcomes in this mode (connectors.health.ts). */
  function available(scope: Scope, provider: ProviderName): boolean {
    return c.connectors.forMode(scope.mode).health?.available(provider) ?? true;
  }

  function offeredProviders(scope: Scope, offer: Offer, currency: Currency): ProviderName[] {
    return providersServing(offer.country, currency).filter((p) => (offer.chosen === undefined || offer.chosen.includes(p)) && configured(scope, p));
  }

  return {
    /** `GET /payment-methods?sessionToken=…`: what this intent may be paid with. */
    async forSession(scope: Scope, sessionToken: string): Promise<PaymentMethodList> {
      const intent = await c.intentBySessionToken(scope, sessionToken);
      const offer = await offerOf(scope);
      const data: PaymentMethod[] = offer.wallet ? [{ type: 'wallet' }] : [];
      if (!isCurrency(intent.currency)) return { data };
      const currency = intent.currency;
      for (const name of offeredProviders(scope, offer, currency)) {
        const d = describeProvider(name);
        const bounds = d?.limits[currency];
        if (d === undefined || bounds === undefined) continue;
        data.push({
          type: 'mobile_money',
          provider: name,
          name: d.displayName,
          approval: d.approval,
          // From the provider's recent outcomes in this mode: greyed in checkout while it does not answer.
          available: available(scope, name),
          minAmount: formatAmount(bounds.min, currency),
          maxAmount: formatAmount(bounds.max, currency),
          prefixes: providerPrefixes(d),
          ussd: d.ussd,
        });
      }
      return { data };
    },

    /**
     * Whether the charge path may send this intent's payment through `provider`: the merchant
     * offers it in this mode, it is configured, and it serves the merchant's country in `currency`.
     */
    async allowedMethod(scope: Scope, provider: string, currency: Currency): Promise<boolean> {
      const offer = await offerOf(scope);
      return (offeredProviders(scope, offer, currency) as string[]).includes(provider);
    },

    /** Whether the merchant offers its customers' wallets in this mode. */
    async walletAllowed(scope: Scope): Promise<boolean> {
      return (await offerOf(scope)).wallet;
    },

    /** `GET /payment-methods/settings`. */
    async settings(scope: Scope): Promise<PaymentMethodSettings> {
      const offer = await offerOf(scope);
      const currency = currencyOf(offer.country);
      const serving = providersServing(offer.country, currency);
      const offered = offeredProviders(scope, offer, currency);
      return {
        object: 'payment_method_settings',
        livemode: scope.mode === 'live',
        country: offer.country,
        currency,
        wallet: offer.wallet,
        providersDefault: offer.chosen === undefined,
        providers: providerDescriptions().map((d) => {
          const name = d.name as ProviderName;
          return {
            provider: name,
            name: d.displayName,
            capabilities: { ...d.capabilities },
            approval: d.approval,
            enabled: offer.chosen === undefined ? true : offer.chosen.includes(name),
            configured: configured(scope, name),
            servesCountry: serving.includes(name),
            offered: offered.includes(name),
            available: available(scope, name),
          };
        }),
      };
    },

    /** `PUT /payment-methods/settings`: fields left out keep their value. */
    async updateSettings(scope: Scope, body: PaymentMethodSettingsBody): Promise<PaymentMethodSettings> {
      const offer = await offerOf(scope);
      const providers = body.providers === undefined ? (offer.chosen === undefined ? null : [...offer.chosen]) : body.providers;
      for (const [i, p] of (providers ?? []).entries()) {
        // The schema's enum already refuses these over HTTP; the dashboard and the CLI come here too.
        if (!(PROVIDER_NAMES as string[]).includes(p))
          throw new ApiError('provider_unsupported', `Unknown provider "${p}"; supported: ${PROVIDER_NAMES.join(', ')}`, { param: `providers[${i}]` });
      }
      await repo.upsert(db, scope, {
        wallet: body.wallet ?? offer.wallet,
        providers: providers === null ? null : [...new Set(providers)],
        updated_at: deps.clock.now(),
      });
      return this.settings(scope);
    },
  };
}

export type MethodsService = ReturnType<typeof createMethodsService>;
