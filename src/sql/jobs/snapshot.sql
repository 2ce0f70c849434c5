-- What the lab's tables show, read in one statement: lab time, the newest $1 jobs (bigint)
-- and also the jobs in $2 (bigint[]: those workers hold and those the last action changed,
-- however old), the newest 50 orders, and the jobs counted by status. Each part comes back as JSON text:
-- one reply instead of four, and the app decodes it in one go rather than field by field
-- (PGlite in Node, 1,000 jobs: four plain queries 10-12 ms, this one 5 ms). A payload comes as
-- its jsonb text, as psql and the console show it.
select now()::text as now,
       coalesce((select json_agg(j order by j.id desc)
                   from (select id, queue, payload::text as payload, status, priority,
                                run_at::text as run_at, attempts, max_attempts,
                                locked_until::text as locked_until, last_error,
                                -- what the claim would take now (see claim.sql)
                                (status = 'ready' and run_at <= now())
                                  or (status = 'running' and locked_until < now()
                                      and attempts < max_attempts) as claimable
                           from jobs
                          where id in (select id from jobs order by id desc limit $1)
                             or id = any($2::bigint[])) j), '[]')::text as jobs,
       coalesce((select json_agg(o order by o.id desc)
                   from (select id, customer, total::text as total, created::text as created
                           from orders
                          order by id desc
                          limit 50) o), '[]')::text as orders,
       (select to_json(c)
          from (select count(*) as total,
                       count(*) filter (where status = 'ready') as ready,
                       count(*) filter (where status = 'running') as running,
                       count(*) filter (where status = 'done') as done,
                       count(*) filter (where status = 'dead') as dead
                  from jobs) c)::text as counts
