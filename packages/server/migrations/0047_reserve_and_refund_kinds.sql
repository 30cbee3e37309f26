-- The rolling reserve (0040) and refunds to mobile money (0044) each widened these checks from
-- the list they knew; together an account or a statement row may be of any of their kinds.
alter table ledger_accounts drop constraint ledger_accounts_kind_check;
alter table ledger_accounts add constraint ledger_accounts_kind_check
  check (kind in ('user_wallet', 'merchant_balance', 'merchant_pending', 'merchant_reserve', 'payout_transit', 'refund_transit', 'external', 'provider_clearing', 'platform_revenue'));

alter table balance_transactions drop constraint balance_transactions_type_check;
alter table balance_transactions add constraint balance_transactions_type_check
  check (type in ('charge', 'refund', 'fee', 'payout', 'payout_reversal', 'refund_reversal', 'late_payment', 'adjustment', 'reserve', 'reserve_release'));
