-- Merchant sign-up (issue 34): a business signs up on the dashboard, verifies its e-mail, and
-- submits a business profile with one identity document; an operator approves it for live mode.

-- When an operator approved the merchant for live mode (null: live keys and live calls refused,
-- 403 merchant_not_approved). Merchants made before, and by the CLI, are approved at creation.
alter table merchants add column approved_at timestamptz;
update merchants set approved_at = created_at;

-- The e-mail verification of a signed-up merchant (the onboarding module's). Only the SHA-256 of
-- the link's token is kept; verified_at set once.
create table merchant_signups (
  merchant_id      text primary key references merchants(id) on delete cascade,
  email            text not null,
  token_hash       bytea not null unique,
  token_expires_at timestamptz not null,
  verified_at      timestamptz,
  created_at       timestamptz not null
);

-- The business profile, reviewed by an operator: not_submitted -> submitted -> approved |
-- rejected (with a reason; a rejected profile may be changed and submitted again).
create table merchant_profiles (
  merchant_id      text primary key references merchants(id) on delete cascade,
  state            text not null check (state in ('not_submitted', 'submitted', 'approved', 'rejected')),
  details          jsonb not null,
  rejection_reason text,
  submitted_at     timestamptz,
  reviewed_at      timestamptz,
  reviewed_by      text,
  updated_at       timestamptz not null
);
create index merchant_profiles_state on merchant_profiles (state, submitted_at);

-- The owner's identity document: one per merchant, its bytes AES-256-GCM under the master key,
-- never in the profile's JSON and never served but to a signed-in operator.
create table merchant_documents (
  merchant_id     text primary key references merchants(id) on delete cascade,
  content_type    text not null check (content_type in ('application/pdf', 'image/jpeg', 'image/png')),
  size            integer not null,
  bytes_encrypted bytea not null,
  uploaded_at     timestamptz not null
);
