import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import { usePages } from '../paging.tsx';
import type { Answer, Mode, PaymentLink } from '../types.ts';
import { get, listPage, modePath, useChange } from './client.ts';
import { keys } from './keys.ts';

/** Payment links, newest first; `query` holds the page size. */
export function usePaymentLinks(mode: Mode, query: string) {
  return usePages(keys.links.list(mode, query), (after) => listPage<PaymentLink>(modePath(mode, 'payment-links'), query, after));
}

/** One link with the payments its visits created. */
export function usePaymentLink(mode: Mode, id: string) {
  return useQuery({
    queryKey: keys.links.item(mode, id),
    queryFn: () => get<Answer<'/dashboard/api/{mode}/payment-links/{id}', 'get'>>(modePath(mode, 'payment-links', id)),
  });
}

export function useCreatePaymentLink(mode: Mode) {
  return useChange(
    (body: { amount: string; currency: string; description: string }) => api<PaymentLink>('POST', modePath(mode, 'payment-links'), body),
    () => [keys.links.lists(mode)],
  );
}

/** Turns a link on or off. */
export function useSetPaymentLinkActive(mode: Mode) {
  return useChange(
    ({ id, active }: { id: string; active: boolean }) => api<PaymentLink>('POST', modePath(mode, 'payment-links', id), { active }),
    ({ id }) => [keys.links.item(mode, id), keys.links.lists(mode)],
  );
}
