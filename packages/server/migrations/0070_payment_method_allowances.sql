-- The operator's cap on a merchant's payment methods (issue 34, the console's merchant page), per
-- mode: the wallet allowed or not, and the providers allowed (null: all). What the merchant offers
-- is its own choice within this cap; the merchant's columns keep their meaning.
alter table payment_method_settings add column allowed_wallet boolean not null default true;
alter table payment_method_settings add column allowed_providers text[];
alter table payment_method_settings add column allowed_by text;
