-- The customer's own account page ("My Caisse account", /account): signed in there with the
-- password and a code by SMS, the customer sees their whole wallet history across merchants,
-- which no merchant's key shows.

-- The page's sign-in code belongs to no merchant: its SMS has none either.
alter table messages alter column merchant_id drop not null;

-- One live sign-in code per customer, its keyed hash only (as password resets).
create table account_codes (
  user_id     text primary key references users(id),
  code_hash   bytea not null,
  expires_at  timestamptz not null,
  created_at  timestamptz not null
);

-- The page's sessions: the cookie's token as SHA-256 only; a password reset or change (a new
-- token version) ends them, as it voids access tokens.
create table account_sessions (
  token_hash     bytea primary key,
  user_id        text not null references users(id),
  mode           text not null check (mode in ('test', 'live')),
  token_version  integer not null,
  created_at     timestamptz not null,
  expires_at     timestamptz not null
);
create index account_sessions_user on account_sessions (user_id);
