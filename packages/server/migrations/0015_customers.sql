-- Customers (docs/spec/customers.md): one end user per mode and phone number across the deployment, one
-- password, one wallet per currency, usable to pay any merchant. `users.merchant_id` stays as the
-- merchant the customer first registered through; which merchants see a customer is
-- `customer_links`. `token_version` grows with every password reset or change: access tokens
-- carry the version they were issued under, and older ones are refused.
alter table users add column merged_into text references users(id);
alter table users add column token_version integer not null default 0;
alter table users drop constraint users_merchant_id_mode_phone_number_key;

create table customer_links (
  merchant_id  text not null references merchants(id),
  mode         text not null check (mode in ('test', 'live')),
  user_id      text not null references users(id),
  linked_at    timestamptz not null,
  primary key (merchant_id, user_id)
);
create index customer_links_user on customer_links (user_id);
-- A merchant's customers, newest link first (the dashboard's Customers page).
create index customer_links_merchant on customer_links (merchant_id, mode, linked_at desc);

-- Users of one phone and mode at several merchants become one customer. The survivor of each
-- group: a verified account before an unverified one (an unverified registration never takes a
-- verified account over), then the most recently active (its password is the one kept).
create table customer_merge_0015 (old_id text primary key, survivor text not null);
insert into customer_merge_0015 (old_id, survivor)
select id, survivor from (
  select a.id,
         row_number() over w as rank,
         first_value(a.id) over w as survivor
  from (
    select u.id, u.mode, u.phone_number, u.phone_verified_at,
           greatest(u.created_at,
                    coalesce((select max(o.created_at) from otp_codes o where o.user_id = u.id), u.created_at),
                    coalesce((select max(c.created_at) from charges c where c.user_id = u.id), u.created_at)) as active_at
    from users u
  ) a
  window w as (partition by a.mode, a.phone_number order by (a.phone_verified_at is not null) desc, a.active_at desc, a.id desc)
) ranked
where rank > 1;

-- Every merchant that had the user, or was paid by it, sees the customer.
insert into customer_links (merchant_id, mode, user_id, linked_at)
select u.merchant_id, u.mode, coalesce(m.survivor, u.id), u.created_at
from users u left join customer_merge_0015 m on m.old_id = u.id
on conflict do nothing;
insert into customer_links (merchant_id, mode, user_id, linked_at)
select c.merchant_id, c.mode, coalesce(m.survivor, c.user_id), min(c.created_at)
from charges c left join customer_merge_0015 m on m.old_id = c.user_id
group by c.merchant_id, c.mode, coalesce(m.survivor, c.user_id)
on conflict do nothing;

-- Wallets: the survivor gets a wallet in every currency one of its duplicates held, and each
-- duplicate's balance moves to it by a ledger transfer (kind customer_merge); no posting is
-- rewritten, so `caisse ledger verify` recomputes the same balances.
insert into ledger_accounts (id, merchant_id, mode, kind, user_id, currency, balance, created_at)
select 'acc_merge_' || md5(m.survivor || ':' || a.currency), s.merchant_id, a.mode, 'user_wallet', m.survivor, a.currency, 0, now()
from customer_merge_0015 m
join ledger_accounts a on a.user_id = m.old_id and a.kind = 'user_wallet'
join users s on s.id = m.survivor
on conflict do nothing;

insert into ledger_transfers (id, merchant_id, mode, kind, reference, created_at)
select 'tr_merge_' || a.id, a.merchant_id, a.mode, 'customer_merge', m.old_id, now()
from customer_merge_0015 m
join ledger_accounts a on a.user_id = m.old_id and a.kind = 'user_wallet' and a.balance <> 0;

insert into ledger_postings (transfer_id, account_id, currency, amount, created_at)
select 'tr_merge_' || a.id, a.id, a.currency, -a.balance, now()
from customer_merge_0015 m
join ledger_accounts a on a.user_id = m.old_id and a.kind = 'user_wallet' and a.balance <> 0
union all
select 'tr_merge_' || a.id, s.id, a.currency, a.balance, now()
from customer_merge_0015 m
join ledger_accounts a on a.user_id = m.old_id and a.kind = 'user_wallet' and a.balance <> 0
join ledger_accounts s on s.user_id = m.survivor and s.kind = 'user_wallet' and s.currency = a.currency;

update ledger_accounts s set balance = s.balance + x.total
from (
  select s.id, sum(a.balance) as total
  from customer_merge_0015 m
  join ledger_accounts a on a.user_id = m.old_id and a.kind = 'user_wallet'
  join ledger_accounts s on s.user_id = m.survivor and s.kind = 'user_wallet' and s.currency = a.currency
  group by s.id
) x
where s.id = x.id;

update ledger_accounts a set balance = 0
from customer_merge_0015 m
where a.user_id = m.old_id and a.kind = 'user_wallet';

-- The duplicates stay (charges and postings name them) but can no longer sign in or be found.
update users u set merged_into = m.survivor from customer_merge_0015 m where u.id = m.old_id;
delete from phone_verifications v using customer_merge_0015 m where v.user_id = m.old_id;
drop table customer_merge_0015;

create unique index users_mode_phone on users (mode, phone_number) where merged_into is null;

-- Password reset codes (docs/spec/customers.md): one live code per customer, its keyed hash only.
create table password_resets (
  user_id     text primary key references users(id),
  code_hash   bytea not null,
  expires_at  timestamptz not null,
  created_at  timestamptz not null
);
