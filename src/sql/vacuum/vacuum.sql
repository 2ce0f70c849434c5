-- Plain VACUUM of the current strategy's table (not FULL: no rewrite, no exclusive lock).
-- It cannot run inside a transaction block: run it as its own statement.
-- Run flush_stats.sql just before it: PGlite's statistics lag, and counts of the work done
-- before the VACUUM that reach the statistics only after it would be added on top of
-- VACUUM's own figure (measured: n_dead_tup 4,000 after a VACUUM that removed them all).
-- Parameterless.
vacuum jobs
