import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api.ts';
import { usePages } from '../paging.tsx';
import type { Mode, Payout, PayoutSchedule } from '../types.ts';
import { get, listPage, modePath, useChange } from './client.ts';
import { keys } from './keys.ts';

/** Payouts, newest first; `query` holds the page size. */
export function usePayouts(mode: Mode, query: string) {
  return usePages(keys.payouts.list(mode, query), (after) => listPage<Payout>(modePath(mode, 'payouts'), query, after));
}

/** One payout; asked again every 2 seconds while the provider has not answered. */
export function usePayout(mode: Mode, id: string) {
  return useQuery({
    queryKey: keys.payouts.item(mode, id),
    queryFn: () => get<Payout>(modePath(mode, 'payouts', id)),
    refetchInterval: (query) => (query.state.data?.status === 'PENDING' ? 2000 : false),
  });
}

type PayoutBody = { amount: string; currency: string; destination: { provider: string; phoneNumber: string }; description?: string };

/** Pays money out: the new payout shows in the list and leaves the balance. */
export function useCreatePayout(mode: Mode) {
  return useChange(
    (body: PayoutBody) => api<Payout>('POST', modePath(mode, 'payouts'), body),
    () => [keys.payouts.lists(mode), keys.balance.all(mode)],
  );
}

/** When and where payouts go by themselves. */
export function usePayoutSchedule(mode: Mode) {
  return useQuery({ queryKey: keys.payoutSchedule(mode), queryFn: () => get<PayoutSchedule>(modePath(mode, 'payout-schedule')) });
}

/** Saves the schedule; the answer is the schedule as it now is, so it replaces the cached one. */
export function useSavePayoutSchedule(mode: Mode) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => api<PayoutSchedule>('PUT', modePath(mode, 'payout-schedule'), body),
    onSuccess: (schedule) => client.setQueryData(keys.payoutSchedule(mode), schedule),
  });
}
