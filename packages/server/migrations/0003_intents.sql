-- Payment intents (docs/spec/payment-intents.md) and the Idempotency-Key records of every POST (docs/spec/request-rules.md).

create table intents (
  id                     text primary key,
  merchant_id            text not null references merchants(id),
  mode                   text not null check (mode in ('test', 'live')),
  status                 text not null check (status in ('PENDING', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'EXPIRED',
                                                         'CANCELED', 'PARTIALLY_REFUNDED', 'REFUNDED')),
  -- Money in integer minor units of `currency` (XAF: francs, EUR: cents); never a float.
  amount_minor           bigint not null check (amount_minor > 0 and amount_minor <= 999999999999),
  amount_refunded_minor  bigint not null default 0 check (amount_refunded_minor >= 0 and amount_refunded_minor <= amount_minor),
  currency               text not null check (currency ~ '^[A-Z]{3}$'),
  description            text,
  -- `json`, not `jsonb`: the merchant's metadata comes back exactly as sent (key order included).
  metadata               json not null,
  -- SHA-256 of the session token (ps_…): the token itself is never stored.
  session_token_hash     bytea not null unique,
  attempts               integer not null default 0 check (attempts >= 0),
  last_error_code        text,
  last_error_message     text,
  expires_at             timestamptz not null,
  created_at             timestamptz not null,
  updated_at             timestamptz not null
);
-- Lists, newest first, per merchant and mode (ids sort by creation time), with or without a status.
create index intents_list on intents (merchant_id, mode, id desc);
create index intents_list_status on intents (merchant_id, mode, status, id desc);
-- The expiry sweeper: PENDING intents whose expires_at has passed.
create index intents_expiry on intents (status, expires_at);

-- One row per (merchant, mode, Idempotency-Key). Claimed with INSERT … ON CONFLICT DO NOTHING, so
-- any number of server processes on one PostgreSQL agree on who runs the request. The stored
-- answer is encrypted with the master key: it may hold a secret (the session token of a created
-- intent, an authorization token).
create table idempotency_keys (
  merchant_id       text not null references merchants(id),
  mode              text not null check (mode in ('test', 'live')),
  key               text not null,
  -- SHA-256 of method, path, caller and canonical body: a replay must be the same request.
  fingerprint       bytea not null,
  state             text not null check (state in ('running', 'done')),
  request_id        text not null,
  -- When the running request took the key: a key held longer than the lock timeout (a process
  -- that died mid-request) may be taken over.
  locked_at         timestamptz not null,
  response_status   integer,
  response_headers  json,
  response_body     bytea,
  created_at        timestamptz not null,
  primary key (merchant_id, mode, key)
);
-- Purge of records past their 24 hours.
create index idempotency_keys_created on idempotency_keys (created_at);
