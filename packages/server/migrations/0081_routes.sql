-- Routes (issue 53, decision 0077): for each mode, country and payment method, the ordered list of
-- connectors an attempt (kind 'payment') or a payout to that method (kind 'payout') goes through.
-- Only overrides are stored: without a row the route is the default (the operator's own connector,
-- then aggregators, among connectors with an account), computed from the registry. Owned by the
-- routes module.
create table payment_routes (
  mode        text not null check (mode in ('test', 'live')),
  country     text not null,
  kind        text not null check (kind in ('payment', 'payout')),
  method      text not null,
  connectors  text[] not null check (cardinality(connectors) > 0),
  updated_by  text,
  updated_at  timestamptz not null,
  primary key (mode, country, kind, method)
);

-- The merchant's country when the attempt started: a request sent again after a restart carries
-- the same one to an aggregator (null: attempts from before routes).
alter table payment_attempts add column country text;

-- A late payment whose connector cannot send money back (no refund, no transfer): held for the
-- payer in refund_transit until an operator says it was returned by hand (charges module).
create table manual_returns (
  id              text primary key,
  merchant_id     text not null references merchants (id),
  mode            text not null check (mode in ('test', 'live')),
  intent_id       text not null,
  attempt_id      text not null unique references payment_attempts (id),
  connector       text not null,
  provider_account text not null,
  phone_number    text not null,
  amount_minor    bigint not null check (amount_minor > 0),
  currency        text not null,
  status          text not null check (status in ('TO_RETURN', 'RETURNED')),
  note            text,
  returned_by     text,
  created_at      timestamptz not null,
  returned_at     timestamptz
);
create index manual_returns_open on manual_returns (created_at) where status = 'TO_RETURN';
