-- EXPLAIN (ANALYZE, BUFFERS) of the claim below, which the lab sends after this line, as one
-- statement. ANALYZE really runs the claim: with ready jobs it claims one (the lab rolls it
-- back where that claim must not stick). Returns one row, one column "QUERY PLAN" (json),
-- read by plan_summary.sql and plan_nodes.sql.
explain (analyze, buffers, format json)
