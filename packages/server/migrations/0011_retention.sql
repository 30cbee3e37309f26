-- What the retention worker's deletes need (src/modules/retention/retention.ts). Each delete takes a
-- bounded batch; these indexes let it find the batch without scanning the table. Events, messages
-- and OTP codes need none: their ids sort by creation time, so the primary key finds the old ones.

-- Webhook deliveries in a final state (succeeded or failed), by when they finished. Pending ones,
-- the dispatcher's queue, have no entry.
create index webhook_deliveries_completed on webhook_deliveries (completed_at) where status <> 'pending';

-- Deleting an OTP code cascades to the authorizations it bought: without this index every deleted
-- code scanned the whole table (the OTP module's own clean-up of a user's old codes too).
create index otp_authorizations_otp on otp_authorizations (otp_id);

-- Dashboard sign-in attempts of e-mails that never came back (unknown addresses included).
create index dashboard_login_attempts_at on dashboard_login_attempts (attempted_at);
