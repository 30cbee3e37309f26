-- The merchant dashboard: sign-in sessions, failed sign-ins (lockout), and the API key the hosted
-- checkout page runs with.

-- A signed-in dashboard user. The cookie holds a random session token; only its SHA-256 is kept.
-- The CSRF token is not stored: it is an HMAC of the session token under the master key.
create table dashboard_sessions (
  token_hash         bytea primary key,
  dashboard_user_id  text not null references dashboard_users(id) on delete cascade,
  merchant_id        text not null references merchants(id),
  created_at         timestamptz not null,
  last_seen_at       timestamptz not null,
  -- Sliding (idle) expiry, pushed forward as the session is used, never past absolute_expires_at.
  expires_at         timestamptz not null,
  absolute_expires_at timestamptz not null
);
create index dashboard_sessions_user on dashboard_sessions (dashboard_user_id);
create index dashboard_sessions_expiry on dashboard_sessions (expires_at);

-- One row per sign-in attempt not yet forgotten, by the SHA-256 of the lower-cased e-mail (known or
-- not, so the lockout says nothing about which accounts exist). A success deletes the e-mail's rows.
create table dashboard_login_attempts (
  id           bigint generated always as identity primary key,
  email_hash   bytea not null,
  attempted_at timestamptz not null
);
create index dashboard_login_attempts_email on dashboard_login_attempts (email_hash, attempted_at desc);

-- The publishable key the hosted checkout page (/checkout/{sessionToken}) embeds, one per merchant
-- and mode. A publishable key is meant for browsers, but keys are stored as hashes, so the page's
-- own key is also kept here encrypted with the master key to be readable. It is an ordinary row of
-- api_keys ("Hosted checkout"): revoking it there makes the server issue a fresh one.
create table dashboard_checkout_keys (
  merchant_id    text not null references merchants(id),
  mode           text not null check (mode in ('test', 'live')),
  api_key_id     text not null references api_keys(id),
  key_encrypted  bytea not null,
  created_at     timestamptz not null,
  primary key (merchant_id, mode)
);
