-- The lab's own per-key claim: claim.sql (the article's claim with its fix) plus one
-- condition, so the jobs of one key run one after the other, in the order they were enqueued:
-- a job waits while an earlier job of its key (lower id) is unfinished (ready or running).
-- Jobs without a key are not held back (`e.key = j.key` is never true for null).
update jobs
   set status = 'running', attempts = attempts + 1,
       locked_until = now() + interval '30 seconds'
 where id = (
   select id from jobs j
    where ((status = 'ready' and run_at <= now())
        or (status = 'running' and locked_until < now()
            and attempts < max_attempts))
      and not exists (select 1 from jobs e
                       where e.key = j.key and e.id < j.id
                         and e.status in ('ready', 'running'))
    order by priority desc, run_at
    for update skip locked
    limit 1
 )
returning id, payload, attempts, key
