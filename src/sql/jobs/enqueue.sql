-- Enqueue one job: queue $1, payload $2 (JSON), priority $3, runnable $4 seconds from now, at most $5 attempts; returns its id.
insert into jobs (queue, payload, priority, run_at, max_attempts)
values ($1, $2::jsonb, $3, now() + make_interval(secs => $4), $5)
returning id
