import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import { usePages } from '../paging.tsx';
import type { List, Mode, Payment, PaymentDetail, RecordedRefundBody } from '../types.ts';
import { get, listPage, modePath, useChange } from './client.ts';
import { keys } from './keys.ts';

/** Payments, newest first; `query` holds the filters and the page size. */
export function usePayments(mode: Mode, query: string) {
  return usePages(keys.payments.list(mode, query), (after) => listPage<Payment>(modePath(mode, 'payments'), query, after));
}

/** One payment with its refunds and events. */
export function usePayment(mode: Mode, id: string) {
  return useQuery({ queryKey: keys.payments.item(mode, id), queryFn: () => get<PaymentDetail>(modePath(mode, 'payments', id)) });
}

/** Payments matching a search; nothing is asked for an empty one. */
export function useSearch(mode: Mode, q: string) {
  return useQuery({
    queryKey: keys.search(mode, q),
    queryFn: () => get<List<Payment>>(`${modePath(mode, 'search')}?${new URLSearchParams({ q })}`),
    enabled: q !== '',
  });
}

/** A payment changed: it, every list or search that may show it, and the figures it counts in. */
const paymentChanged = (mode: Mode, id: string) => [
  keys.payments.item(mode, id),
  keys.payments.lists(mode),
  keys.searches(mode),
  keys.overview.all(mode),
  keys.customers.all(mode),
];

/** Refunds a payment, whole or `amount` of it: money leaves the balance too. */
export function useRefundPayment(mode: Mode) {
  return useChange(
    ({ id, amount }: { id: string; amount?: string }) => api('POST', `${modePath(mode, 'payments', id)}/refund`, amount ? { amount } : {}),
    ({ id }) => [...paymentChanged(mode, id), keys.balance.all(mode)],
  );
}

/** Records a refund made outside Caisse (its provider cannot refund): no money moves, so the balance stays. */
export function useRecordRefund(mode: Mode) {
  return useChange(
    ({ id, body }: { id: string; body: RecordedRefundBody }) => api('POST', `${modePath(mode, 'payments', id)}/recorded-refund`, body),
    ({ id }) => paymentChanged(mode, id),
  );
}

/** Cancels a payment not paid yet: no money moved, so the balance stays. */
export function useCancelPayment(mode: Mode) {
  return useChange(
    (id: string) => api('POST', `${modePath(mode, 'payments', id)}/cancel`),
    (id) => paymentChanged(mode, id),
  );
}
