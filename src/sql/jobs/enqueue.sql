insert into jobs (queue, payload, priority, run_at, max_attempts)
values ($1, $2::jsonb, $3, now() + make_interval(secs => $4), $5)
returning id
