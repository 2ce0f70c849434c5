-- An index-friendly claim: the article's two branches as two probes, each answered by a
-- partial index in the order it needs, so a claim reads a handful of pages however long
-- the queue is.
--   1. an expired lease (status = 'running' and locked_until < now()): index jobs_lease
--      (locked_until) where status = 'running' — exists on vac_plan.jobs only;
--   2. else the next ready job: index jobs_ready (queue, priority desc, run_at)
--      where status = 'ready'. The index starts with queue, so the probe names the
--      queue; without it the index can only be read whole and sorted.
-- coalesce() runs the second probe only when the first finds nothing, so at most one row
-- is locked. Differences from the article's claim: one queue at a time, and an expired
-- lease goes before a ready job of higher priority (it has waited longest).
-- $1 text: the queue ('default' for every job of this lab).
-- Returns: id bigint, payload jsonb, attempts int (0 or 1 row).
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
