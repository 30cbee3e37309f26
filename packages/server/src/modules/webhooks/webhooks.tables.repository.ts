import type { Generated, Selectable } from 'kysely';
import type { KeyMode } from '../../platform/tenancy.ts';

/** The webhooks module's tables, as its repositories (webhooks.*.repository.ts) read and write them. */

export type DisabledReason = 'manual' | 'gone' | 'failing';
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookEndpointsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  url: string;
  description: string | null;
  enabled_events: string[];
  enabled: boolean;
  disabled_reason: DisabledReason | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookEndpointSecretsTable {
  id: Generated<bigint>;
  endpoint_id: string;
  secret_encrypted: Buffer;
  created_at: Date;
  expires_at: Date | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  merchant_id: string;
  mode: KeyMode;
  status: DeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: Date | null;
  lease_token: string | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  completed_at: Date | null;
}

export interface WebhookDeliveryAttemptsTable {
  id: Generated<bigint>;
  delivery_id: string;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
  /** The request's headers as sent, a JSON object (migration 0025); null when nothing was sent. */
  request_headers: string | null;
  response_excerpt: string | null;
  error: string | null;
  succeeded: boolean;
}

declare module '../../platform/database.ts' {
  interface Database {
    webhook_endpoints: WebhookEndpointsTable;
    webhook_endpoint_secrets: WebhookEndpointSecretsTable;
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  }
}

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type SecretRow = Selectable<WebhookEndpointSecretsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookDeliveryAttemptsTable>;
