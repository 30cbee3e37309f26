// The events module: the event catalogue and envelope, and the transactional outbox.
export { announceEvents, createEventsService, type EventsService, type OutboxSubscriber } from './events.service.ts';
export { EVENT_TYPES, type EventType, EventTypeSchema, eventSchema } from './events.schema.ts';
