import { type Country, currencyOf, isCountry } from '../../platform/countries.ts';
import { ApiError } from '../../platform/errors.ts';
import { type Currency, formatAmount } from '../../platform/money.ts';
import { type Capability, checkAmountBounds, type ProviderDescription, servedMethods } from './connectors.description.ts';
import type { Connector, OperatorTarget } from './connectors.types.ts';
import { lookupNumber, type Operator, prefixesOf } from './connectors.numbering.ts';
import { type ConnectorRegistry, connectorDefinitions, descriptionOf, paymentMethodCatalogue, type ProviderName } from './connectors.registry.ts';
import { OPERATOR_NAMES, type PaymentMethodInfo } from './connectors.methods.ts';

/**
 * Questions about providers answered from their descriptions, so that no caller names one:
 * which exist, which serve a country and currency, which one a number suggests.
 */

/** The description of a provider, or undefined for a name the registry does not know. */
export function describeProvider(name: string): ProviderDescription | undefined {
  return descriptionOf(name);
}

/**
 * What the provider does through this connector: its description's capabilities less what the
 * connector's account lacks (an MTN account without a disbursement key only collects) and, for
 * one operator (`target`), what the account's configuration leaves out for it (pawaPay's).
 */
export function capabilitiesOf(
  description: ProviderDescription,
  connector: Pick<Connector, 'lacks' | 'lacksFor'> | undefined,
  target?: OperatorTarget,
): Record<Capability, boolean> {
  const lacking = (c: Capability) => (connector === undefined ? undefined : lacksOf(connector, c, target));
  return {
    collect: description.capabilities.collect && lacking('collect') === undefined,
    disburse: description.capabilities.disburse && lacking('disburse') === undefined,
    refund: description.capabilities.refund && lacking('refund') === undefined,
  };
}

/** Why this connector's account cannot do `capability` (for `target`'s operator when given), or undefined: it can, as far as it knows. */
export function lacksOf(connector: Pick<Connector, 'lacks' | 'lacksFor'>, capability: Capability, target?: OperatorTarget): string | undefined {
  return connector.lacks?.[capability] ?? (target === undefined ? undefined : connector.lacksFor?.(capability, target));
}

/**
 * Reads again, where it is stale, what each connector of `registry` knows of its operators
 * (pawaPay's active configuration, cached a minute): before a transaction that asks `lacksOf`.
 */
export async function refreshLacks(registry: Pick<ConnectorRegistry, 'providers' | 'get'>, only?: readonly string[]): Promise<void> {
  const names = only ?? registry.providers();
  await Promise.all(
    names.map((name) =>
      registry
        .get(name)
        ?.refreshLacks?.()
        .catch(() => undefined),
    ),
  );
}

/** Every provider's description, in the registry's order. */
export function providerDescriptions(): ProviderDescription[] {
  return connectorDefinitions().map((c) => c.description);
}

/**
 * The payment methods some connector takes payments of in this country and currency (a method's
 * own connector or an aggregator), in the catalogue's order; never an aggregator by its own name.
 */
export function providersServing(country: Country, currency: Currency): ProviderName[] {
  return paymentMethodCatalogue()
    .filter((m) =>
      connectorsServing(m.name, country).some((name) => {
        const d = descriptionOf(name);
        if (d === undefined || !d.capabilities.collect || d.limits[currency] === undefined) return false;
        if (name === m.name) return true;
        // An aggregator moves the country's currency for a method there (or the ones it names for it).
        const served = servedMethods(d).find((s) => s.method === m.name && s.countries.includes(country));
        return (served?.currencies ?? [currencyOf(country)]).includes(currency);
      }),
    )
    .map((m) => m.name);
}

/**
 * The currencies a connector moves for `method` in `country` when its `serves` says so: an
 * aggregator's entry names them, or it moves the country's currency only (docs/decisions/0082:
 * CinetPay's cards take USD, its mobile money does not). Undefined for a direct connector, or a
 * method its `serves` does not list there: its bounds alone decide.
 */
export function servedCurrencies(description: Pick<ProviderDescription, 'serves'>, method: string, country: string): readonly Currency[] | undefined {
  const served = description.serves?.find((s) => s.method === method && s.countries.includes(country));
  if (served === undefined) return undefined;
  return served.currencies ?? (isCountry(country) ? [currencyOf(country)] : []);
}

/** A payment method of the catalogue (its brand, network and USSD code), or undefined: not one (an aggregator, an unknown name). */
export function describeMethod(name: string): PaymentMethodInfo | undefined {
  return paymentMethodCatalogue().find((m) => m.name === name);
}

/** The E.164 prefixes of the numbers a method serves in `country` (empty: any number there, or not tied to a network). */
export function methodPrefixes(method: Pick<PaymentMethodInfo, 'network'>, country: Country): string[] {
  return method.network === null ? [] : prefixesOf(method.network, [country]);
}

/** A network's name as its subscribers know it (`Moov`). */
export function operatorName(operator: Operator): string {
  return OPERATOR_NAMES[operator];
}

/**
 * Whether a method can take a payment from this E.164 number: a mobile number of a country where
 * some connector reaches the method and, for a method tied to a network, of that network.
 */
export function methodServesNumber(method: PaymentMethodInfo, e164: string): boolean {
  const info = lookupNumber(e164);
  if (info === undefined || connectorsServing(method.name, info.country).length === 0) return false;
  return method.network === null || info.operator === method.network;
}

/** The countries where a method's payments can be taken: its own connector's, and those where another connector reaches it. */
export function methodCountries(description: Pick<ProviderDescription, 'name' | 'countries'>): Country[] {
  const reached = providerDescriptions().flatMap((d) => (d.name === description.name ? [] : connectorCountries(d, description.name)));
  return [...new Set([...description.countries, ...reached])].filter(isCountry);
}

