-- Queued provider callbacks (decision 0093): a callback is recorded and answered at once, and
-- the provider's status is read behind it. callback_at says that a request has news to read:
-- when it is due (a claim moves it forward, as a lease), null once read. A decided request takes
-- news too: the provider's status may be a late payment, which its owner returns.
alter table provider_requests add column callback_at timestamptz;
create index provider_requests_news on provider_requests (callback_at) where callback_at is not null;
