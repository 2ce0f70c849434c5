-- The article's queue table and partial index, verbatim (§2).
create table jobs (
  id           bigint generated always as identity primary key,
  queue        text        not null default 'default',
  payload      jsonb       not null,
  status       text        not null default 'ready',   -- ready · running · done · dead
  priority     int         not null default 0,
  run_at       timestamptz not null default now(),      -- delay and retry time
  attempts     int         not null default 0,
  max_attempts int         not null default 5,
  locked_until timestamptz,                             -- lease (a dead worker's job reappears after this)
  last_error   text
);
create index jobs_ready on jobs (queue, priority desc, run_at) where status = 'ready';

-- The lab's own: the order that the transactional scenario (§1) writes beside its job.
create table orders (
  id       bigint generated always as identity primary key,
  customer text        not null,
  total    numeric(10, 2) not null,
  created  timestamptz not null default now()
);

-- The lab's own, not the article's: an ordering key (say, a customer id) beside the article's
-- columns, for the per-key claim (claim_per_key.sql). Null: the job has no ordering key.
alter table jobs add column key text;
create index jobs_key on jobs (key, id) where status in ('ready', 'running');

-- The lab's own, for §4's idempotency key: a job's effect (the receipt e-mail, recorded as
-- sent) at most once per key, whichever run of the job gets there first (effect_apply.sql).
create table effects (
  idempotency_key text        primary key,
  job_id          bigint      not null,
  worker          text        not null,
  attempt         int         not null,
  applied_at      timestamptz not null default now()
);
