-- Security hardening (issue 20).

-- The customer who started paying an intent: the first one sent a code bound to it (initOtp with
-- intentionId). Only that customer's declined charges count against the intent; any other
-- customer's decline is answered 402 and leaves the intent as it was.
alter table intents add column started_by text references users(id);
