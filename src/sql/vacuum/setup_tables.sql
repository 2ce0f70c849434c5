-- L3 tables: the article's jobs table and partial index, verbatim, once per strategy.
-- Each strategy has its own schema, so every statement of the lab names `jobs` exactly as
-- the article does; use_strategy.sql puts one schema on the search path before a
-- strategy's statements run.
--   vac_keep    keep rows: a finished job stays as status = 'done'
--   vac_delete  DELETE on completion
--   vac_delete_vacuum  DELETE on completion, and VACUUM after every round (the optional
--               fourth: what autovacuum would do if it ran)
--   vac_rotate  rotation: jobs are kept as 'done' until the round is finished, then the
--               whole table is emptied by TRUNCATE (no dead tuples, no VACUUM)
--   vac_plan    the claim-plan viewer: the same table plus one more partial index
--               (jobs_lease) so the lease branch of the index-friendly claim has an index
-- Parameterless: runs as one exec.
create schema if not exists vac_keep;
create schema if not exists vac_delete;
create schema if not exists vac_delete_vacuum;
create schema if not exists vac_rotate;
create schema if not exists vac_plan;

create table vac_keep.jobs (
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
create index jobs_ready on vac_keep.jobs (queue, priority desc, run_at) where status = 'ready';

create table vac_delete.jobs (
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
create index jobs_ready on vac_delete.jobs (queue, priority desc, run_at) where status = 'ready';

create table vac_delete_vacuum.jobs (
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
create index jobs_ready on vac_delete_vacuum.jobs (queue, priority desc, run_at) where status = 'ready';

create table vac_rotate.jobs (
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
create index jobs_ready on vac_rotate.jobs (queue, priority desc, run_at) where status = 'ready';

create table vac_plan.jobs (
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
create index jobs_ready on vac_plan.jobs (queue, priority desc, run_at) where status = 'ready';
-- Not in the article: lets the lease branch ("running and the lease has run out") be found
-- through an index instead of a scan of the whole table.
create index jobs_lease on vac_plan.jobs (locked_until) where status = 'running';
