-- Merchants, their API keys and secret keys, and their dashboard accounts.

create table merchants (
  id                 text primary key,
  name               text not null,
  email              text,
  -- Default validity of a payment intent, seconds (docs/spec/payment-intents.md).
  intent_expires_in  integer not null default 1800 check (intent_expires_in between 300 and 86400),
  -- API version used when a request names none (docs/spec/request-rules.md).
  api_version        text not null default '2026-11-01',
  created_at         timestamptz not null
);

-- Publishable keys (pk_) and secret keys (sk_). Only the SHA-256 of a key is kept.
create table api_keys (
  id               text primary key,
  merchant_id      text not null references merchants(id),
  kind             text not null check (kind in ('publishable', 'secret')),
  mode             text not null check (mode in ('test', 'live')),
  name             text not null,
  key_hash         bytea not null unique,
  display          text not null,
  allowed_origins  text[] not null default '{}',
  created_at       timestamptz not null,
  last_used_at     timestamptz,
  -- Set when the key is rolled: it keeps working until then (grace of up to 7 days).
  expires_at       timestamptz,
  revoked_at       timestamptz,
  rolled_to        text references api_keys(id)
);
create index api_keys_merchant on api_keys (merchant_id, created_at);

create table dashboard_users (
  id                text primary key,
  merchant_id       text not null references merchants(id),
  email             text not null unique,
  password_hash     text not null,
  failed_logins     integer not null default 0,
  locked_until      timestamptz,
  created_at        timestamptz not null
);
