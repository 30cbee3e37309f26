import type { Country } from '../../platform/countries.ts';
import { DEFAULT_PROVIDER_ORDER, PROVIDER_NAMES, type ProviderName } from '../connectors/index.ts';

const isProvider = (name: string): name is ProviderName => (PROVIDER_NAMES as string[]).includes(name);

/**
 * Every provider of the registry in the order checkout lists them for this merchant: the
 * merchant's own order first, then its country's default, then the rest in registry order.
 */
export function providerOrder(country: Country, chosen: readonly string[] | undefined): ProviderName[] {
  return [...new Set([...(chosen ?? []), ...DEFAULT_PROVIDER_ORDER[country], ...PROVIDER_NAMES])].filter(isProvider);
}
