-- The "long transaction" switch, on: a transaction that takes a transaction id and is
-- then left open — as a prepared transaction, because PGlite has one session and an
-- ordinary open transaction would block the lab itself. Until it ends, the xmin horizon
-- stays at its id: VACUUM may not remove any row version deleted after it began, since
-- this transaction could still need to see it. (A real server's culprit is usually an
-- idle-in-transaction session or a long report.)
-- Needs PGlite started with postgresqlconf 'max_prepared_transactions = 4'.
-- Parameterless; run as one exec of its own (not together with other set-up).
begin;
select txid_current();
prepare transaction 'lab_long_tx';
