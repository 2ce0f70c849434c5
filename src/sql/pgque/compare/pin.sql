-- The long transaction of L3, for the side by side: a prepared transaction that took a
-- transaction id and stays open, so the xmin horizon cannot move past it. VACUUM may then
-- remove no row version deleted after it began; pgque.maint() may not rotate either (a
-- transaction that old might still write into an older event table).
-- Parameterless; its own exec, outside any transaction.
begin;
select txid_current();
prepare transaction 'pgq_compare_pin';
