-- The operator console (issue 34): the people who run the platform (not a merchant's team), their
-- sessions, the audit log of what they did, and the freeze of a merchant.

-- An operator. Sign-in needs the password and a TOTP code: an operator without TOTP can only
-- enrol (totp_enabled_at null). The TOTP secret is encrypted with the master key (AES-256-GCM);
-- totp_last_step refuses a code's replay, as for dashboard users.
create table operators (
  id                    text primary key,
  email                 text not null,
  password_hash         text not null,
  role                  text not null check (role in ('admin', 'compliance', 'finance', 'support')),
  totp_secret_encrypted bytea,
  totp_enabled_at       timestamptz,
  totp_last_step        bigint,
  -- No foreign key: the operator who invited may be removed later. Null: made by the CLI.
  invited_by            text,
  created_at            timestamptz not null
);
create unique index operators_email_lower on operators (lower(email));

-- A signed-in operator. The cookie holds a random token; only its SHA-256 is kept. `stage`
-- 'enrol': the password was right but the operator has no TOTP yet, so the session may only
-- enrol it; 'full' once a TOTP code was given.
create table operator_sessions (
  token_hash          bytea primary key,
  id                  text not null unique,
  operator_id         text not null references operators(id) on delete cascade,
  stage               text not null check (stage in ('enrol', 'full')),
  address             text,
  user_agent          text,
  created_at          timestamptz not null,
  last_seen_at        timestamptz not null,
  expires_at          timestamptz not null,
  absolute_expires_at timestamptz not null
);
create index operator_sessions_operator on operator_sessions (operator_id);
create index operator_sessions_expiry on operator_sessions (expires_at);

-- Every operator action: who, on what, the state before and after, and the reason given. `seq`
-- orders the entries as written; the actor's e-mail is copied (an entry outlives its operator).
create table operator_audit_log (
  id           text primary key,
  seq          bigint generated always as identity,
  actor_id     text,
  actor_email  text not null,
  action       text not null,
  target_type  text,
  target_id    text,
  before       jsonb,
  after        jsonb,
  reason       text,
  created_at   timestamptz not null
);
create index operator_audit_log_seq on operator_audit_log (seq desc);
create index operator_audit_log_target on operator_audit_log (target_id, seq desc);

-- A frozen merchant: its new intents, charges and payouts are refused (403 merchant_frozen).
-- The merchants module owns the columns; the operators module sets them through its service.
alter table merchants
  add column frozen_at     timestamptz,
  add column frozen_reason text;
