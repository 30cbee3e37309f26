-- What a redirect provider answered on accepting an attempt: its own id of the request (Orange's
-- pay_token, Wave's checkout session id), without which Orange's status cannot be asked after a
-- restart, and where the payer comes back to from the provider's page.
alter table payment_attempts add column provider_reference text;
alter table payment_attempts add column return_url text;
