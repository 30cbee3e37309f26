-- Dashboard team (issue 22): several dashboard users per merchant, each with a role the server
-- checks on every dashboard API call; invitations by e-mail; an audit log of who did what.

-- The role of a dashboard user (modules/dashboard/dashboard.roles.ts). Everyone who had an
-- account before teams existed ran the whole merchant: they become owners.
alter table dashboard_users add column role text not null default 'owner'
  check (role in ('owner', 'developer', 'analyst', 'support'));
create index dashboard_users_merchant on dashboard_users (merchant_id, created_at);
-- Sign-in looks an e-mail up lower-cased; invitations check the same way that it is free.
create index dashboard_users_email_lower on dashboard_users (lower(email));

-- An invitation to join a merchant's team: a single-use link valid 7 days. The link holds a random
-- token; only its SHA-256 is kept. It ends used (accepted_at), revoked (revoked_at) or expired.
create table dashboard_invitations (
  id             text primary key,
  merchant_id    text not null references merchants(id),
  email          text not null,
  role           text not null check (role in ('owner', 'developer', 'analyst', 'support')),
  token_hash     bytea not null unique,
  -- No foreign key: an invitation outlives the member who sent it (they may be removed).
  invited_by     text not null,
  invited_by_email text not null,
  created_at     timestamptz not null,
  expires_at     timestamptz not null,
  accepted_at    timestamptz,
  accepted_user_id text,
  revoked_at     timestamptz
);
create index dashboard_invitations_merchant on dashboard_invitations (merchant_id, created_at desc);
create index dashboard_invitations_email on dashboard_invitations (merchant_id, lower(email)) where accepted_at is null and revoked_at is null;

-- Who did what from the dashboard. `seq` orders the entries exactly as they were written (ids
-- sort by millisecond only); the page reads newest first by it. The actor's e-mail is copied: an
-- entry outlives a removed member.
create table dashboard_audit_log (
  id           text primary key,
  seq          bigint generated always as identity,
  merchant_id  text not null references merchants(id),
  -- The mode the action was made in; null for what has none (team changes).
  mode         text check (mode in ('test', 'live')),
  actor_id     text,
  actor_email  text not null,
  action       text not null,
  target_id    text,
  details      jsonb not null default '{}',
  created_at   timestamptz not null
);
create index dashboard_audit_log_merchant on dashboard_audit_log (merchant_id, seq desc);
create index dashboard_audit_log_action on dashboard_audit_log (merchant_id, action, seq desc);
