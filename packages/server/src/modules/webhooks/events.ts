import type { Static } from 'typebox';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { eventsRepository } from './events.repository.ts';
import type { Intent } from '../intents/intents.schema.ts';
import { type Mode, webhooksRepository } from './webhooks.repository.ts';
import type { Event } from './webhooks.schema.ts';

/** Event types (contract §5). */
export const EVENT_TYPES = ['payment.completed', 'payment.failed', 'payment.expired', 'payment.canceled', 'payment.refunded'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Webhook endpoints a merchant may have per mode (so: deliveries per event, at most). */
export const MAX_ENDPOINTS = 16;

/** The event body, exactly as delivered (contract §5): the type of the `Event` schema. */
export type EventBody = Static<typeof Event>;

export interface NewEvent {
  merchantId: string;
  mode: 'test' | 'live';
  type: EventType;
  apiVersion: string;
  /** The intent as it is at this moment, in its merchant-facing shape (with metadata). */
  paymentIntent: Intent;
}

/**
 * Writes an event into the outbox and fans it out to a pending delivery for every enabled
 * endpoint of that merchant and mode that wants its type. It must be called inside the
 * transaction that makes the state change, so the change, its event and its deliveries commit
 * together or not at all (the dispatcher picks the deliveries up once committed).
 */
export async function recordEvent(tx: Tx, deps: Pick<Deps, 'clock' | 'ids'>, input: NewEvent): Promise<EventBody> {
  const createdAt = deps.clock.now();
  const body: EventBody = {
    id: deps.ids('event'),
    object: 'event',
    type: input.type,
    createdAt: createdAt.toISOString(),
    livemode: input.mode === 'live',
    apiVersion: input.apiVersion,
    data: { paymentIntent: input.paymentIntent },
  };
  // One statement writes the event and its deliveries. Their ids: one new delivery id whose last
  // character (5 of its 80 random bits) is the endpoint's rank, 0 to 15, for every endpoint
  // there may be: as unique and time-ordered as any id, for one draw of randomness.
  const base = deps.ids('delivery').slice(0, -1);
  await eventsRepository.insertWithDeliveries(
    tx,
    {
      id: body.id,
      merchant_id: input.merchantId,
      mode: input.mode,
      type: input.type,
      intent_id: input.paymentIntent.id,
      api_version: input.apiVersion,
      payload: JSON.stringify(body),
      created_at: createdAt,
    },
    Array.from({ length: MAX_ENDPOINTS }, (_, rank) => base + rank.toString(32)),
  );
  return body;
}

/**
 * Call once the transaction that recorded events has committed: the webhook dispatcher (in this
 * process, or through PostgreSQL in another) claims their deliveries at once instead of at its
 * next poll.
 */
export function wakeDispatchers(deps: Pick<Deps, 'wakeups'>): void {
  deps.wakeups?.wake('webhooks');
}

/** New pending deliveries of one event, due at once. */
export async function enqueueDeliveries(
  tx: Executor,
  deps: Pick<Deps, 'clock' | 'ids'>,
  event: { eventId: string; merchantId: string; mode: Mode },
  endpointIds: string[],
) {
  const now = deps.clock.now();
  return webhooksRepository.insertDeliveries(
    tx,
    endpointIds.map((endpointId) => ({
      id: deps.ids('delivery'),
      event_id: event.eventId,
      endpoint_id: endpointId,
      merchant_id: event.merchantId,
      mode: event.mode,
      status: 'pending' as const,
      next_attempt_at: now,
      lease_token: null,
      last_attempt_at: null,
      last_status_code: null,
      last_error: null,
      created_at: now,
      completed_at: null,
    })),
  );
}
