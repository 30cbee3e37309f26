import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import { usePages } from '../paging.tsx';
import type { EventDetail, Mode, WebhookEvent } from '../types.ts';
import { get, listPage, modePath, useChange } from './client.ts';
import { keys } from './keys.ts';

/** Events, newest first; `query` holds the filters and the page size. */
export function useEvents(mode: Mode, query: string) {
  return usePages(keys.events.list(mode, query), (after) => listPage<WebhookEvent>(modePath(mode, 'events'), query, after));
}

/** One event with its deliveries per endpoint. */
export function useEvent(mode: Mode, id: string) {
  return useQuery({ queryKey: keys.events.item(mode, id), queryFn: () => get<EventDetail>(modePath(mode, 'events', id)) });
}

/**
 * Sends an event again, to every endpoint or to one. New deliveries show on the event, on the
 * endpoints' pages, in the events list (its delivery status) and on the payment's timeline.
 */
export function useResendEvent(mode: Mode) {
  return useChange(
    ({ id, endpointId }: { id: string; endpointId?: string }) =>
      api<{ data: unknown[] }>('POST', `${modePath(mode, 'events', id)}/resend`, endpointId ? { endpointId } : {}),
    ({ id }) => [keys.events.item(mode, id), keys.events.lists(mode), keys.webhooks.all(mode), keys.payments.all(mode)],
  );
}
