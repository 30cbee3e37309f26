-- The dashboard's Home (issue 22): volume, successful payments, success rate and new customers
-- per hour, kept by the charges module's rollup worker over closed hours, so the overview of a
-- merchant with 10 million payments a month reads 720 rows instead of scanning them. The open
-- hour (and any hour the worker has not reached yet) is read live from `charges` through its
-- primary key: charge ids sort by creation time (platform/ids.ts).

-- One row per merchant, mode, hour (UTC, the start) and currency that had charge attempts.
-- `new_customers`: customers whose first successful payment to this merchant fell in the hour,
-- counted in the currency of that payment.
create table charge_stats_hourly (
  merchant_id    text not null references merchants(id),
  mode           text not null check (mode in ('test', 'live')),
  hour           timestamptz not null,
  currency       text not null,
  succeeded      bigint not null,
  failed         bigint not null,
  volume_minor   bigint not null,
  new_customers  bigint not null,
  primary key (merchant_id, mode, hour, currency)
);

-- Each customer's first successful payment to a merchant, for every hour rolled so far: a
-- customer already here is not new in a later hour.
create table charge_first_payments (
  merchant_id    text not null references merchants(id),
  mode           text not null check (mode in ('test', 'live')),
  user_id        text not null references users(id),
  first_paid_at  timestamptz not null,
  currency       text not null,
  primary key (merchant_id, mode, user_id)
);

-- Where the rollup is: every hour before `rolled_until` is in charge_stats_hourly (null: none yet).
-- One row, locked by the worker for each hour it rolls (several processes take turns).
create table charge_rollup_state (
  id            boolean primary key default true check (id),
  rolled_until  timestamptz
);
insert into charge_rollup_state (id, rolled_until) values (true, null);

-- The header search by customer phone (last digits): the payments a customer made to the
-- merchant, newest first. Also serves the Customers page's per-customer figures and list.
create index charges_payer on charges (merchant_id, mode, user_id, id desc);

-- Phone numbers by their last digits: `reverse(phone_number) like '4321%'` reads this index.
create index users_phone_suffix on users (mode, reverse(phone_number) text_pattern_ops) where merged_into is null;

-- The search by metadata value reads intents_metadata_values (GIN) for the few matches, then sorts
-- them. PostgreSQL guesses 0.5 % of the table for `@>` and would start parallel workers for it
-- (50 ms on 10 million intents, for an index read of under 1 ms): the function's recheck keeps
-- the scan in one process.
alter function intent_metadata_values(json) parallel restricted;

-- The search by amount tries the text in every currency it is valid in ("2500" is XAF, XOF, EUR
-- and USD): without the currency in the index, the XOF query walked every XAF intent of that
-- amount (200 000 on the bench's 10 million, 0.7 s) to find none. Same columns plus currency.
drop index intents_amount;
create index intents_amount on intents (merchant_id, mode, amount_minor, currency, id desc);
