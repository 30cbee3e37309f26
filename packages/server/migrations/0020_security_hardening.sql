-- Security hardening (issue 20).

-- The customer who started paying an intent: the first one sent a code bound to it (initOtp with
-- intentionId). Only that customer's declined charges count against the intent; any other
-- customer's decline is answered 402 and leaves the intent as it was.
alter table intents add column started_by text references users(id);

-- Wrong OTP codes per customer and UTC day (issue 20): 5 codes of 5 tries per 15 minutes were
-- some 2,400 guesses a day. From the 20th wrong code of a day, no code is sent or checked for the
-- customer until the next day. Rows of past days go with retention.
create table otp_daily_failures (
  user_id  text not null references users(id),
  day      date not null,
  failures integer not null check (failures > 0),
  primary key (user_id, day)
);
create index otp_daily_failures_day on otp_daily_failures (day);
