-- The merchant's country (docs/spec/providers.md): it selects the mobile-money providers and the currency
-- its checkout offers (XAF in CM, XOF in SN and CI). Existing merchants are in Cameroon, where
-- Caisse started.
alter table merchants add column country text not null default 'CM' check (country in ('CM', 'SN', 'CI'));

-- Where the hosted checkout sends the payer after the outcome, and where redirect providers come
-- back to (docs/spec/mobile-money-payments.md, `returnUrl` on intent creation). Null: none given.
alter table intents add column return_url text;
