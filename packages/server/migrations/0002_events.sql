-- The transactional outbox: every state change writes its event in the same transaction.
-- `payload` is the event's JSON exactly as it will be delivered and signed (raw bytes, never
-- re-serialised).
create table events (
  id           text primary key,
  merchant_id  text not null references merchants(id),
  mode         text not null check (mode in ('test', 'live')),
  type         text not null,
  intent_id    text,
  api_version  text not null,
  payload      text not null,
  created_at   timestamptz not null
);
create index events_merchant on events (merchant_id, mode, id desc);
create index events_intent on events (intent_id, id);
