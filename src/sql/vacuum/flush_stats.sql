-- PGlite's activity statistics lag behind: flush them before reading pg_stat_*.
-- Run as its own statement, then read the figures in the next one.
select pg_stat_force_next_flush()
