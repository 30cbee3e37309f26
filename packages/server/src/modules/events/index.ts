// The events module: the event catalogue and envelope, and the transactional outbox.
export { announceEvents, createEventsService, type EventEnvelope, type EventsService, type NewEvent, type OutboxSubscriber } from './events.service.ts';
export { AnyEvent, type AnyEventBody, EVENT_TYPES, type EventType, EventTypeSchema, eventSchema } from './events.schema.ts';
export type { EventRow } from './events.repository.ts';
