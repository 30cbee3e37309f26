-- Payout review (issue 34, decision 0041): a payout above its currency's threshold waits in REVIEW
-- until a second operator approves it (it goes to the provider) or rejects it (its money goes back
-- to available). The payouts module's tables.
alter table payouts drop constraint payouts_status_check;
alter table payouts add constraint payouts_status_check check (status in ('REVIEW', 'PENDING', 'PAID', 'FAILED'));
-- The operator who set the threshold the payout went over: the one who may not review it.
alter table payouts add column review_threshold_set_by text;
-- Who approved or rejected it, and when (null: never held, or still waiting).
alter table payouts add column reviewed_by text;
alter table payouts add column reviewed_at timestamptz;
create index payouts_review on payouts (created_at) where status = 'REVIEW';

-- One threshold per mode and currency, set by a finance operator: a payout above it is held.
create table payout_review_thresholds (
  mode          text not null check (mode in ('test', 'live')),
  currency      text not null,
  amount_minor  bigint not null check (amount_minor >= 0),
  set_by        text not null,
  set_by_email  text not null,
  set_at        timestamptz not null,
  primary key (mode, currency)
);
