import { useQuery } from '@tanstack/react-query';
import { usePages } from '../paging.tsx';
import type { Customer, CustomerDetail, Mode } from '../types.ts';
import { get, listPage, modePath } from './client.ts';
import { keys } from './keys.ts';

/** Customers, newest first; `query` holds the page size. */
export function useCustomers(mode: Mode, query: string) {
  return usePages(keys.customers.list(mode, query), (after) => listPage<Customer>(modePath(mode, 'customers'), query, after));
}

/** One customer with their payments and top-ups. */
export function useCustomer(mode: Mode, id: string) {
  return useQuery({ queryKey: keys.customers.item(mode, id), queryFn: () => get<CustomerDetail>(modePath(mode, 'customers', id)) });
}
