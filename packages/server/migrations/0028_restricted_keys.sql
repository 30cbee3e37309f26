-- Restricted keys (rk_test_… / rk_live_…, issue 30): secret keys limited to one access level
-- (none, read, write) per API resource. Stored as secret keys are: the SHA-256 only.
alter table api_keys drop constraint api_keys_kind_check;
alter table api_keys add constraint api_keys_kind_check check (kind in ('publishable', 'secret', 'restricted'));

-- {"payments": "read", "payouts": "none", …}; a resource not named is none. Only restricted keys
-- have permissions: a secret key may do everything, a publishable key what its routes allow.
alter table api_keys add column permissions jsonb;
alter table api_keys add constraint api_keys_permissions_of_restricted check ((kind = 'restricted') = (permissions is not null));
