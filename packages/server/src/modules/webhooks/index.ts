// The webhooks module: endpoints, signing, delivery and retries (the events outbox's subscriber).
export {
  createWebhooksService,
  deliveryView,
  endpointView,
  type Page,
  SECRET_ROLL_GRACE_SECONDS,
  STATS_WINDOW_MS,
  type WebhooksService,
} from './webhooks.service.ts';
export {
  Attempt,
  AttemptDetail,
  BODY_EXCERPT_CHARS,
  CreateEndpointBody,
  type CreateEndpointInput,
  DeletedEndpoint,
  DeliveriesQuery,
  Delivery,
  DeliveryDetail,
  type DeliveryDetailView,
  DeliveryList,
  type DeliveryView,
  Endpoint,
  EndpointIdParams,
  EndpointList,
  EndpointSecret,
  type EndpointSecretView,
  EndpointStats,
  type EndpointView,
  EndpointWithSecret,
  Event,
  type EventBody,
  EventDetail,
  EventIdParams,
  EventList,
  EventsQuery,
  Limit,
  ListQuery,
  MAX_ENDPOINTS,
  ResendBody,
  ResendResult,
  RollSecretBody,
  UpdateEndpointBody,
  type UpdateEndpointInput,
} from './webhooks.schema.ts';
export { createDispatcher, DELIVERY_TIMEOUT_MS, type Dispatcher, type DispatcherOptions, EXCERPT_BYTES, startDispatcher } from './dispatcher.ts';
export { deliveriesOutbox } from './webhooks.repository.ts';
export { signedHeaders, newWebhookSecret } from './signing.ts';
export { default as webhooksRoutes } from './webhooks.routes.ts';
export { EventsPageQuery, webhooksDashboardRoutes } from './webhooks.dashboard.ts';
