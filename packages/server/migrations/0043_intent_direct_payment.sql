-- Set with an intent's first direct mobile-money attempt: its reads then show the attempts as a
-- list (one query), and reads of intents paid through the wallet alone need no query at all.
alter table intents add column direct_payment boolean not null default false;
update intents set direct_payment = true where id in (select intent_id from payment_attempts);
