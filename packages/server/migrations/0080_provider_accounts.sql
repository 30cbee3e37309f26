-- Provider accounts added by operators (issue 54, decision 0075): what Caisse uses to call one
-- connector in one mode for some countries. The credentials are a JSON object sealed with the
-- master key (AES-256-GCM, platform/crypto.ts) and never read back but to build the connector;
-- credentials_hint keeps each one's last four characters, all that is ever shown. An account is
-- never changed but for its status and its last check: other settings are another account, so a
-- request recorded with an id is always read with the settings that made it.
create table provider_accounts (
  id text primary key,
  connector text not null,
  mode text not null check (mode in ('test', 'live')),
  countries text[] not null check (cardinality(countries) > 0),
  settings jsonb not null,
  credentials bytea not null,
  credentials_hint jsonb not null,
  capabilities text[] not null,
  status text not null default 'active' check (status in ('active', 'disabled')),
  last_check jsonb,
  created_at timestamptz not null,
  disabled_at timestamptz
);

-- The choice of an account: by mode and country, newest first.
create index provider_accounts_choice on provider_accounts using gin (countries);
create index provider_accounts_mode on provider_accounts (mode, connector, created_at desc);
