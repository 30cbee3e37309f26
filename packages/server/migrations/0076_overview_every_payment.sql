-- The dashboard's Home counts every payment, whatever the method or connector: the wallet's
-- charges and the provider attempts (mobile money, and any connector that pays an intent through
-- a payment attempt), each at the time it was decided.

-- A payer is a wallet customer (their user id) or a provider's payer (their number in E.164):
-- the first payments table holds both, so it no longer points at users.
alter table charge_first_payments drop constraint if exists charge_first_payments_user_id_fkey;

-- The rollup and the open hour read the attempts decided in a window, every merchant at once
-- (as they read the charges through their primary key).
create index payment_attempts_completed on payment_attempts (completed_at) where completed_at is not null;

-- The hours rolled so far hold only the wallet's charges: roll the whole history again (the
-- worker catches up from the oldest payment; until then the overview reads those hours live).
delete from charge_stats_hourly;
delete from charge_first_payments;
update charge_rollup_state set rolled_until = null;
