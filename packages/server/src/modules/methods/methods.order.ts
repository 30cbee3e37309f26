import type { Country } from '../../platform/countries.ts';
import { DEFAULT_PROVIDER_ORDER, isMethodProvider, methodProviderNames, type ProviderName } from '../connectors/index.ts';

/**
 * Every provider of the registry that is a payment method itself (no aggregator) in the order checkout lists them for this merchant: the
 * merchant's own order first, then its country's default, then the rest in registry order.
 */
export function providerOrder(country: Country, chosen: readonly string[] | undefined): ProviderName[] {
  return [...new Set([...(chosen ?? []), ...DEFAULT_PROVIDER_ORDER[country], ...methodProviderNames()])].filter(isMethodProvider);
}
