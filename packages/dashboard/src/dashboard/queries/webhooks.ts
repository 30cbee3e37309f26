import { useMutation, useQueries, useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import type { Delivery, Endpoint, EndpointSecret, EndpointStats, EndpointWithSecret, List, Mode } from '../types.ts';
import { get, modePath, useChange } from './client.ts';
import { keys } from './keys.ts';

const endpointPath = (mode: Mode, ...rest: string[]) => modePath(mode, 'webhook-endpoints', ...rest);

/** The merchant's endpoints (a merchant has few: one page of 100 holds them). */
const endpointsQuery = (mode: Mode) => ({
  queryKey: keys.webhooks.list(mode, 'limit=100'),
  queryFn: () => get<List<Endpoint>>(`${endpointPath(mode)}?limit=100`),
});

export function useEndpoints(mode: Mode) {
  return useQuery(endpointsQuery(mode));
}

export function useEndpoint(mode: Mode, id: string) {
  return useQuery({ queryKey: keys.webhooks.item(mode, id), queryFn: () => get<Endpoint>(endpointPath(mode, id)) });
}

/** The endpoint's last 50 deliveries. */
export function useDeliveries(mode: Mode, id: string) {
  return useQuery({ queryKey: keys.webhooks.deliveries(mode, id), queryFn: () => get<List<Delivery>>(`${endpointPath(mode, id)}/deliveries?limit=50`) });
}

const statsQuery = (mode: Mode, id: string) => ({
  queryKey: keys.webhooks.stats(mode, id),
  queryFn: () => get<EndpointStats>(`${endpointPath(mode, id)}/stats`),
});

export function useEndpointStats(mode: Mode, id: string) {
  return useQuery(statsQuery(mode, id));
}

/** The enabled endpoints whose latest delivery (last 24 hours) failed, each with that failure. */
export function useFailingEndpoints(mode: Mode, enabled = true) {
  const endpoints = useQuery({ ...endpointsQuery(mode), enabled });
  const active = (endpoints.data?.data ?? []).filter((ep) => ep.enabled);
  const stats = useQueries({ queries: active.map((ep) => statsQuery(mode, ep.id)) });
  return {
    loaded: endpoints.data !== undefined && stats.every((s) => s.data !== undefined || s.error),
    failing: active.flatMap((endpoint, i) => {
      const failure = stats[i]?.data?.lastFailure;
      return failure ? [{ endpoint, failure }] : [];
    }),
  };
}

export function useCreateEndpoint(mode: Mode) {
  return useChange(
    (body: { url: string; description?: string; enabledEvents: string[] }) => api<EndpointWithSecret>('POST', endpointPath(mode), body),
    () => [keys.webhooks.lists(mode)],
  );
}

/** Turns an endpoint on or off, or changes the events it receives. */
export function useUpdateEndpoint(mode: Mode) {
  return useChange(
    ({ id, ...body }: { id: string; enabled?: boolean; enabledEvents?: string[] }) => api('PATCH', endpointPath(mode, id), body),
    ({ id }) => [keys.webhooks.item(mode, id), keys.webhooks.lists(mode)],
  );
}

/** Deletes an endpoint; the page leaves for the list, so only the lists need asking again. */
export function useDeleteEndpoint(mode: Mode) {
  return useChange(
    (id: string) => api('DELETE', endpointPath(mode, id)),
    () => [keys.webhooks.lists(mode)],
  );
}

/** Shows the signing secret: a read that the server logs, hence a POST; nothing cached changes. */
export function useRevealSecret(mode: Mode) {
  return useMutation({ mutationFn: (id: string) => api<EndpointSecret>('POST', `${endpointPath(mode, id)}/reveal-secret`, {}) });
}

/** A new signing secret; the old one still signs for `expiresIn` seconds. */
export function useRollSecret(mode: Mode) {
  return useChange(
    ({ id, expiresIn }: { id: string; expiresIn: number }) => api<EndpointWithSecret>('POST', `${endpointPath(mode, id)}/roll-secret`, { expiresIn }),
    ({ id }) => [keys.webhooks.item(mode, id)],
  );
}
