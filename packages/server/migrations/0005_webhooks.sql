-- Webhook endpoints, their signing secrets, and the delivery queue fed by the events outbox.

create table webhook_endpoints (
  id               text primary key,
  merchant_id      text not null references merchants(id),
  mode             text not null check (mode in ('test', 'live')),
  url              text not null,
  description      text,
  -- Event types this endpoint receives; empty means every type.
  enabled_events   text[] not null default '{}',
  enabled          boolean not null default true,
  -- Why it was disabled: 'manual' (PATCH enabled=false), 'gone' (the receiver answered 410),
  -- 'failing' (every delivery failed for 5 days).
  disabled_reason  text check (disabled_reason in ('manual', 'gone', 'failing')),
  -- Start of the current run of failed attempts; cleared by any acknowledged delivery.
  failing_since    timestamptz,
  created_at       timestamptz not null,
  updated_at       timestamptz not null
);
create index webhook_endpoints_merchant on webhook_endpoints (merchant_id, mode, id);

-- Signing secrets, AES-256-GCM under the master key. The current secret has no expiry; a rolled
-- one keeps signing, beside the new one, until `expires_at`.
create table webhook_endpoint_secrets (
  id                bigint generated always as identity primary key,
  endpoint_id       text not null references webhook_endpoints(id) on delete cascade,
  secret_encrypted  bytea not null,
  created_at        timestamptz not null,
  expires_at        timestamptz
);
create index webhook_endpoint_secrets_endpoint on webhook_endpoint_secrets (endpoint_id, created_at);

-- One row per (event, endpoint) to deliver. A pending delivery is due when `next_attempt_at` has
-- passed. Claiming it pushes `next_attempt_at` forward by the lease and sets a fresh
-- `lease_token`: if the claimer dies, the delivery is simply due again when the lease lapses.
-- A pending delivery whose endpoint is disabled is parked (`next_attempt_at` null) until the
-- endpoint is enabled again.
create table webhook_deliveries (
  id                text primary key,
  event_id          text not null references events(id),
  endpoint_id       text not null references webhook_endpoints(id) on delete cascade,
  merchant_id       text not null,
  mode              text not null check (mode in ('test', 'live')),
  status            text not null check (status in ('pending', 'succeeded', 'failed')),
  attempts          integer not null default 0,
  next_attempt_at   timestamptz,
  lease_token       text,
  last_attempt_at   timestamptz,
  last_status_code  integer,
  last_error        text,
  created_at        timestamptz not null,
  completed_at      timestamptz
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, id desc);
create index webhook_deliveries_event on webhook_deliveries (event_id);

-- Every attempt, kept for the merchant to read: when, what came back, how long it took.
create table webhook_delivery_attempts (
  id                bigint generated always as identity primary key,
  delivery_id       text not null references webhook_deliveries(id) on delete cascade,
  attempted_at      timestamptz not null,
  status_code       integer,
  latency_ms        integer not null,
  response_excerpt  text,
  error             text,
  succeeded         boolean not null
);
create index webhook_delivery_attempts_delivery on webhook_delivery_attempts (delivery_id, id);
