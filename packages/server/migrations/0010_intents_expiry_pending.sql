-- The expiry sweeper looks only at PENDING intents: index those alone. A paid, canceled or expired
-- intent then has no entry (the index stays the size of the open intents, not of the whole
-- history: 10 million intents leave it small), and its move out of PENDING adds none.
drop index intents_expiry;
create index intents_expiry on intents (expires_at) where status = 'PENDING';
