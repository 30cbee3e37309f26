-- Paying an intent directly with mobile money (docs/spec/mobile-money-payments.md): one row per attempt, the provider
-- request it makes (its reference committed before the provider is called), polled like top-ups.
create table payment_attempts (
  id                       text primary key,
  merchant_id              text not null references merchants(id),
  mode                     text not null check (mode in ('test', 'live')),
  intent_id                text not null references intents(id),
  provider                 text not null,
  phone_number             text not null,
  amount_minor             bigint not null check (amount_minor > 0),
  currency                 text not null,
  -- Our reference, committed before the provider is called: asking again is harmless.
  reference                text not null unique,
  status                   text not null check (status in ('PENDING', 'SUCCEEDED', 'FAILED')),
  failure_code             text,
  failure_reason           text,
  provider_transaction_id  text,
  fee_minor                bigint,
  transfer_id              text references ledger_transfers(id),
  -- The payer's language when the attempt started (the approval message).
  language                 text not null,
  -- A redirect provider's page for the payer; null for a phone prompt.
  redirect_url             text,
  -- When the payer's approval window ends (shown in nextAction).
  approval_expires_at      timestamptz not null,
  -- A success the intent could not take any more: returned to the payer (late_payment).
  late                     boolean not null default false,
  submitted_at             timestamptz,
  next_poll_at             timestamptz not null,
  polls                    integer not null default 0,
  created_at               timestamptz not null,
  updated_at               timestamptz not null,
  completed_at             timestamptz
);
create index payment_attempts_intent on payment_attempts (intent_id, created_at);
create index payment_attempts_due on payment_attempts (next_poll_at) where status = 'PENDING';
-- One attempt in flight per intent, whatever races.
create unique index payment_attempts_in_flight on payment_attempts (intent_id) where status = 'PENDING';
-- An attempt's money moves once.
create unique index ledger_transfers_attempt on ledger_transfers (reference) where kind = 'mobile_money_charge';
