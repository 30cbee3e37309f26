-- Hot paths (bench/README.md). A charge writes its row before the ledger transfer it names, so
-- that the transfer, whose write locks the merchant's balance (the one row every charge of a
-- merchant shares), comes last and that lock is held only to the commit: the foreign key is
-- checked at commit instead of at once.
alter table charges alter constraint charges_transfer_id_fkey deferrable initially deferred;
