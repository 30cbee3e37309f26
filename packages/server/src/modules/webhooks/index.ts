// The webhooks module: endpoints, signing, delivery and retries (the events outbox's subscriber).
export { createWebhooksService, type WebhooksService } from './webhooks.service.ts';
export { Delivery, Event, type EventBody, MAX_ENDPOINTS } from './webhooks.schema.ts';
export { createDispatcher, startDispatcher } from './dispatcher.ts';
export { deliveriesOutbox } from './webhooks.repository.ts';
export { default as webhooksRoutes } from './webhooks.routes.ts';
export { webhooksDashboardRoutes } from './webhooks.dashboard.ts';
