-- The methods a merchant offers in each mode (docs/spec/mobile-money-payments.md, GET/PUT /payment-methods/settings).
-- No row: the default, the wallet and every configured provider that serves the merchant's
-- country. `providers` null: that default for mobile money; a list: exactly those providers.
create table payment_method_settings (
  merchant_id text not null references merchants (id),
  mode text not null check (mode in ('test', 'live')),
  wallet boolean not null,
  providers text[],
  updated_at timestamptz not null,
  primary key (merchant_id, mode)
);
