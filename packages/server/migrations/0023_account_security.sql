-- Dashboard account security (issue 22): two-factor sign-in with TOTP, recovery codes, password
-- reset by e-mail, and sessions a user can list and revoke.

-- TOTP (RFC 6238). The secret must be read back to check codes: encrypted with the master key
-- (AES-256-GCM), never in plain text. It is kept from enrolment on; totp_enabled_at is set once
-- a first code proves the authenticator has it. totp_last_step: the last 30-second step a code
-- was accepted for, so each code signs in once (a replay, or an older code, is refused).
alter table dashboard_users
  add column totp_secret_encrypted bytea,
  add column totp_enabled_at timestamptz,
  add column totp_last_step bigint;

-- Ten single-use recovery codes per user, shown once: SHA-256 only (random, high entropy).
create table dashboard_recovery_codes (
  dashboard_user_id text not null references dashboard_users(id) on delete cascade,
  code_hash         bytea not null,
  created_at        timestamptz not null,
  used_at           timestamptz,
  primary key (dashboard_user_id, code_hash)
);

-- A password reset link (/dashboard/reset-password/<token>): SHA-256 of the token, 1 hour,
-- used once (used_at set in the transaction that sets the password).
create table dashboard_password_resets (
  token_hash        bytea primary key,
  dashboard_user_id text not null references dashboard_users(id) on delete cascade,
  created_at        timestamptz not null,
  expires_at        timestamptz not null,
  used_at           timestamptz
);
create index dashboard_password_resets_user on dashboard_password_resets (dashboard_user_id);
create index dashboard_password_resets_expiry on dashboard_password_resets (expires_at);

-- The second step of a sign-in with TOTP: the password was right, no session yet. SHA-256 of the
-- challenge token, 5 minutes, deleted when used.
create table dashboard_login_challenges (
  token_hash        bytea primary key,
  dashboard_user_id text not null references dashboard_users(id) on delete cascade,
  created_at        timestamptz not null,
  expires_at        timestamptz not null
);
create index dashboard_login_challenges_expiry on dashboard_login_challenges (expires_at);

-- Sessions a user can see and revoke: a public id (the token's hash stays internal), the client
-- address and (truncated) user agent of the sign-in.
alter table dashboard_sessions
  add column id text,
  add column address text,
  add column user_agent text;
update dashboard_sessions set id = 'dss_' || substr(encode(token_hash, 'hex'), 1, 26) where id is null;
alter table dashboard_sessions alter column id set not null;
create unique index dashboard_sessions_id on dashboard_sessions (id);
