-- Refunds of payments made directly with mobile money: the money goes back to the payer's number
-- through the provider (its refund operation, or a transfer), so each is a provider request,
-- polled like payouts, its reference committed before the provider is called. A refund of a
-- wallet payment stays in `refunds` (immediate); these have the same `re_…` ids.
create table mobile_money_refunds (
  id                       text primary key,
  merchant_id              text not null references merchants(id),
  mode                     text not null check (mode in ('test', 'live')),
  intent_id                text not null references intents(id),
  attempt_id               text not null references payment_attempts(id),
  provider                 text not null,
  phone_number             text not null,
  amount_minor             bigint not null check (amount_minor > 0),
  currency                 text not null,
  -- The part of the payment's fee that comes back to the merchant with it (0 for a late payment).
  fee_returned_minor       bigint not null default 0,
  -- The merchant's reason, or `late_payment` for a success the intent could not take.
  reason                   text,
  -- A late payment's return: never the merchant's money.
  late                     boolean not null default false,
  reference                text not null unique,
  status                   text not null check (status in ('PENDING', 'SUCCEEDED', 'FAILED')),
  failure_reason           text,
  provider_transaction_id  text,
  submitted_at             timestamptz,
  next_poll_at             timestamptz not null,
  polls                    integer not null default 0,
  created_at               timestamptz not null,
  updated_at               timestamptz not null,
  completed_at             timestamptz
);
create index mobile_money_refunds_intent on mobile_money_refunds (intent_id, created_at);
create index mobile_money_refunds_due on mobile_money_refunds (next_poll_at) where status = 'PENDING';
-- A late payment is returned once, whatever races.
create unique index mobile_money_refunds_late on mobile_money_refunds (attempt_id) where late;

-- While the provider decides, a refund's money waits in the merchant's refund_transit account
-- (as a payout's in payout_transit): out of the merchant's balance, not yet out of the ledger.
alter table ledger_accounts drop constraint ledger_accounts_kind_check;
alter table ledger_accounts add constraint ledger_accounts_kind_check
  check (kind in ('user_wallet', 'merchant_balance', 'merchant_pending', 'payout_transit', 'refund_transit', 'external', 'provider_clearing', 'platform_revenue'));
-- Each of a refund's moves once.
create unique index ledger_transfers_mobile_money_refund on ledger_transfers (kind, reference)
  where kind in ('refund_hold', 'refund_paid', 'refund_reversal', 'late_payment');

-- The statement: a failed refund's money coming back, and a late payment (returned to the payer,
-- never part of the balance: amount 0) so the merchant sees it.
alter table balance_transactions drop constraint balance_transactions_type_check;
alter table balance_transactions add constraint balance_transactions_type_check
  check (type in ('charge', 'refund', 'fee', 'payout', 'payout_reversal', 'refund_reversal', 'late_payment', 'adjustment'));
