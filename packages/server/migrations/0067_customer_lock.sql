-- An operator locks a customer (issue 34, the console's support page): a locked customer cannot
-- sign in (403 customer_locked) and their access tokens stop working; the money stays where it is.
alter table users add column locked_at timestamptz;
alter table users add column locked_reason text;
