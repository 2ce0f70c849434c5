-- EXPLAIN (ANALYZE, BUFFERS) of the claim that follows it: the lab sends this line and then
-- the claim's own file (jobs/claim_article.sql, the article's; vacuum/claim_indexed.sql), as
-- one statement. Returns one row, one column "QUERY PLAN" (json): read it with
-- plan_summary.sql / plan_nodes.sql. ANALYZE really runs the claim: on an empty queue it
-- changes nothing; with ready jobs it claims one (the lab wraps it in BEGIN ... ROLLBACK to
-- leave the queue as it was, at the cost of one aborted row version).
explain (analyze, buffers, format json)
