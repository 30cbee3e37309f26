-- Session tokens now name their intent (ps_ + the intent id's 26 characters + 256 random bits):
-- a token is read by the intent's primary key and its SHA-256 compared with session_token_hash.
-- The unique index over the hashes goes: random keys, written at a random page on every insert
-- and on every update of an intent that is not HOT (a status change), which a large table pays
-- for in cache misses. 256 random bits need no uniqueness check.
alter table intents drop constraint intents_session_token_hash_key;
