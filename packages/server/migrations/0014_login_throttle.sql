-- One table for every sign-in lockout (end users on POST /auth/web, dashboard users): a row per
-- attempt not yet forgotten, by the SHA-256 of its subject ("user:<mode>:<merchant>:<phone>",
-- "dashboard:<e-mail>"), known or not, so the lockout says nothing about which accounts exist.
-- A success deletes the subject's rows; the retention worker deletes rows past the OTP period.
create table login_failures (
  id           bigint generated always as identity primary key,
  subject_hash bytea not null,
  attempted_at timestamptz not null
);
create index login_failures_subject on login_failures (subject_hash, attempted_at desc);
create index login_failures_at on login_failures (attempted_at);

-- The two tables it replaces hold only attempts of the last minutes: nothing to carry over that a
-- person would miss (a lockout in progress lifts).
drop table login_attempts;
drop table dashboard_login_attempts;
