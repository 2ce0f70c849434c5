-- Enqueue a round: $1 jobs (int, 1..50000), each a plain INSERT of the article's table
-- with its defaults (queue 'default', status 'ready', run_at now()).
insert into jobs (payload)
select jsonb_build_object('job', g)
  from generate_series(1, $1::int) as g
