// The webhooks module: endpoints, signing, delivery and retries (the events outbox's subscriber).
export * from './webhooks.service.ts';
export * from './webhooks.schema.ts';
export { createDispatcher, DELIVERY_TIMEOUT_MS, type Dispatcher, type DispatcherOptions, EXCERPT_BYTES, startDispatcher } from './dispatcher.ts';
export { deliveriesOutbox } from './webhooks.repository.ts';
export { signedHeaders, newWebhookSecret } from './signing.ts';
export { default as webhooksRoutes } from './webhooks.routes.ts';
export { EventsPageQuery, webhooksDashboardRoutes } from './webhooks.dashboard.ts';
