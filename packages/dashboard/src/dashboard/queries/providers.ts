import { useQuery } from '@tanstack/react-query';
import type { Mode, Provider, ProviderList } from '../types.ts';
import { get, modePath } from './client.ts';
import { keys } from './keys.ts';

/** The registry's providers as the server describes them: no page names one itself. */
export function useProviders(mode: Mode) {
  // They change with a deployment or the merchant's country only.
  return useQuery({ queryKey: keys.providers(mode), queryFn: () => get<ProviderList>(modePath(mode, 'providers')), staleTime: 5 * 60_000 });
}

/** A provider's brand by its registry name; its name itself until the list is loaded, or when unknown. */
export function useProviderName(mode: Mode): (provider: string) => string {
  const { data } = useProviders(mode);
  return (provider) => data?.data.find((p) => p.provider === provider)?.name ?? provider;
}

/**
 * The payout form's choice: the providers that send payouts in the merchant's country here, and
 * those of the country that only collect (a payout to them is refused, so the page says so first).
 */
export function payoutProviders(list: Provider[] | undefined): { payable: Provider[]; collectOnly: Provider[] } {
  const ofCountry = (list ?? []).filter((p) => p.servesCountry && p.configured);
  return { payable: ofCountry.filter((p) => p.capabilities.disburse), collectOnly: ofCountry.filter((p) => !p.capabilities.disburse) };
}
