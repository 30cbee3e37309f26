-- Money out (docs/spec/money-out.md): settlement (pending, then available), the merchant's balance
-- statement, and payouts to mobile money.

-- The settlement delay in days (null: the configured default); it fixes when a charge's net
-- becomes available, at charge time.
alter table merchants add column settlement_delay_days integer check (settlement_delay_days between 0 and 365);

-- A charge credits the merchant's pending account; the settlement worker moves what matured into
-- merchant_balance (what is available). A payout's money waits in payout_transit until the
-- provider says PAID (then it leaves, into the provider's clearing account) or FAILED (back).
alter table ledger_accounts drop constraint ledger_accounts_kind_check;
alter table ledger_accounts add constraint ledger_accounts_kind_check
  check (kind in ('user_wallet', 'merchant_balance', 'merchant_pending', 'payout_transit', 'external', 'provider_clearing', 'platform_revenue'));

-- The balance statement: every movement of a merchant's money (pending + available), with the
-- total after it. Settlement moves are not rows (they change when money can be paid out, not how
-- much there is): each row says whether its amount is pending or available and from when.
create table balance_transactions (
  id                      text primary key,
  -- The statement's order, also of the rows of one transaction (charge before its fee).
  seq                     bigint generated always as identity unique,
  merchant_id             text not null references merchants(id),
  mode                    text not null check (mode in ('test', 'live')),
  currency                text not null,
  type                    text not null check (type in ('charge', 'refund', 'fee', 'payout', 'payout_reversal', 'adjustment')),
  -- Signed minor units: positive adds to the merchant's money.
  amount_minor            bigint not null,
  -- pending + available in this currency right after this row.
  balance_after_minor     bigint not null,
  -- What caused it: pi_… (charge, its fee), re_… (refund, fee returned), po_… (payout, reversal).
  source_id               text,
  transfer_id             text references ledger_transfers(id),
  description             text not null,
  status                  text not null check (status in ('pending', 'available')),
  available_on            timestamptz not null,
  -- The settlement transfer that made it available (pending rows only, once settled).
  settlement_transfer_id  text references ledger_transfers(id),
  created_at              timestamptz not null
);
create index balance_transactions_merchant on balance_transactions (merchant_id, mode, seq desc);
create index balance_transactions_due on balance_transactions (available_on) where status = 'pending';
create index balance_transactions_source on balance_transactions (source_id);

-- The running total of each statement: its row lock orders the statement's rows.
create table balance_totals (
  merchant_id  text not null references merchants(id),
  mode         text not null check (mode in ('test', 'live')),
  currency     text not null,
  total_minor  bigint not null,
  primary key (merchant_id, mode, currency)
);

-- What merchants held before statements existed: one opening row each, available.
insert into balance_totals (merchant_id, mode, currency, total_minor)
  select merchant_id, mode, currency, balance from ledger_accounts where kind = 'merchant_balance';
insert into balance_transactions (id, merchant_id, mode, currency, type, amount_minor, balance_after_minor, description, status, available_on, created_at)
  select 'btx_' || substr(id, 5), merchant_id, mode, currency, 'adjustment', balance, balance, 'Opening balance', 'available', now(), now()
  from ledger_accounts where kind = 'merchant_balance' and balance <> 0;

-- A payout's disbursement: one ledger transfer per payout and kind, whatever mix of callbacks,
-- polls and crashes reports its outcome.
create unique index ledger_transfers_payout on ledger_transfers (kind, reference) where kind in ('payout', 'payout_paid', 'payout_reversal');

create table payouts (
  id                       text primary key,
  merchant_id              text not null references merchants(id),
  mode                     text not null check (mode in ('test', 'live')),
  amount_minor             bigint not null check (amount_minor > 0),
  currency                 text not null,
  provider                 text not null,
  phone_number             text not null,
  description              text,
  -- manual (POST /payouts) or the schedule that made it.
  method                   text not null check (method in ('manual', 'scheduled')),
  -- Our X-Reference-Id, committed before the provider is called: asking again is harmless.
  reference                text not null unique,
  status                   text not null check (status in ('PENDING', 'PAID', 'FAILED')),
  failure_reason           text,
  provider_transaction_id  text,
  submitted_at             timestamptz,
  next_poll_at             timestamptz not null,
  polls                    integer not null default 0,
  created_at               timestamptz not null,
  updated_at               timestamptz not null,
  completed_at             timestamptz
);
create index payouts_merchant on payouts (merchant_id, mode, id desc);
create index payouts_due on payouts (next_poll_at) where status = 'PENDING';

-- A merchant's automatic payouts, per mode.
create table payout_schedules (
  merchant_id   text not null references merchants(id),
  mode          text not null check (mode in ('test', 'live')),
  interval      text not null check (interval in ('manual', 'daily', 'weekly')),
  -- weekly: 0 = Sunday … 6 = Saturday.
  weekly_anchor integer check (weekly_anchor between 0 and 6),
  -- Where automatic payouts go (null: none set, only with interval manual).
  provider      text,
  phone_number  text,
  -- The least amount worth paying out, per currency in minor units: {"XAF": 1000}.
  minimum       jsonb not null default '{}',
  next_run_at   timestamptz,
  updated_at    timestamptz not null,
  primary key (merchant_id, mode)
);
create index payout_schedules_due on payout_schedules (next_run_at) where next_run_at is not null;
