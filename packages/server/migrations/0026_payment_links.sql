-- Payment links (issue 22): a shareable URL for an amount and description; each visit creates an
-- intent. Owned by modules/paymentlinks.

create table payment_links (
  id            text primary key,
  merchant_id   text not null references merchants(id),
  mode          text not null check (mode in ('test', 'live')),
  amount_minor  bigint not null check (amount_minor > 0),
  currency      text not null,
  description   text not null,
  metadata      json not null,
  active        boolean not null,
  created_at    timestamptz not null,
  updated_at    timestamptz not null
);
-- A merchant's links in one mode, newest first (ids sort by creation time).
create index payment_links_scope on payment_links (merchant_id, mode, id);

-- Which link created which intent: a link's payments, newest first, by the primary key alone.
-- No foreign key to intents: that table belongs to another module, and the intent id is written
-- in the same transaction as the intent itself.
create table payment_link_intents (
  link_id    text not null references payment_links(id),
  intent_id  text not null,
  primary key (link_id, intent_id)
);
