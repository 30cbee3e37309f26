-- The order in which checkout lists a merchant's mobile-money providers (issue 58), per mode: the
-- providers named first, in this order, then the others in their country's default order (null:
-- the default order alone). Independent of which providers are offered.
alter table payment_method_settings add column provider_order text[];
