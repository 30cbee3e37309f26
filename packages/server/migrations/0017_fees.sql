-- Fees (docs/spec/money-out.md): a schedule per merchant (null: the configured default), applied at charge
-- time in the charge's transaction; the intent, the charge and each refund keep their part.
alter table merchants add column fee_bps integer check (fee_bps between 0 and 10000);
-- The fixed part per currency, in minor units: {"XAF": 0, "EUR": 25}. Null: the configured default.
alter table merchants add column fee_fixed jsonb;
alter table intents add column fee_minor bigint check (fee_minor >= 0 and fee_minor <= amount_minor);
alter table charges add column fee_minor bigint not null default 0;
alter table refunds add column fee_returned_minor bigint not null default 0;
