-- The payer-facing short name (issue 55): what providers that take a per-request name show the
-- payer (MTN's prompt, Orange's page). `short_name` is the merchant's choice (null: the default),
-- `short_name_default` is derived from the business profile's trade name when it is saved.
alter table merchants add column short_name text;
alter table merchants add column short_name_default text;

-- The name an attempt sends, fixed when it starts: a retry after a restart sends the same one.
alter table payment_attempts add column payer_name text;
