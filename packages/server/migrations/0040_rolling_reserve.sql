-- A rolling reserve per merchant (set by the operator, off by default): a share of each charge's
-- net is held in the merchant's reserve account for a number of days, then released to its
-- available balance, so that refunds after a payout find money to come out of.
alter table merchants add column reserve_bps integer check (reserve_bps between 1 and 10000);
alter table merchants add column reserve_days integer check (reserve_days between 1 and 365);
alter table merchants add constraint merchants_reserve_both check ((reserve_bps is null) = (reserve_days is null));

alter table ledger_accounts drop constraint ledger_accounts_kind_check;
alter table ledger_accounts add constraint ledger_accounts_kind_check
  check (kind in ('user_wallet', 'merchant_balance', 'merchant_pending', 'merchant_reserve', 'payout_transit', 'external', 'provider_clearing', 'platform_revenue'));

-- The statement counts available + pending: money going into the reserve is a `reserve` row,
-- money coming back from it (on its date, or drawn by a refund) a `reserve_release` row.
alter table balance_transactions drop constraint balance_transactions_type_check;
alter table balance_transactions add constraint balance_transactions_type_check
  check (type in ('charge', 'refund', 'fee', 'payout', 'payout_reversal', 'adjustment', 'reserve', 'reserve_release'));

-- One hold per charge: what is still held (refunds may draw on it) and when it is released. The
-- settlement worker releases it once: `released_at` is set in the release's transaction, under
-- the hold's row lock.
create table reserve_holds (
  id               text primary key,
  merchant_id      text not null references merchants(id),
  mode             text not null check (mode in ('test', 'live')),
  currency         text not null,
  -- The payment it was held from (pi_…).
  source_id        text not null,
  amount_minor     bigint not null check (amount_minor > 0),
  remaining_minor  bigint not null check (remaining_minor >= 0 and remaining_minor <= amount_minor),
  release_on       timestamptz not null,
  released_at      timestamptz,
  release_transfer_id text references ledger_transfers(id),
  created_at       timestamptz not null
);
create index reserve_holds_due on reserve_holds (release_on) where released_at is null;
create index reserve_holds_merchant on reserve_holds (merchant_id, mode, currency, release_on) where released_at is null;
