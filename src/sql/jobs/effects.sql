-- The lab's own: the effects applied so far under their idempotency keys (§4), newest first.
select idempotency_key, job_id, worker, attempt, applied_at::text as applied_at
  from effects
 order by applied_at desc, job_id desc
 limit 50
