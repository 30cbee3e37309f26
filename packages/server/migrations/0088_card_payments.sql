-- Card payments (decision 0085): the card holder's details a card route's provider requires
-- (CinetPay's page refuses a card payment without them), kept with the attempt so that a request
-- sent again after a restart carries them. Null for mobile money. Never a card number: the payer
-- types it on the provider's page only.
alter table payment_attempts add column customer jsonb;
