-- A small scratch table for the VACUUM FULL demonstration, never the lab's hot tables:
-- the article's table again, 1,000 jobs, 900 of them deleted.
-- Parameterless: runs as one exec.
create schema if not exists vac_scratch;
drop table if exists vac_scratch.jobs;
create table vac_scratch.jobs (
  id           bigint generated always as identity primary key,
  queue        text        not null default 'default',
  payload      jsonb       not null,
  status       text        not null default 'ready',
  priority     int         not null default 0,
  run_at       timestamptz not null default now(),
  attempts     int         not null default 0,
  max_attempts int         not null default 5,
  locked_until timestamptz,
  last_error   text
);
create index jobs_ready on vac_scratch.jobs (queue, priority desc, run_at) where status = 'ready';
insert into vac_scratch.jobs (payload) select jsonb_build_object('job', g) from generate_series(1, 1000) as g;
delete from vac_scratch.jobs where id % 10 <> 0;
