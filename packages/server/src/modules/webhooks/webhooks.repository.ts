import { webhookDeliveriesRepository } from './webhooks.deliveries.repository.ts';
import { webhookEndpointsRepository } from './webhooks.endpoints.repository.ts';
import { webhookRetentionRepository } from './webhooks.retention.repository.ts';

/**
 * The webhooks module's repository, one object for the service and the dispatcher: its queries
 * live by what they touch (endpoints and secrets, deliveries and attempts, retention), its tables
 * in webhooks.tables.repository.ts.
 */

export type {
  AttemptRow,
  DeliveryRow,
  DeliveryStatus,
  DisabledReason,
  EndpointRow,
  SecretRow,
  WebhookDeliveriesTable,
  WebhookDeliveryAttemptsTable,
  WebhookEndpointSecretsTable,
  WebhookEndpointsTable,
} from './webhooks.tables.repository.ts';
export { type AttemptResult, type ClaimedDelivery, deliveriesOutbox } from './webhooks.deliveries.repository.ts';

export const webhooksRepository = { ...webhookEndpointsRepository, ...webhookDeliveriesRepository, ...webhookRetentionRepository };
