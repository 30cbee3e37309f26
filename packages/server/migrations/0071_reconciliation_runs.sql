-- Each reconciliation's outcome (issue 34: the operator console shows the last one per provider and
-- mode). The report itself is kept whole, for the console to show its mismatches; nothing reads
-- it to move money.
create table reconciliation_runs (
  id text primary key,
  provider text not null,
  mode text not null check (mode in ('test', 'live')),
  period_from timestamptz not null,
  period_to timestamptz not null,
  result text not null check (result in ('agreed', 'mismatched', 'unverified')),
  agreed integer not null,
  mismatches integer not null,
  in_flight integer not null,
  unverified integer not null,
  report jsonb not null,
  generated_at timestamptz not null
);
create index reconciliation_runs_latest on reconciliation_runs (provider, mode, generated_at desc);
