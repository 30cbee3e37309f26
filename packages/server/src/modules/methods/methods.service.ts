import { type Country, currencyOf } from '../../platform/countries.ts';
import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { type Currency, formatAmount, isCurrency } from '../../platform/money.ts';
import type { Scope } from '../../platform/tenancy.ts';
import {
  capabilitiesOf,
  CARD_METHOD,
  connectorsServing,
  type Connector,
  type ConnectorRegistry,
  type ConnectorSource,
  describeMethod,
  describeProvider,
  isMethodProvider,
  methodPrefixes,
  methodProviderNames,
  paymentMethodCatalogue,
  type ProviderDescription,
  type ProviderName,
  providersServing,
  servedCurrencies,
  servedMethods,
} from '../connectors/index.ts';
import type { RoutesService } from '../routes/index.ts';
import { methodsRepository as repo } from './methods.repository.ts';
import { providerOrder } from './methods.order.ts';
import type { MethodName, PaymentMethod, PaymentMethodList, PaymentMethodSettings, PaymentMethodSettingsBody } from './methods.schema.ts';

/** What checkout shows under "Card": the brands the card routes' pages take, the same in every language. */
export const CARD_BRANDS = 'Visa / Mastercard';

export interface MethodsCollaborators {
  connectors: ConnectorSource;
  /** Which connectors reach a method here (docs/spec/routes.md); absent: the method's own connector alone. */
  routes?: Pick<RoutesService, 'routesOf'>;
  /** The intent a session token opens, in the caller's mode (404 otherwise): its currency. */
  intentBySessionToken(scope: Scope, sessionToken: string): Promise<{ currency: string }>;
  /** The merchant's country (merchants.findMerchant). */
  merchant(merchantId: string): Promise<{ country: Country } | undefined>;
}

/** What a merchant offers in one mode, resolved: the wallet, and the providers in the merchant's order. */
interface Offer {
  country: Country;
  /** The merchant's choice within the operator's cap. */
  wallet: boolean;
  walletAllowed: boolean;
  /** The merchant's own list, or undefined for the default. */
  chosen: readonly string[] | undefined;
  /** The operator's cap, or undefined: every provider. */
  allowed: readonly string[] | undefined;
  /** The merchant's order, or undefined: the country's default. */
  order: readonly string[] | undefined;
  /** The connectors of the merchant's country in this mode (its provider accounts, section 14). */
  registry: ConnectorRegistry;
  /** Each method's route here: the connectors a new attempt tries, in order (absent: its own connector). */
  routes: ReadonlyMap<string, readonly string[]>;
}

/** The operator's cap on a merchant's methods in one mode (decision 0044). */
export interface MethodsAllowance {
  wallet: boolean;
  /** Null: every method (`card` among them, decision 0096). */
  providers: MethodName[] | null;
}

/** A method as messages name it: its brand, or cards. */
function labelOf(method: string): string {
  return method === CARD_METHOD ? 'cards' : (describeMethod(method)?.displayName ?? method);
}

/**
 * The payment methods an intent may use (docs/spec/mobile-money-payments.md) and the merchant's choice of them per mode.
 * A provider is offered when the merchant enabled it (by default: all), this mode has a connector
 * for it, and it serves the merchant's country in the intent's currency.
 */
function notAllowed(method: string, param: string): ApiError {
  return new ApiError('payment_method_not_allowed', `The platform operator does not allow ${method} for this merchant; use another payment method`, { param });
}

