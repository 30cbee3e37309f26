import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import type { Country, CountrySettings, Mode, PaymentMethodSettings } from '../types.ts';
import { get, modePath, useChange } from './client.ts';
import { keys } from './keys.ts';

/** The merchant's country (both modes share it). */
export function useCountry() {
  return useQuery({ queryKey: keys.country(), queryFn: () => get<CountrySettings>('/settings/country') });
}

/** The payment methods offered in one mode. */
export function usePaymentMethods(mode: Mode) {
  return useQuery({ queryKey: keys.methods(mode), queryFn: () => get<PaymentMethodSettings>(modePath(mode, 'payment-methods/settings')) });
}

/** A new country changes the methods on offer, in both modes. */
export function useSaveCountry() {
  return useChange(
    (country: Country) => api('PUT', '/settings/country', { country }),
    () => [keys.country(), keys.methods('test'), keys.methods('live'), keys.providers('test'), keys.providers('live')],
  );
}

export function useSavePaymentMethods(mode: Mode) {
  return useChange(
    (body: unknown) => api('PUT', modePath(mode, 'payment-methods/settings'), body),
    () => [keys.methods(mode)],
  );
}
