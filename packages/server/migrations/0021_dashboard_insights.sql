-- The dashboard's endpoint page shows each webhook endpoint's success rate over the last 24
-- hours (issue 22): one count over the deliveries last attempted in that window, which this
-- index reads alone instead of every delivery the endpoint ever had.
create index webhook_deliveries_endpoint_attempted on webhook_deliveries (endpoint_id, last_attempt_at) where last_attempt_at is not null;

-- The dashboard's search box (issue 22) finds a payment by any metadata value (an order
-- reference) and by amount. Metadata is `json` (kept as sent), so the values are indexed through
-- an immutable function: a GIN index over the array of its values, which `@> array[$1]` uses.
create function intent_metadata_values(m json) returns text[]
  language sql immutable strict parallel safe
  as $$ select coalesce(array_agg(value), '{}') from json_each_text(m) $$;
create index intents_metadata_values on intents using gin (intent_metadata_values(metadata));
create index intents_amount on intents (merchant_id, mode, amount_minor, id desc);
