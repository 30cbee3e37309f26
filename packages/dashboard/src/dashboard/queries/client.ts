import { type QueryKey, QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiProblem, api } from '../api.ts';
import type { List, Mode } from '../types.ts';

/**
 * The dashboard's one cache. A page shows what it last saw while it asks again on mount; a tab
 * coming back to focus does not refetch (a form may be half filled). A 4xx answer will not change
 * by asking again, so only a lost connection or a server error is retried, once.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (failures, error) => failures < 1 && !(error instanceof ApiProblem && error.status >= 400 && error.status < 500),
      },
      mutations: { retry: false },
    },
  });
}

/** GET `path` under the dashboard API. */
export function get<T>(path: string) {
  return api<T>('GET', path);
}

/** `/{mode}/{path}`, the id encoded: the path of one resource in one mode. */
export function modePath(mode: Mode, ...parts: string[]) {
  return `/${mode}/${parts.map((p, i) => (i === 0 ? p : encodeURIComponent(p))).join('/')}`;
}

/** A page of a cursor list: `query` (filters and limit) and, after the first, the last row's id. */
export function listPage<T>(path: string, query: string, startingAfter?: string) {
  const q = new URLSearchParams(query);
  if (startingAfter) q.set('startingAfter', startingAfter);
  return get<List<T>>(`${path}?${q.toString()}`);
}

/**
 * A mutation that, once the server said yes, refetches what it changed (`changed` names the keys,
 * or key prefixes), the queries not shown too: a page the user goes back to already holds the
 * new data instead of flashing the old one. It resolves once they are fetched.
 */
export function useChange<V, R>(mutationFn: (vars: V) => Promise<R>, changed: (vars: V, answer: R) => QueryKey[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (answer, vars) => Promise.all(changed(vars, answer).map((queryKey) => client.invalidateQueries({ queryKey, refetchType: 'all' }))),
  });
}
