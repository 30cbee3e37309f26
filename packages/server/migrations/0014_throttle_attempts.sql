-- One table for every attempt limit keyed by who is tried, not by account: sign-ins (end users and
-- dashboard users), code checks (phone verification, password reset) and code sends. A row per
-- attempt not yet forgotten, by the SHA-256 of its subject ("login:<mode>:<phone>",
-- "dashboard:<e-mail>", "verify:<mode>:<phone>", …), known account or not, so no answer and no row
-- says which accounts exist, and no phone number or e-mail is stored here. The retention worker
-- deletes rows past the OTP period.
create table throttle_attempts (
  id           bigint generated always as identity primary key,
  subject_hash bytea not null,
  attempted_at timestamptz not null
);
create index throttle_attempts_subject on throttle_attempts (subject_hash, attempted_at desc);
create index throttle_attempts_at on throttle_attempts (attempted_at);

-- The two tables it replaces hold only attempts of the last minutes: nothing to carry over that a
-- person would miss (a lockout in progress lifts).
drop table login_attempts;
drop table dashboard_login_attempts;
