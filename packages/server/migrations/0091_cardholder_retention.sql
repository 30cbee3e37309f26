-- Card holders' details are erased once their attempt is decided and the retention period is
-- past (decision 0097). The retention round finds the attempts that still hold them through this
-- index, which holds only those (pending card attempts, and decided ones inside the period), so a
-- round never reads the whole history of decided attempts.
create index payment_attempts_cardholder on payment_attempts (completed_at) where customer is not null;
