import { useQuery } from '@tanstack/react-query';
import { usePages } from '../paging.tsx';
import type { Balance, BalanceTransaction, Mode } from '../types.ts';
import { get, listPage, modePath } from './client.ts';
import { keys } from './keys.ts';

/** What the merchant holds per currency: available, pending, reserved. */
export function useBalance(mode: Mode) {
  return useQuery({ queryKey: keys.balance.summary(mode), queryFn: () => get<Balance>(modePath(mode, 'balance')) });
}

/** The statement's lines, newest first; `query` holds the filters and the page size. */
export function useBalanceTransactions(mode: Mode, query: string) {
  return usePages(keys.balance.transactions(mode, query), (after) => listPage<BalanceTransaction>(modePath(mode, 'balance', 'transactions'), query, after));
}
