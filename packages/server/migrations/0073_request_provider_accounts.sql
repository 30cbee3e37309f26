-- Methods and connectors apart (contract section 15, decision 0066): every provider request
-- records the connector it went through and the provider account (`pac_…`) it was made with, so
-- it is only ever read back with the settings that made it. Rows made before: the connector is
-- the provider (the only connectors are the operators' own APIs); test mode's account is the
-- sandbox's, live mode's the environment's of the day (`pac_env_<connector>`, read by whatever
-- environment account that connector has now, as before).
do $$
declare t text;
begin
  foreach t in array array['payment_attempts', 'topups', 'payouts', 'mobile_money_refunds'] loop
    execute format('alter table %I add column connector text, add column provider_account text', t);
    execute format($q$update %I set connector = provider,
      provider_account = case mode when 'test' then 'pac_sandbox_' || provider else 'pac_env_' || provider end$q$, t);
    execute format('alter table %I alter column connector set not null, alter column provider_account set not null', t);
  end loop;
end $$;
