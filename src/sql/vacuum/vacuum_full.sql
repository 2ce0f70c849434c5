-- VACUUM FULL of the scratch table: writes a new, compact copy and swaps it in (the
-- filenode changes), holding ACCESS EXCLUSIVE throughout. Not for a live queue: use
-- plain VACUUM (and autovacuum), or pg_repack when the space must go back to the OS.
-- Parameterless; its own statement (not in a transaction block).
vacuum full vac_scratch.jobs
