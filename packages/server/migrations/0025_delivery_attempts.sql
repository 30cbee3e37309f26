-- The dashboard's Events page (issue 22): every attempt shows the request it sent. The headers
-- (signatures included: they prove nothing without the secret) are kept as a JSON object in
-- text; the body is the event's own payload, already stored once in `events`.
alter table webhook_delivery_attempts add column request_headers text;

-- The page's "failed deliveries" filter: events with a delivery whose last attempt failed
-- (retrying or given up; a success clears `last_error`), newest first, for one merchant and
-- mode. A partial index: it holds only the failing deliveries, which are few.
create index webhook_deliveries_failing on webhook_deliveries (merchant_id, mode, event_id desc) where last_error is not null;

-- The type filter (the page's and GET /events?type=): without it a rare type walks the
-- merchant's whole list.
create index events_merchant_type on events (merchant_id, mode, type, id desc);
