-- EXPLAIN (ANALYZE, BUFFERS) of the index-friendly claim (claim_indexed.sql). ANALYZE
-- really runs it (see explain_claim_article.sql).
-- $1 text: the queue. Returns one row, one column "QUERY PLAN" (json).
explain (analyze, buffers, format json)
update jobs
   set status = 'running', attempts = attempts + 1,
       locked_until = now() + interval '30 seconds'
 where id = coalesce(
   (select id from jobs
     where queue = $1 and status = 'running' and locked_until < now()
     order by locked_until
     for update skip locked
     limit 1),
   (select id from jobs
     where queue = $1 and status = 'ready' and run_at <= now()
     order by priority desc, run_at
     for update skip locked
     limit 1)
 )
returning id, payload, attempts
