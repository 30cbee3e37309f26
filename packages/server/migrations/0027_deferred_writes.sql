-- Raises `message` as an error (SQLSTATE P0001). A write sent with the transaction's next
-- statement instead of on its own (a "deferred" write: nobody waits for its answer) uses it to fail
-- its transaction when it found nothing to change, e.g. an Idempotency-Key taken over meanwhile.
create or replace function caisse_fail(message text) returns integer
language plpgsql volatile as $$
begin
  raise exception using errcode = 'P0001', message = message;
end
$$;
