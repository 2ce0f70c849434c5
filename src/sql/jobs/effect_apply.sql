-- §4's idempotency key: job $1's effect (the receipt e-mail, recorded as sent) under a key made
-- from the job, by worker $2 on attempt $3. A second run of the job (its lease ran out and
-- another worker claimed it: at-least-once) finds the key taken and applies nothing; the row
-- that is there says who applied it. applied: true if this run applied it.
with applied as (
  insert into effects (idempotency_key, job_id, worker, attempt)
  values ('job-' || $1::bigint, $1, $2, $3)
  on conflict (idempotency_key) do nothing
  returning idempotency_key, job_id, worker, attempt, applied_at
)
select true as applied, idempotency_key, job_id, worker, attempt, applied_at::text as applied_at
  from applied
union all
select false, idempotency_key, job_id, worker, attempt, applied_at::text
  from effects
 where idempotency_key = 'job-' || $1::bigint
   and not exists (select 1 from applied)
