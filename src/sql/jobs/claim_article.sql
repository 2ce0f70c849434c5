-- The article's claim exactly as published (§2). Its lease branch revives a job whose lease
-- ran out even on its last attempt (L1's own claim, claim.sql, does not). And the partial
-- index jobs_ready (where status = 'ready') cannot answer that branch, so the planner cannot
-- walk the index in order to the first job: it reads every candidate row and sorts them
-- (L3's claim_indexed.sql probes the two branches apart).
update jobs
   set status = 'running', attempts = attempts + 1,
       locked_until = now() + interval '30 seconds'
 where id = (
   select id from jobs
    where (status = 'ready' and run_at <= now())
       or (status = 'running' and locked_until < now())   -- 리스가 끝난 작업 되살리기
    order by priority desc, run_at
    for update skip locked
    limit 1
 )
returning id, payload, attempts
