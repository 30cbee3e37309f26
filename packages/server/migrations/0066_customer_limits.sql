-- Customer limits (issue 34, decision 0042): e-money caps per mode, tier and currency, set by an
-- operator. Tier 0 is a customer with a verified phone number (every customer today). Null: no
-- cap. The users module's table.
create table customer_limits (
  mode                   text not null check (mode in ('test', 'live')),
  tier                   smallint not null check (tier >= 0),
  currency               text not null,
  max_balance_minor      bigint check (max_balance_minor >= 0),
  max_topup_day_minor    bigint check (max_topup_day_minor >= 0),
  max_topup_month_minor  bigint check (max_topup_month_minor >= 0),
  max_payment_minor      bigint check (max_payment_minor >= 0),
  updated_by             text not null,
  updated_at             timestamptz not null,
  primary key (mode, tier, currency)
);
