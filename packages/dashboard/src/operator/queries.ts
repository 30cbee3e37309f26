import { useQuery } from '@tanstack/react-query';
import { api } from '../dashboard/api.ts';

/**
 * The console's reads, on the dashboard's TanStack Query client (its own instance, in main.tsx):
 * `key` names the answer in the cache; `reload()` asks again after a change.
 */
export function useOperatorQuery<T>(key: readonly unknown[], path: string) {
  const query = useQuery({ queryKey: ['operator', ...key], queryFn: () => api<T>('GET', path) });
  return { data: query.data, error: query.error, loading: query.isPending, reload: () => void query.refetch() };
}
