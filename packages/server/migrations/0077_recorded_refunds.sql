-- Refunds made outside Caisse and recorded by the merchant (cash, a bank transfer, mobile money
-- sent by hand): for a payment its provider cannot refund. They move no money in Caisse (the
-- merchant paid the payer back from elsewhere), so they have no ledger transfer and no fee back;
-- they count in the intent's amount_refunded and have the same `re_…` ids as other refunds.
create table recorded_refunds (
  id           text primary key,
  merchant_id  text not null references merchants(id),
  mode         text not null check (mode in ('test', 'live')),
  intent_id    text not null references intents(id),
  amount_minor bigint not null check (amount_minor > 0),
  currency     text not null,
  method       text not null check (method in ('cash', 'bank_transfer', 'mobile_money', 'other')),
  reference    text,
  reason       text,
  created_at   timestamptz not null
);
create index recorded_refunds_intent on recorded_refunds (intent_id, created_at);
