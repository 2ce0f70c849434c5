-- Refresh the planner's statistics for the current strategy's table. On a server,
-- autovacuum's autoanalyze does this; it never runs in PGlite, so the lab runs it before
-- showing a plan, or the planner guesses from a never-analyzed table.
-- Parameterless.
analyze jobs
