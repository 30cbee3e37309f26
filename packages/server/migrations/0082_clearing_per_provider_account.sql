-- Clearing accounts per provider account (issue 53, decision 0078): a provider's clearing account
-- was one per provider name, mode and currency; the float is held per provider account (`pac_…`),
-- so it is now one per account: `name` is the account's id and `connector` the connector it
-- belongs to. The balances move by ledger transfers (kind clearing_per_account), never by editing
-- a balance alone: each old account's postings are split by the account of the request that made
-- them (the transfer's reference is the request's id; rows made before 0073 carry the account
-- that migration gave them) and moved there, one transfer per old account and merchant (a
-- transfer names its merchant). The old accounts stay, at zero: postings name them.
alter table ledger_accounts add column connector text;
update ledger_accounts set connector = name where kind = 'provider_clearing';
alter table ledger_accounts add constraint ledger_clearing_connector check (kind <> 'provider_clearing' or connector is not null);

-- The ledger must be clean before: every old clearing account's balance is its postings' sum.
do $$
declare n bigint;
begin
  select count(*) from ledger_accounts a
  where a.kind = 'provider_clearing' and a.balance <> coalesce((select sum(p.amount) from ledger_postings p where p.account_id = a.id), 0)
  into n;
  if n <> 0 then
    raise exception 'clearing per provider account: % clearing accounts differ from their postings; run caisse ledger verify', n;
  end if;
end $$;

create temporary table clearing_totals_0082 on commit drop as
  select mode, currency, sum(balance)::bigint as total from ledger_accounts where kind = 'provider_clearing' group by mode, currency;

-- Each old account's postings per merchant and per account of the request that made them.
create temporary table clearing_moves_0082 on commit drop as
  select a.id as old_id, a.mode, a.currency, a.name as connector, t.merchant_id,
    coalesce(r.provider_account, case a.mode when 'test' then 'pac_sandbox_' || a.name else 'pac_env_' || a.name end) as provider_account,
    sum(p.amount)::bigint as amount
  from ledger_accounts a
  join ledger_postings p on p.account_id = a.id
  join ledger_transfers t on t.id = p.transfer_id
  left join provider_requests r on r.id = t.reference and r.mode = a.mode
  where a.kind = 'provider_clearing' and a.name not like 'pac\_%'
  group by a.id, a.mode, a.currency, a.name, t.merchant_id, 6
  having sum(p.amount) <> 0;

insert into ledger_accounts (id, merchant_id, mode, kind, name, connector, user_id, currency, balance, created_at)
  select distinct on (mode, provider_account, currency)
    'acc_clearing_' || md5(mode || ':' || provider_account || ':' || currency), null, mode, 'provider_clearing', provider_account, connector,
    null, currency, 0, now()
  from clearing_moves_0082
  order by mode, provider_account, currency
on conflict do nothing;

insert into ledger_transfers (id, merchant_id, mode, kind, reference, created_at)
  select distinct 'tr_clearing_' || md5(old_id || ':' || merchant_id), merchant_id, mode, 'clearing_per_account', old_id, now()
  from clearing_moves_0082;

insert into ledger_postings (transfer_id, account_id, currency, amount, created_at)
  select 'tr_clearing_' || md5(old_id || ':' || merchant_id), old_id, currency, -sum(amount), now()
  from clearing_moves_0082 group by old_id, merchant_id, currency having sum(amount) <> 0
  union all
  select 'tr_clearing_' || md5(m.old_id || ':' || m.merchant_id), n.id, m.currency, m.amount, now()
  from clearing_moves_0082 m
  join ledger_accounts n on n.merchant_id is null and n.kind = 'provider_clearing' and n.mode = m.mode and n.name = m.provider_account and n.currency = m.currency;

update ledger_accounts a set balance = a.balance + x.total
from (
  select account_id, sum(amount) as total from ledger_postings
  where transfer_id in (select 'tr_clearing_' || md5(old_id || ':' || merchant_id) from clearing_moves_0082)
  group by account_id
) x
where a.id = x.account_id;

-- Nothing lost or doubled: the old accounts are empty, every clearing account is its postings'
-- sum, and the float per mode and currency is what it was.
do $$
declare n bigint;
begin
  select count(*) from ledger_accounts where kind = 'provider_clearing' and name not like 'pac\_%' and balance <> 0 into n;
  if n <> 0 then raise exception 'clearing per provider account: % old clearing accounts not emptied', n; end if;
  select count(*) from ledger_accounts a
  where a.kind = 'provider_clearing' and a.balance <> coalesce((select sum(p.amount) from ledger_postings p where p.account_id = a.id), 0)
  into n;
  if n <> 0 then raise exception 'clearing per provider account: % clearing accounts differ from their postings', n; end if;
  select count(*) from (
    select mode, currency, sum(balance) as total from ledger_accounts where kind = 'provider_clearing' group by mode, currency
  ) now_ full join clearing_totals_0082 b using (mode, currency)
  where coalesce(now_.total, 0) <> coalesce(b.total, 0)
  into n;
  if n <> 0 then raise exception 'clearing per provider account: the float changed in % modes and currencies', n; end if;
end $$;
