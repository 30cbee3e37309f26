-- One provider-request lifecycle (issue 53, decision 0066): every attempt, top-up, payout and
-- refund to mobile money is a row of provider_requests, owned by the lifecycle module: its
-- reference (unique across every kind), connector, account, status and timings. The owners keep
-- their business fields and point to it (their id is its id). Their lifecycle columns
-- (next_poll_at, polls, submitted_at) move here and are dropped: a process of the old version
-- writes them, so it fails (it is refused) from this migration on, and while it runs it waits on
-- this transaction's locks.
create table provider_requests (
  id                text primary key,
  kind              text not null check (kind in ('attempt', 'topup', 'payout', 'refund')),
  reference         text not null unique,
  mode              text not null check (mode in ('test', 'live')),
  connector         text not null,
  provider_account  text not null,
  -- HELD: a payout waiting for its review; CANCELED: one rejected there, never sent.
  status            text not null check (status in ('HELD', 'PENDING', 'SUCCEEDED', 'FAILED', 'CANCELED')),
  submitted_at      timestamptz,
  -- When the poller next asks the provider (also a lease: a poller moves it forward first).
  next_poll_at      timestamptz not null,
  polls             integer not null default 0,
  -- An undecided request fails with TIMEOUT then; null: money out, never given up.
  deadline_at       timestamptz,
  created_at        timestamptz not null,
  updated_at        timestamptz not null,
  finished_at       timestamptz
);
create index provider_requests_due on provider_requests (next_poll_at) where status = 'PENDING';

-- The rows of today, in place: each owner's status says the request's.
insert into provider_requests
select id, 'attempt', reference, mode, connector, provider_account, status, submitted_at, next_poll_at, polls,
  created_at + interval '15 minutes', created_at, updated_at, completed_at
from payment_attempts;
insert into provider_requests
select id, 'topup', reference, mode, connector, provider_account, status, submitted_at, next_poll_at, polls,
  created_at + interval '15 minutes', created_at, updated_at, completed_at
from topups;
insert into provider_requests
select id, 'payout', reference, mode, connector, provider_account,
  case status when 'REVIEW' then 'HELD' when 'PAID' then 'SUCCEEDED'
    when 'FAILED' then case when failure_reason = 'REVIEW_REJECTED' then 'CANCELED' else 'FAILED' end
    else status end,
  submitted_at, next_poll_at, polls, null, created_at, updated_at, completed_at
from payouts;
insert into provider_requests
select id, 'refund', reference, mode, connector, provider_account, status, submitted_at, next_poll_at, polls,
  null, created_at, updated_at, completed_at
from mobile_money_refunds;

-- A request's status follows its owner's, in the owner's transaction: whatever decides a row
-- (a settle, a late success, a review) finishes its request with it.
create function provider_request_follows_owner() returns trigger language plpgsql as $$
begin
  if new.status is distinct from old.status then
    update provider_requests set
      status = case
        when new.status = 'REVIEW' then 'HELD'
        when new.status = 'PENDING' then 'PENDING'
        when new.status in ('SUCCEEDED', 'PAID') then 'SUCCEEDED'
        when old.status = 'REVIEW' then 'CANCELED'
        else 'FAILED' end,
      finished_at = case when new.status in ('SUCCEEDED', 'PAID', 'FAILED') then coalesce(new.completed_at, new.updated_at) end,
      updated_at = new.updated_at
    where id = new.id;
  end if;
  return null;
end $$;

do $$
declare t text;
begin
  foreach t in array array['payment_attempts', 'topups', 'payouts', 'mobile_money_refunds'] loop
    execute format('drop index if exists %I', t || '_due');
    execute format('alter table %I drop column next_poll_at, drop column polls, drop column submitted_at', t);
    execute format('alter table %I add constraint %I foreign key (id) references provider_requests (id)', t, t || '_request');
    execute format('create trigger %I after update of status on %I for each row execute function provider_request_follows_owner()',
      t || '_request_status', t);
  end loop;
end $$;

-- Nothing lost, nothing doubled, and no request settled twice: each owner has its one request,
-- and no payout or refund both reached its payee and came back.
do $$
declare n bigint;
begin
  select (select count(*) from payment_attempts) + (select count(*) from topups) + (select count(*) from payouts)
    + (select count(*) from mobile_money_refunds) - (select count(*) from provider_requests) into n;
  if n <> 0 then raise exception 'provider_requests: % rows missing or doubled', n; end if;
  select count(*) from (
    select reference from ledger_transfers
    where kind in ('payout_paid', 'payout_reversal') group by reference having count(*) > 1
    union all
    select reference from ledger_transfers
    where kind in ('refund_paid', 'refund_reversal') group by reference having count(*) > 1
  ) twice into n;
  if n <> 0 then raise exception 'provider_requests: % requests settled twice', n; end if;
end $$;
