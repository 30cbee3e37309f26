-- The dashboard's endpoint page shows each webhook endpoint's success rate over the last 24
-- hours (issue 22): one count over the deliveries last attempted in that window, which this
-- index reads alone instead of every delivery the endpoint ever had.
create index webhook_deliveries_endpoint_attempted on webhook_deliveries (endpoint_id, last_attempt_at) where last_attempt_at is not null;
