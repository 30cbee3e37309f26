-- Failed end-user sign-ins older than the OTP retention period are deleted by the retention worker
-- in batches found by time. A successful sign-in no longer deletes other phones' old rows (that
-- scanned the table on every sign-in).
create index login_attempts_at on login_attempts (attempted_at);
