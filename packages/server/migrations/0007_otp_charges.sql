-- Strong customer authentication (OTP codes, the authorization tokens they buy), charges and
-- refunds (docs/spec/payment-intents.md, docs/spec/otp-and-charge.md).

-- Every OTP code sent by initOtp. Only its HMAC (master key, salted with the row id) is kept. The
-- user's live code is their newest row: a new code voids every older one. Rows also serve as the
-- send history for the limits (one per 30 s, 5 per 15 min per user); older rows are deleted.
create table otp_codes (
  id           text primary key,
  merchant_id  text not null references merchants(id),
  mode         text not null check (mode in ('test', 'live')),
  user_id      text not null references users(id),
  -- Dynamic linking: the intent the code was sent for (its amount and merchant were in the text).
  intent_id    text references intents(id),
  channel      text not null check (channel in ('sms', 'email')),
  code_hash    bytea not null,
  attempts     integer not null default 0 check (attempts >= 0),
  expires_at   timestamptz not null,
  created_at   timestamptz not null,
  -- Set when the code was exchanged for an authorization token (it cannot be used twice).
  consumed_at  timestamptz
);
create index otp_codes_user on otp_codes (user_id, created_at desc);

-- Authorization tokens from verifyOtp: opaque, single use, 10 minutes, bound to a user and, when
-- the code named one, to an intent. Only the SHA-256 of the token is kept.
create table otp_authorizations (
  token_hash   bytea primary key,
  merchant_id  text not null references merchants(id),
  mode         text not null check (mode in ('test', 'live')),
  user_id      text not null references users(id),
  intent_id    text references intents(id),
  otp_id       text not null references otp_codes(id) on delete cascade,
  expires_at   timestamptz not null,
  created_at   timestamptz not null,
  used_at      timestamptz
);
create index otp_authorizations_user on otp_authorizations (user_id, expires_at);

-- Every charge attempt: who paid (or tried to), with what result. A succeeded charge points at its
-- ledger transfer; at most one per intent (the database backs the intent's row lock).
create table charges (
  id               text primary key,
  merchant_id      text not null references merchants(id),
  mode             text not null check (mode in ('test', 'live')),
  intent_id        text not null references intents(id),
  user_id          text not null references users(id),
  status           text not null check (status in ('succeeded', 'failed')),
  amount_minor     bigint not null check (amount_minor > 0),
  currency         text not null,
  failure_code     text,
  failure_message  text,
  transfer_id      text references ledger_transfers(id),
  created_at       timestamptz not null,
  constraint charges_succeeded_has_transfer check ((status = 'succeeded') = (transfer_id is not null))
);
create index charges_intent on charges (intent_id, id);
create unique index charges_one_success on charges (intent_id) where status = 'succeeded';

-- Refunds of a succeeded intent, each with its reversing ledger transfer (merchant balance → the
-- paying user's wallet). Their sum is the intent's amount_refunded_minor, never above its amount.
create table refunds (
  id            text primary key,
  merchant_id   text not null references merchants(id),
  mode          text not null check (mode in ('test', 'live')),
  intent_id     text not null references intents(id),
  charge_id     text not null references charges(id),
  amount_minor  bigint not null check (amount_minor > 0),
  currency      text not null,
  reason        text,
  transfer_id   text not null references ledger_transfers(id),
  created_at    timestamptz not null
);
create index refunds_intent on refunds (intent_id, id);
