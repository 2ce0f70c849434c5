-- Challenge jobs-run-twice: a job that two claims ran (attempts 2 or more) without a failure
-- (last_error is empty), now done, with exactly one effect under its idempotency key.
select exists (
  select 1
    from jobs j
   where j.status = 'done'
     and j.attempts >= 2
     and j.last_error is null
     and (select count(*) from effects e where e.job_id = j.id) = 1
) as solved
