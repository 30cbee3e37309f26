-- Verification that proves something (issue 52). A message that proves control of an address
-- (sign-up link, password reset, invitation, the "someone tried to sign up" notice) without a real
-- transport lands in the operator outbox, which only the operator console and the CLI read; the
-- merchant's test outbox keeps audience 'merchant' only.
alter table messages add column audience text not null default 'merchant' check (audience in ('merchant', 'operator'));
create index messages_operator on messages (id desc) where audience = 'operator' and provider = 'outbox';

-- A sign-up waiting for its e-mail to be verified: no merchant and no account exist until the
-- link is opened, so the sign-up answers alike for a new and an existing address and an address
-- nobody controls holds nothing. One per address: a new sign-up replaces the one before. Only the
-- password's hash and the link's SHA-256 are kept.
create table merchant_signup_requests (
  email            text primary key,
  business_name    text not null,
  country          text not null,
  language         text not null,
  password_hash    text not null,
  token_hash       bytea not null unique,
  token_expires_at timestamptz not null,
  link_via         text not null,
  created_at       timestamptz not null
);
create index merchant_signup_requests_expiry on merchant_signup_requests (token_expires_at);

-- How the link was delivered ('smtp' or 'outbox'), and so how the address was verified (null:
-- verified before Caisse recorded it, or not verified yet).
alter table merchant_signups add column link_via text;
alter table merchant_signups add column verified_via text;
