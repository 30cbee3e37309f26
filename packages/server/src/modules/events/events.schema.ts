import { type Static, type TSchema, Type } from 'typebox';

/** Event types (docs/spec/webhooks.md, payouts docs/spec/money-out.md). */
export const EVENT_TYPES = [
  'payment.processing',
  'payment.completed',
  'payment.failed',
  'payment.expired',
  'payment.canceled',
  'payment.refunded',
  'refund.failed',
  'payout.paid',
  'payout.failed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EventTypeSchema = Type.Enum(EVENT_TYPES, { description: 'An event type' });

/**
 * The event envelope (docs/spec/webhooks.md) around what an event is about. The module that emits an event
 * describes its `data` (the intents module: `{paymentIntent}`), so this module knows no resource.
 */
export function eventSchema<Data extends TSchema>(data: Data) {
  return Type.Object({
    id: Type.String({ description: 'evt_…: receivers dedupe by it' }),
    object: Type.Literal('event'),
    type: EventTypeSchema,
    createdAt: Type.String({ format: 'date-time' }),
    livemode: Type.Boolean(),
    apiVersion: Type.String({ description: "The API version the event is written in: the merchant's pinned version when it happened" }),
    data,
  });
}

/** Any event as stored: the envelope with its data left open (the emitting module's schema is exact). */
export const AnyEvent = eventSchema(Type.Record(Type.String(), Type.Unknown()));
export type AnyEventBody = Static<typeof AnyEvent>;