function connectorCountries(d: ProviderDescription, method: string): string[] {
  return servedMethods(d)
    .filter((s) => s.method === method)
    .flatMap((s) => s.countries);
}

/**
 * Whether a connector only reaches other methods (pawaPay, CinetPay): it declares `serves` and is
 * not one of the methods it serves. Such a connector is never offered to payers as a method.
 */
export function isAggregator(description: Pick<ProviderDescription, 'name' | 'countries' | 'serves'>): boolean {
  return !servedMethods(description).some((s) => s.method === description.name);
}

/** Whether this connector reaches `method` in `country` (docs/spec/routes.md). */
export function connectorServes(description: Pick<ProviderDescription, 'name' | 'countries' | 'serves'>, method: string, country: string): boolean {
  return servedMethods(description).some((s) => s.method === method && s.countries.includes(country));
}

/**
 * The connectors that reach `method` in `country`, as the default route orders them: the
 * operator's own connector first, then the aggregators, each in the registry's order.
 */
export function connectorsServing(method: string, country: string): ProviderName[] {
  const serving = providerDescriptions().filter((d) => connectorServes(d, method, country));
  return [...serving.filter((d) => d.name === method), ...serving.filter((d) => d.name !== method)].map((d) => d.name);
}

/** Every payment method some connector reaches in `country` (every country when omitted), in the registry's order. */
export function methodsServed(country?: string): string[] {
  const methods = providerDescriptions().flatMap((d) =>
    servedMethods(d)
      .filter((s) => country === undefined || s.countries.includes(country))
      .map((s) => s.method),
  );
  return [...new Set(methods)];
}

/**
 * The E.164 prefixes of the numbers a provider serves (empty: any number of its countries), in
 * `country` only when given (a merchant's checkout suggests its own country's numbers).
 */
export function providerPrefixes(description: ProviderDescription, country?: Country): string[] {
  if (description.network === null) return [];
  // A merchant's country: also one where another connector reaches the method (Orange Money in Burkina Faso).
  return prefixesOf(description.network, country === undefined ? description.countries : methodCountries(description).filter((c) => c === country));
}

/**
 * Whether the provider can take a payment from this E.164 number: a mobile number of one of its
 * countries (an aggregator's: those of the methods it serves) and, for a provider tied to a
 * network, of that network's prefixes.
 */
export function servesNumber(description: ProviderDescription, e164: string): boolean {
  const info = lookupNumber(e164);
  // An aggregator serves the countries of the methods it reaches (its own `countries` are empty).
  const countries: readonly string[] = description.serves ? description.serves.flatMap((s) => s.countries) : description.countries;
  if (info === undefined || !countries.includes(info.country)) return false;
  return description.network === null || info.operator === description.network;
}

/**
 * The provider a number's prefix suggests (checkout preselects it; the payer may change it), among
 * `among` when given (e.g. the methods this intent offers); undefined when none fits.
 */
export function suggestProvider(e164: string, among?: readonly string[]): ProviderName | undefined {
  const info = lookupNumber(e164);
  if (info?.operator === undefined) return undefined;
  return paymentMethodCatalogue().find(
    (m) => m.network === info.operator && connectorsServing(m.name, info.country).length > 0 && (among === undefined || among.includes(m.name)),
  )?.name;
}

/** Where a refused field sits in the caller's body (`destination.phoneNumber` for a payout). */
export interface MovementParams {
  phoneNumber: string;
  currency?: string;
  amount?: string;
}

/**
 * The 400 that refuses a money movement the provider cannot make, checked before anything is
 * stored or asked of it: a number it does not serve (`phone_invalid`), a currency it does not
 * take (`currency_unsupported`), an amount outside its bounds (`amount_out_of_bounds`). Top-ups
 * and payouts are refused here as a direct charge is, rather than accepted and failed later.
 */
export function assertProviderTakes(
  description: ProviderDescription,
  movement: { phoneNumber: string; currency: Currency; amount: bigint },
  params: MovementParams,
  connector?: Pick<Connector, 'currencies'>,
): void {
  const { displayName } = description;
  if (!servesNumber(description, movement.phoneNumber)) {
    throw new ApiError('phone_invalid', `${displayName} does not serve ${movement.phoneNumber}`, { param: params.phoneNumber });
  }
  // The provider moves it, this account does not (an Orange `cm` account takes XAF only).
  if (connector?.currencies !== undefined && !connector.currencies.includes(movement.currency)) {
    throw new ApiError(
      'currency_unsupported',
      `${displayName} as configured on this server does not move ${movement.currency}; it takes ${connector.currencies.join(', ') || 'no currency'}`,
      { param: params.currency ?? 'currency' },
    );
  }
  const check = checkAmountBounds(description, movement.currency, movement.amount);
  if (check.ok) return;
  if (check.reason === 'currency_unsupported') {
    const taken = Object.keys(description.limits).join(', ');
    throw new ApiError('currency_unsupported', `${displayName} does not move ${movement.currency}; it takes ${taken}`, {
      param: params.currency ?? 'currency',
    });
  }
  const currency = movement.currency;
  const step = check.reason === 'not_a_multiple' && check.bounds?.step !== undefined ? `, in multiples of ${formatAmount(check.bounds.step, currency)}` : '';
  const range = check.bounds ? ` (${formatAmount(check.bounds.min, currency)}–${formatAmount(check.bounds.max, currency)} ${currency}${step})` : '';
  throw new ApiError('amount_out_of_bounds', `${displayName} does not take ${formatAmount(movement.amount, currency)} ${currency}${range}`, {
    param: params.amount ?? 'amount',
  });
}
