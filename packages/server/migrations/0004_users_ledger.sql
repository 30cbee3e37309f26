-- End users, their access-token signing keys, messages sent to them, and the double-entry ledger
-- that holds their wallets.

-- An end user belongs to one merchant and one mode: test and live users never mix, and the same
-- phone number may be registered once per merchant and mode.
create table users (
  id                 text primary key,
  merchant_id        text not null references merchants(id),
  mode               text not null check (mode in ('test', 'live')),
  phone_number       text not null,
  email              text,
  password_hash      text not null,
  phone_verified_at  timestamptz,
  created_at         timestamptz not null,
  unique (merchant_id, mode, phone_number)
);

-- The code that verifies a user's phone: only its HMAC is kept. One live code per user; a new
-- one replaces it.
create table phone_verifications (
  user_id     text primary key references users(id),
  code_hash   bytea not null,
  attempts    integer not null default 0,
  expires_at  timestamptz not null,
  created_at  timestamptz not null
);

-- Failed logins (and logins in progress), per merchant, mode and phone number, for the lockout
-- of 5 failures per 15 minutes. Rows older than the window are deleted as new ones arrive.
create table login_attempts (
  id            bigint generated always as identity primary key,
  merchant_id   text not null,
  mode          text not null,
  phone_number  text not null,
  attempted_at  timestamptz not null
);
create index login_attempts_phone on login_attempts (merchant_id, mode, phone_number, attempted_at);

-- Ed25519 keys that sign user access tokens. The private key is encrypted with the master key.
-- The newest key without `retired_at` signs; retired keys stay published in the JWKS until the
-- tokens they signed have expired.
create table signing_keys (
  kid              text primary key,
  algorithm        text not null default 'EdDSA',
  public_jwk       jsonb not null,
  private_key_enc  bytea not null,
  created_at       timestamptz not null,
  retired_at       timestamptz
);

-- Every SMS or e-mail. `body` is kept only for the outbox provider (test mode, development);
-- a message handed to a real provider keeps its metadata but not its text (it holds a code).
create table messages (
  id            text primary key,
  merchant_id   text not null references merchants(id),
  mode          text not null check (mode in ('test', 'live')),
  user_id       text,
  channel       text not null check (channel in ('sms', 'email')),
  recipient     text not null,
  body          text,
  provider      text not null,
  status        text not null check (status in ('stored', 'sent', 'failed')),
  provider_ref  text,
  created_at    timestamptz not null
);
create index messages_user on messages (merchant_id, mode, user_id, id desc);

-- The ledger. An account's balance is the sum of its postings; it is kept on the row, updated in
-- the transaction that writes the postings, under a row lock. A user wallet never goes below zero:
-- the CHECK below refuses it whatever the code does.
create table ledger_accounts (
  id           text primary key,
  merchant_id  text not null references merchants(id),
  mode         text not null check (mode in ('test', 'live')),
  kind         text not null check (kind in ('user_wallet', 'merchant_balance', 'external')),
  user_id      text references users(id),
  currency     text not null,
  balance      bigint not null default 0,
  created_at   timestamptz not null,
  constraint ledger_wallet_not_negative check (kind <> 'user_wallet' or balance >= 0),
  constraint ledger_wallet_has_user check ((kind = 'user_wallet') = (user_id is not null))
);
create unique index ledger_accounts_wallet on ledger_accounts (user_id, currency) where kind = 'user_wallet';
create unique index ledger_accounts_merchant on ledger_accounts (merchant_id, mode, kind, currency) where kind <> 'user_wallet';

create table ledger_transfers (
  id           text primary key,
  merchant_id  text not null references merchants(id),
  mode         text not null check (mode in ('test', 'live')),
  kind         text not null,
  reference    text,
  created_at   timestamptz not null
);
create index ledger_transfers_reference on ledger_transfers (reference);

create table ledger_postings (
  id           bigint generated always as identity primary key,
  transfer_id  text not null references ledger_transfers(id),
  account_id   text not null references ledger_accounts(id),
  currency     text not null,
  amount       bigint not null check (amount <> 0),
  created_at   timestamptz not null
);
create index ledger_postings_account on ledger_postings (account_id, id desc);
create index ledger_postings_transfer on ledger_postings (transfer_id);

-- Double entry, enforced by the database too: at commit, every transfer touched must have
-- postings that sum to zero in each currency.
create function ledger_transfer_balanced() returns trigger language plpgsql as $$
begin
  if exists (
    select 1 from ledger_postings where transfer_id = new.transfer_id
    group by currency having sum(amount) <> 0
  ) then
    raise exception 'ledger transfer % is not balanced', new.transfer_id
      using errcode = '23514', constraint = 'ledger_transfer_balanced';
  end if;
  return null;
end
$$;
create constraint trigger ledger_transfer_balanced after insert on ledger_postings
  deferrable initially deferred for each row execute function ledger_transfer_balanced();
