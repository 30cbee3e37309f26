-- Money in (docs/spec/money-in.md): wallet top-ups by mobile money, and the ledger's platform accounts.

-- Accounts of the platform itself, no merchant's: a provider's clearing account per mode and
-- currency (the float held at the provider: it goes negative as customers' money arrives there);
-- `name` says which provider. (The platform's fee revenue is kept per merchant, kind
-- platform_revenue, so a charge locks only its own merchant's rows.)
alter table ledger_accounts alter column merchant_id drop not null;
alter table ledger_accounts add column name text;
alter table ledger_accounts drop constraint ledger_accounts_kind_check;
alter table ledger_accounts add constraint ledger_accounts_kind_check
  check (kind in ('user_wallet', 'merchant_balance', 'external', 'provider_clearing', 'platform_revenue'));
alter table ledger_accounts add constraint ledger_platform_account
  check ((kind = 'provider_clearing') = (merchant_id is null and name is not null));
create unique index ledger_accounts_platform on ledger_accounts (mode, kind, name, currency) where merchant_id is null;

-- A top-up credits a wallet once: one ledger transfer per top-up reference, whatever mix of
-- callbacks, polls and crashes reports its success.
create unique index ledger_transfers_topup on ledger_transfers (reference) where kind = 'topup';

create table topups (
  id                       text primary key,
  -- The merchant whose API key started it (its customer's top-up, never its money).
  merchant_id              text not null references merchants(id),
  mode                     text not null check (mode in ('test', 'live')),
  user_id                  text not null references users(id),
  provider                 text not null,
  phone_number             text not null,
  amount_minor             bigint not null check (amount_minor > 0),
  currency                 text not null,
  -- Our X-Reference-Id, committed before the provider is called: asking again is harmless.
  reference                text not null unique,
  status                   text not null check (status in ('PENDING', 'SUCCEEDED', 'FAILED')),
  failure_reason           text,
  provider_transaction_id  text,
  transfer_id              text references ledger_transfers(id),
  -- When the provider took the request (202, or 409 for one it already had); null until then.
  submitted_at             timestamptz,
  -- When the poller next asks the provider (also a lease: a poller moves it forward first).
  next_poll_at             timestamptz not null,
  polls                    integer not null default 0,
  created_at               timestamptz not null,
  updated_at               timestamptz not null,
  completed_at             timestamptz
);
create index topups_due on topups (next_poll_at) where status = 'PENDING';
create index topups_user on topups (user_id, id desc);
