import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { eventsRepository } from './events.repository.ts';

/** Event types (contract §5). */
export const EVENT_TYPES = ['payment.completed', 'payment.failed', 'payment.expired', 'payment.canceled', 'payment.refunded'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The event body, exactly as delivered (contract §5). */
export interface EventBody {
  id: string;
  object: 'event';
  type: EventType;
  createdAt: string;
  livemode: boolean;
  apiVersion: string;
  data: { paymentIntent: Record<string, unknown> };
}

export interface NewEvent {
  merchantId: string;
  mode: 'test' | 'live';
  type: EventType;
  apiVersion: string;
  /** The intent as it is at this moment, in its merchant-facing shape (with metadata). */
  paymentIntent: Record<string, unknown> & { id: string };
}

/**
 * Writes an event into the outbox. It must be called inside the transaction that makes the state
 * change, so the change and its event commit together or not at all.
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
  await eventsRepository.insert(tx, {
    id: body.id,
    merchant_id: input.merchantId,
    mode: input.mode,
    type: input.type,
    intent_id: input.paymentIntent.id,
    api_version: input.apiVersion,
    payload: JSON.stringify(body),
    created_at: createdAt,
  });
  return body;
}
