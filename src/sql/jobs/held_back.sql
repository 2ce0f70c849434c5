-- The lab's own: ready jobs that the per-key claim holds back, each behind an earlier
-- unfinished job of its key (see claim_per_key.sql).
select count(*) as n
  from jobs j
 where j.status = 'ready' and j.run_at <= now()
   and exists (select 1 from jobs e
                where e.key = j.key and e.id < j.id
                  and e.status in ('ready', 'running'))