export function createMethodsService(deps: Deps, c: MethodsCollaborators) {
  const { db } = deps;

  /** `country`: the merchant's, when the caller holds it (a charge's authenticated merchant): no read of the merchant. */
  async function offerOf(scope: Scope, country?: Country): Promise<Offer> {
    const merchant = country === undefined ? await c.merchant(scope.merchantId) : { country };
    if (merchant === undefined) throw new ApiError('not_found', `No merchant ${scope.merchantId}`);
    const row = await repo.find(db, scope);
    const walletAllowed = row?.allowed_wallet ?? true;
    // Every method's route and the country's accounts in two reads: the offer is read per charge.
    const { registry, routes } = c.routes
      ? await c.routes.routesOf({ mode: scope.mode, country: merchant.country, kind: 'payment' }, [...methodProviderNames(), CARD_METHOD])
      : { registry: await c.connectors.forMerchant(scope.mode, merchant.country), routes: new Map<string, readonly string[]>() };
    return {
      registry,
      routes,
      country: merchant.country,
      wallet: (row?.wallet ?? true) && walletAllowed,
      walletAllowed,
      chosen: row?.providers ?? undefined,
      allowed: row?.allowed_providers ?? undefined,
      order: row?.provider_order ?? undefined,
    };
  }

  const isAllowed = (offer: Offer, provider: string) => offer.allowed === undefined || offer.allowed.includes(provider);
  // The merchant's own list, or the default: every method (decision 0096: `card` is one).
  const isEnabled = (offer: Offer, method: string) => offer.chosen === undefined || offer.chosen.includes(method);

  /** `card` is a method of the choice and of the cap, never of `order`: checkout offers it apart, after mobile money. */
  function checkProviders(providers: readonly string[], field = 'providers'): void {
    const names: readonly string[] = field === 'order' ? methodProviderNames() : [...methodProviderNames(), CARD_METHOD];
    for (const [i, p] of providers.entries()) {
      // The schema's enum already refuses these over HTTP; the dashboard and the CLI come here too.
      if (!names.includes(p))
        throw new ApiError('provider_unsupported', `Unknown provider "${p}"; supported: ${names.join(', ')}`, { param: `${field}[${i}]` });
    }
  }

  /**
   * The connectors that reach this method for the merchant's country here, in its route's order
   * (an operator's override, else the default), among those with an account.
   */
  function reaching(offer: Offer, provider: string): readonly string[] {
    const route = offer.routes.get(provider) ?? [provider];
    // Nor one whose account does not take this operator's payments (pawaPay's active configuration).
    return route.filter((name) => {
      const impl = offer.registry.get(name);
      return impl !== undefined && impl.lacksFor?.('collect', { method: provider, country: offer.country }) === undefined;
    });
  }

  /** Whether this mode has the method's own connector, or some connector of its route reaches it here (whichever: the method is listed once). */
  function configured(offer: Offer, provider: ProviderName): boolean {
    return offer.registry.get(provider) !== undefined || reaching(offer, provider).length > 0;
  }

  /**
   * From the recent outcomes of the provider accounts of its route, for this method
   * (connectors.health.ts): one answering is enough; another account's outage greys nothing here.
   */
  function available(offer: Offer, provider: string): boolean {
    const answers = (name: string) => {
      const account = offer.registry.account(name);
      return account === undefined || (offer.registry.health?.available(account, provider) ?? true);
    };
    const via = reaching(offer, provider);
    return via.length === 0 ? answers(provider) : via.some(answers);
  }

  /**
   * The connector a new payment of `method` would take here (docs/spec/routes.md): the first of
   * its route with an account that answers and takes `currency`, else the first that takes it;
   * undefined when none of its route with an account takes the currency.
   */
  function serving(offer: Offer, method: ProviderName, currency: Currency): { description: ProviderDescription; impl: Connector } | undefined {
    const candidates = reaching(offer, method).flatMap((name) => {
      const description = describeProvider(name);
      const impl = offer.registry.get(name);
      if (description === undefined || impl === undefined || description.limits[currency] === undefined) return [];
      if (impl.currencies !== undefined && !impl.currencies.includes(currency)) return [];
      return [{ name, description, impl }];
    });
    const answers = (name: string) => {
      const account = offer.registry.account(name);
      return account === undefined || (offer.registry.health?.available(account, method) ?? true);
    };
    return candidates.find((c) => answers(c.name)) ?? candidates[0];
  }

  /**
   * How the payer approves a payment of `method` through this connector: as the connector's account
   * says (pawaPay's: a code for Orange in Burkina Faso), else its description; with what the payer
   * dials to make a code, when approval is one.
   */
  async function approvalOf(
    via: { description: ProviderDescription; impl: Connector },
    method: string,
    country: Country,
  ): Promise<Pick<PaymentMethod & { type: 'mobile_money' }, 'approval' | 'preAuthorisationUssd'>> {
    const told = await via.impl.authorisation?.(method, country).catch(() => undefined);
    if (told === 'pre_authorisation_code') return { approval: told, preAuthorisationUssd: via.impl.preAuthorisationUssd?.(method, country) ?? null };
    return { approval: told ?? via.description.approval };
  }

  /** The providers this offer gives for a currency, in the merchant's order. */
  function offeredProviders(scope: Scope, offer: Offer, currency: Currency): ProviderName[] {
    return ordered(
      providersServing(offer.country, currency).filter(
        (p) => (offer.chosen === undefined || offer.chosen.includes(p)) && isAllowed(offer, p) && configured(offer, p),
      ),
      offer,
    );
  }

  /**
   * The bounds of a card payment in `currency` here, when a connector of the card route with an
   * account here takes that currency: the widest of those connectors'. Undefined otherwise.
   */
  function cardBounds(offer: Offer, currency: Currency): { min: bigint; max: bigint } | undefined {
    const bounds = reaching(offer, CARD_METHOD)
      .map((name) => {
        const takes = offer.registry.get(name)?.currencies;
        const description = describeProvider(name);
        // As the route chooses: an aggregator takes cards in the currencies its `serves` names there.
        const served = description && servedCurrencies(description, CARD_METHOD, offer.country);
        if (served !== undefined && !served.includes(currency)) return undefined;
        return takes === undefined || takes.includes(currency) ? description?.limits[currency] : undefined;
      })
      .filter((b) => b !== undefined);
    if (bounds.length === 0) return undefined;
    return {
      min: bounds.reduce((m, b) => (b.min < m ? b.min : m), bounds[0]!.min),
      max: bounds.reduce((m, b) => (b.max > m ? b.max : m), bounds[0]!.max),
    };
  }

  /** The card method for an intent in `currency`: served here (`cardBounds`), allowed by the operator and chosen by the merchant. */
  function cardMethod(offer: Offer, currency: Currency): PaymentMethod | undefined {
    if (!isAllowed(offer, CARD_METHOD) || !isEnabled(offer, CARD_METHOD)) return undefined;
    const bounds = cardBounds(offer, currency);
    if (bounds === undefined) return undefined;
    const { min, max } = bounds;
    return {
      type: 'card',
      name: CARD_BRANDS,
      approval: 'redirect',
      available: available(offer, CARD_METHOD),
      minAmount: formatAmount(min, currency),
      maxAmount: formatAmount(max, currency),
    };
  }

  /**
   * `card` in the settings, where the merchant's country has a card route in this mode: some
   * connector reaches cards there, or the operator's route names one. Undefined elsewhere.
   */
  function cardSetting(offer: Offer): PaymentMethodSettings['providers'][number] | undefined {
    const serving = connectorsServing(CARD_METHOD, offer.country);
    const via = reaching(offer, CARD_METHOD);
    if (serving.length === 0 && via.length === 0) return undefined;
    const currency = currencyOf(offer.country);
    const servesCountry = serving.some((name) => {
      const d = describeProvider(name);
      const served = d && servedMethods(d).find((m) => m.method === CARD_METHOD && m.countries.includes(offer.country));
      return d?.limits[currency] !== undefined && (served?.currencies ?? [currency]).includes(currency);
    });
    const connectors = via.flatMap((name) => {
      const description = describeProvider(name);
      return description ? [{ description, can: capabilitiesOf(description, offer.registry.get(name)) }] : [];
    });
    return {
      provider: CARD_METHOD,
      name: CARD_BRANDS,
      // No payout goes to a card; a refund only through a connector that can give a card payment back.
      capabilities: {
        collect: connectors.some((c) => c.can.collect),
        disburse: false,
        refund: connectors.some((c) => c.can.refund && c.description.refundUnsupported?.[CARD_METHOD] === undefined),
      },
      approval: 'redirect',
      enabled: isEnabled(offer, CARD_METHOD),
      configured: via.length > 0,
      allowed: isAllowed(offer, CARD_METHOD),
      servesCountry,
      offered: cardMethod(offer, currency) !== undefined,
      available: available(offer, CARD_METHOD),
    };
  }

  function ordered(providers: readonly ProviderName[], offer: Offer): ProviderName[] {
    return providerOrder(offer.country, offer.order).filter((p) => providers.includes(p));
  }

  return {
    /** `GET /payment-methods?sessionToken=…`: what this intent may be paid with. */
    async forSession(scope: Scope, sessionToken: string): Promise<PaymentMethodList> {
      const intent = await c.intentBySessionToken(scope, sessionToken);
      const offer = await offerOf(scope);
      // Live wallets are filled by top-ups, mobile money in the country's currency: none holds a card
      // route's USD. Test funding credits any currency, so test mode lists it for every one (decision 0098).
      const walletHolds = scope.mode === 'test' || intent.currency === currencyOf(offer.country);
      const data: PaymentMethod[] = offer.wallet && walletHolds ? [{ type: 'wallet' }] : [];
      if (!isCurrency(intent.currency)) return { data };
      const currency = intent.currency;
      for (const name of offeredProviders(scope, offer, currency)) {
        const method = describeMethod(name);
        // Bounds and approval are those of the connector the route would take (an aggregator's for a method it reaches).
        const via = serving(offer, name, currency);
        const bounds = via?.description.limits[currency];
        if (method === undefined || via === undefined || bounds === undefined) continue;
        data.push({
          type: 'mobile_money',
          provider: name,
          name: method.displayName,
          ...(await approvalOf(via, name, offer.country)),
          // From the provider's recent outcomes in this mode: greyed in checkout while it does not answer.
          available: available(offer, name),
          minAmount: formatAmount(bounds.min, currency),
          maxAmount: formatAmount(bounds.max, currency),
          prefixes: methodPrefixes(method, offer.country),
          ussd: method.ussd,
        });
      }
      // Cards after mobile money: the payer's phone is the usual way in the countries served.
      const card = cardMethod(offer, currency);
      if (card) data.push(card);
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

    /**
     * 400 `payment_method_unsupported` unless a card route with an account here takes this
     * currency: what `GET /payment-methods` lists as `card`.
     */
    async checkCard(scope: Scope, currency: Currency): Promise<void> {
      const offer = await offerOf(scope);
      // Whether the merchant offers cards is `checkProvider`'s, asked first.
      if (cardBounds(offer, currency) === undefined)
        throw new ApiError(
          'payment_method_unsupported',
          `This merchant takes no card payment in ${currency} in ${scope.mode} mode; use a method GET /payment-methods lists`,
          { param: 'paymentMethod.type' },
        );
    },

    /** Whether the merchant offers its customers' wallets in this mode. */
    async walletAllowed(scope: Scope): Promise<boolean> {
      return (await offerOf(scope)).wallet;
    },

    /** `GET /payment-methods/settings`. */
    async settings(scope: Scope): Promise<PaymentMethodSettings> {
      const offer = await offerOf(scope);
      const currency = currencyOf(offer.country);
      const servingCountry = providersServing(offer.country, currency);
      const offered = offeredProviders(scope, offer, currency);
      const card = cardSetting(offer);
      return {
        object: 'payment_method_settings',
        livemode: scope.mode === 'live',
        country: offer.country,
        currency,
        wallet: offer.wallet,
        walletAllowed: offer.walletAllowed,
        providersDefault: offer.chosen === undefined,
        orderDefault: offer.order === undefined,
        order: providerOrder(offer.country, offer.order),
        // Methods, never an aggregator: it is a way to reach them (routes), not one the payer chooses.
        providers: [
          ...(await Promise.all(
            paymentMethodCatalogue().map(async (m) => {
              const name = m.name as ProviderName;
              // What the method's own connector does, else the connector its route would take here.
              const own = describeProvider(name);
              const via = own !== undefined ? { description: own, impl: offer.registry.get(name) } : serving(offer, name, currency);
              return {
                provider: name,
                name: m.displayName,
                // Less what this mode's account lacks: the dashboard offers no payout to it.
                capabilities: via
                  ? capabilitiesOf(via.description, via.impl, { method: name, country: offer.country })
                  : { collect: false, disburse: false, refund: false },
                approval: via?.impl
                  ? (await approvalOf({ description: via.description, impl: via.impl }, name, offer.country)).approval
                  : (via?.description.approval ?? 'phone_prompt'),
                enabled: isEnabled(offer, name),
                configured: configured(offer, name),
                allowed: isAllowed(offer, name),
                servesCountry: servingCountry.includes(name),
                offered: offered.includes(name),
                available: available(offer, name),
              };
            }),
          )),
          // After mobile money, as checkout lists it.
          ...(card ? [card] : []),
        ],
      };
    },

    /** `PUT /payment-methods/settings`: fields left out keep their value. */
    async updateSettings(scope: Scope, body: PaymentMethodSettingsBody): Promise<PaymentMethodSettings> {
      const offer = await offerOf(scope);
      const providers = body.providers === undefined ? (offer.chosen === undefined ? null : [...offer.chosen]) : body.providers;
      checkProviders(providers ?? []);
      // Asking for what the operator does not allow is refused rather than stored unseen.
      if (body.wallet === true && !offer.walletAllowed) throw notAllowed('the Caisse wallet', 'wallet');
      for (const [i, p] of (body.providers ?? []).entries()) {
        if (!isAllowed(offer, p)) throw notAllowed(labelOf(p), `providers[${i}]`);
      }
      const order = body.order === undefined ? (offer.order === undefined ? null : [...offer.order]) : body.order;
      checkProviders(order ?? [], 'order');
      await repo.upsert(db, scope, {
        // The stored choice is the merchant's own; the cap applies when it is read.
        wallet: body.wallet ?? (offer.walletAllowed ? offer.wallet : true),
        providers: providers === null ? null : [...new Set(providers)],
        provider_order: order === null ? null : [...new Set(order)],
        updated_at: deps.clock.now(),
      });
      return this.settings(scope);
    },

    /**
     * 403 `payment_method_not_allowed` when the operator's cap leaves the wallet out, 400
     * `payment_method_unsupported` when the merchant's settings do. Sent ahead:
     * issue it before the charge transaction's next statement, then await it with `allAhead`.
     */
    checkWalletAhead(tx: Tx, scope: Scope): Promise<void> {
      return repo.walletAllowedAhead(tx, scope).then(({ allowed, offered }) => {
        if (!allowed) throw notAllowed('the Caisse wallet', 'paymentMethod');
        if (!offered)
          throw new ApiError(
            'payment_method_unsupported',
            `This merchant does not offer the Caisse wallet in ${scope.mode} mode; use a method GET /payment-methods lists`,
            {
              param: 'paymentMethod',
            },
          );
      });
    },

    /**
     * Whether a charge may go through `provider` (`card` too), as `GET /payment-methods` offers it:
     * 403 `payment_method_not_allowed` when the operator's cap leaves it out; 400
     * `provider_unsupported` when the merchant's settings leave it out in this mode. Whether a
     * route serves it in the merchant's country is the charge's to check, with the payer's number.
     */
    async checkProvider(scope: Scope, provider: MethodName, country?: Country): Promise<void> {
      const offer = await offerOf(scope, country);
      const name = labelOf(provider);
      // A card body names no provider: its type is what the merchant leaves out.
      const param = provider === CARD_METHOD ? 'paymentMethod.type' : 'paymentMethod.provider';
      if (!isAllowed(offer, provider)) throw notAllowed(name, param);
      if (!isEnabled(offer, provider))
        throw new ApiError('provider_unsupported', `This merchant does not offer ${name} in ${scope.mode} mode; use a method GET /payment-methods lists`, {
          param,
        });
    },

    /** The operator's cap in one mode. */
    async allowance(scope: Scope): Promise<MethodsAllowance> {
      const offer = await offerOf(scope);
      const known = (p: string): p is MethodName => isMethodProvider(p) || p === CARD_METHOD;
      return { wallet: offer.walletAllowed, providers: offer.allowed === undefined ? null : offer.allowed.filter(known) };
    },

    /**
     * Sets the operator's cap in one mode; `within` runs in the same transaction with the cap
     * before and after (the operator's audit entry). The merchant's own choice is kept: it counts
     * again if the cap is lifted.
     */
    async setAllowance(
      scope: Scope,
      cap: MethodsAllowance,
      operatorId: string,
      within: (tx: Tx, before: { wallet: boolean; providers: string[] | null }, after: MethodsAllowance) => Promise<void>,
    ): Promise<MethodsAllowance> {
      if ((await c.merchant(scope.merchantId)) === undefined) throw new ApiError('not_found', `No merchant ${scope.merchantId}`, { param: 'id' });
      checkProviders(cap.providers ?? []);
      const after: MethodsAllowance = { wallet: cap.wallet, providers: cap.providers === null ? null : [...new Set(cap.providers)] };
      return db.transaction().execute(async (tx) => {
        const row = await repo.find(tx, scope, { forUpdate: true });
        const before = { wallet: row?.allowed_wallet ?? true, providers: row?.allowed_providers ?? null };
        await repo.upsertAllowance(tx, scope, {
          allowed_wallet: after.wallet,
          allowed_providers: after.providers,
          allowed_by: operatorId,
          updated_at: deps.clock.now(),
        });
        await within(tx, before, after);
        return after;
      });
    },
  };
}

export type MethodsService = ReturnType<typeof createMethodsService>;
