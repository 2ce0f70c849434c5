-- The schedule: PgQue's four pg_cron jobs, run on the lab clock.
--
-- PgQue's start() schedules four pg_cron jobs (its devel/sql/pgque.sql):
--   pgque_ticker        every 1 s   CALL pgque.ticker_loop(): ticker() every
--                                   tick_period_ms (100 ms) within the second
--   pgque_retry_events  every 30 s  select pgque.maint_retry_events() (10 a call)
--   pgque_maint         every 30 s  select pgque.maint() (rotation step 1)
--   pgque_rotate_step2  every 10 s  select pgque.maint_rotate_tables_step2()
-- A browser tab has no pg_cron, and lab time moves only when a button moves
-- it. So here start() and stop() switch the same four jobs, under the same
-- names and periods, on a table of the lab's (pgque.lab_job), and
-- pgque.run_jobs(until) runs every job that falls due between the lab
-- clock and `until`, in time order, each in a transaction of its own
-- (COMMIT between jobs, as pg_cron runs each job in its own), moving the
-- lab clock to each job's time. The ticker job's 100 ms calls are not run
-- one by one: between two jobs nothing else happens, so the next tick's
-- time is known (pgque.tick_due_at, rounded up to the tick_period_ms grid),
-- and the clock jumps there. What the lab's clock buttons call after moving
-- time; the SQL console can call it too.
--
-- Lab time is the session setting lab.clock (src/sql/lab/clock_install.sql):
-- this file is the one part of the engine that moves it.

-- PgQue's pgque.config row: the tick period and which scheduler runs the jobs.
create table pgque.config (
    tick_period_ms int not null default 100,
    -- 'lab clock' while the jobs are scheduled, null (PgQue: manual) when not
    scheduler      text
);
insert into pgque.config default values;

-- PgQue's four jobs (pg_cron's cron.job for them), always listed; start() and
-- stop() switch them on and off together.
create table pgque.lab_job (
    job_name    text primary key,
    -- its place in the list (PgQue's order in start())
    job_order   int not null,
    schedule    interval not null,
    command     text not null,
    scheduled   boolean not null default false,
    last_run    timestamptz,
    -- null while not scheduled
    next_run    timestamptz,
    runs        bigint not null default 0,
    -- what the last run returned, and the sum of what every run returned
    -- (ticker: queues ticked; retry: events put back; maint and step 2: 0)
    last_result bigint,
    total       bigint not null default 0
);
insert into pgque.lab_job (job_name, job_order, schedule, command) values
    ('pgque_ticker', 1, interval '1 second', 'CALL pgque.ticker_loop()'),
    ('pgque_retry_events', 2, interval '30 seconds', 'select pgque.maint_retry_events()'),
    ('pgque_maint', 3, interval '30 seconds', 'select pgque.maint()'),
    ('pgque_rotate_step2', 4, interval '10 seconds', 'select pgque.maint_rotate_tables_step2()');

-- pgque.uninstall() returns void
-- As PgQue's: stops the jobs, then drops schema pgque with everything in
-- it (queues, events, consumers, dead letters), and says so in a notice.
-- The roles stay (they belong to the server, not to one database). In the
-- lab, L4's page then says PgQue is not installed, and Reset installs it
-- again. Revoked from pgque_admin (90_roles.sql): only the owner runs it.
create function pgque.uninstall()
returns void
language plpgsql as $$
begin
    perform pgque.stop();
    drop schema pgque cascade;
    raise notice 'pgque uninstalled. Run DROP ROLE IF EXISTS pgque_reader, pgque_writer, pgque_admin; manually if needed.';
end;
$$;

-- pgque.version() returns text
-- PgQue's version() answers its release; the lab answers the PgQue API it
-- follows (PgQue 0.3.0-devel) with its own name as build metadata.
create function pgque.version()
returns text
language sql immutable as $$ select '0.3.0-devel+queue-lab' $$;

-- pgque.set_tick_period_ms(p_period_ms integer) returns integer
-- How often the ticker job calls ticker() within its 1 s slot (default 100:
-- ten calls a second). Returns the new period.
-- Guarantee: PgQue's check and message: 'tick_period_ms must be an exact
-- divisor of 1000 between 1 and 1000 (got <n>)'.
create function pgque.set_tick_period_ms(p_period_ms integer)
returns integer
language plpgsql as $$
begin
    if p_period_ms is null or p_period_ms < 1 or p_period_ms > 1000 or 1000 % p_period_ms <> 0 then
        raise exception 'tick_period_ms must be an exact divisor of 1000 between 1 and 1000 (got %)',
            coalesce(p_period_ms::text, 'NULL');
    end if;
    update pgque.config set tick_period_ms = p_period_ms;
    return p_period_ms;
end;
$$;

-- pgque.start() returns void
-- Schedules PgQue's four jobs on the lab clock, each first due one period
-- from now (stopping any scheduled ones first: idempotent, as PgQue's).
-- Raises a NOTICE in PgQue's form. PgQue's start() needs pg_cron (or
-- pg_timetable through start_timetable()); the lab's needs nothing.
create function pgque.start()
returns void
language plpgsql as $$
declare
    v_ms int;
begin
    perform pgque.stop();
    select tick_period_ms into v_ms from pgque.config;
    update pgque.lab_job set scheduled = true, next_run = now() + schedule;
    update pgque.config set scheduler = 'lab clock';
    raise notice 'pgque started on the lab clock: ticker every 1 s (% ticks/sec), retry_events every 30 s, maint every 30 s, rotate_step2 every 10 s',
        (1000.0 / v_ms)::numeric(10, 2);
end;
$$;

-- pgque.stop() returns void
-- Unschedules the four jobs (none scheduled: nothing to do). Their runs so
-- far stay counted.
create function pgque.stop()
returns void
language plpgsql as $$
begin
    update pgque.lab_job set scheduled = false, next_run = null;
    update pgque.config set scheduler = null;
end;
$$;

-- pgque.status() returns table (component text, status text, detail text)
-- PgQue's rows, in its order: postgresql and pgque (info), scheduler
-- ('lab clock' or 'manual'), ticker and maintenance ('scheduled' or
-- 'stopped'), pg_cron ('unavailable': a tab has none, and what runs the jobs
-- instead), queues and consumers (counts). Reads only.
create function pgque.status()
returns table (component text, status text, detail text)
language sql stable as $$
    select 'postgresql', 'info', pg_catalog.version()
    union all
    select 'pgque', 'info', pgque.version()
    union all
    select 'scheduler', coalesce(c.scheduler, 'manual'),
           format('tick_period_ms=%s (%s ticks/sec)', c.tick_period_ms,
                  (1000.0 / c.tick_period_ms)::numeric(10, 2))
      from pgque.config c
    union all
    -- the ticker's row, then maintenance's: each from its job, said the same way
    (select v.component,
            case when j.scheduled then 'scheduled' else 'stopped' end,
            case when j.scheduled then format('scheduler=lab clock, next run %s', j.next_run)
                 else v.idle end
       from (values (1, 'ticker', 'pgque_ticker',
                     format('not scheduled (tick_period_ms=%s)', (select tick_period_ms from pgque.config))),
                    (2, 'maintenance', 'pgque_maint', 'not scheduled')) as v(ord, component, job, idle)
       left join pgque.lab_job j on j.job_name = v.job and j.scheduled
      order by v.ord)
    union all
    select 'pg_cron', 'unavailable',
           'a browser tab has no pg_cron: pgque.start() schedules the four jobs on the lab clock, and moving the clock runs them (pgque.run_jobs)'
    union all
    select 'queues', 'info', (select count(*) from pgque.queue) || ' queues configured'
    union all
    select 'consumers', 'info', (select count(*) from pgque.subscription) || ' active subscriptions'
$$;

-- pgque.ticker_loop() (procedure)
-- PgQue's ticker job body calls ticker() every tick_period_ms for a second,
-- committing after each. Lab time does not pass inside a call, so here it
-- calls ticker() once; run_jobs makes the 100 ms cadence on the lab clock.
create procedure pgque.ticker_loop()
language plpgsql as $$
begin
    perform pgque.ticker();
end;
$$;

-- pgque.next_job(i_until timestamptz) returns (job_name text, due timestamptz)
-- The next job run due at or before i_until, or no row: the soonest of the
-- three timed jobs' next_run and, while the ticker job is scheduled, the
-- first instant on its tick_period_ms grid (and not before its next 1 s
-- slot starts... the grid covers every slot) at which some unpaused queue's
-- tick_due_at has come. Ties: step 2, retries, maint, then the ticker (as
-- listed). Reads only.
create function pgque.next_job(i_until timestamptz, out job_name text, out due timestamptz)
language plpgsql stable as $$
declare
    v_ms int;
    v_tick timestamptz;
    v_grid numeric;
begin
    select j.job_name, j.next_run into job_name, due
      from pgque.lab_job j
     where j.scheduled and j.job_name <> 'pgque_ticker' and j.next_run <= i_until
     order by j.next_run,
              array_position(array['pgque_rotate_step2', 'pgque_retry_events', 'pgque_maint'], j.job_name)
     limit 1;
    if exists (select 1 from pgque.lab_job where lab_job.job_name = 'pgque_ticker' and scheduled) then
        select tick_period_ms into v_ms from pgque.config;
        select min(greatest(pgque.tick_due_at(q), now())) into v_tick
          from pgque.queue q where not q.queue_ticker_paused and not q.queue_external_ticker;
        if v_tick is not null then
            -- round up to the next instant of the grid (every v_ms of lab time)
            v_grid := ceil(extract(epoch from v_tick) * 1000 / v_ms) * v_ms / 1000.0;
            v_tick := to_timestamp(v_grid);
            if v_tick <= i_until and (due is null or v_tick < due) then
                job_name := 'pgque_ticker';
                due := v_tick;
            end if;
        end if;
    end if;
end;
$$;

-- pgque.run_jobs(i_until timestamptz) (procedure)
--   i_until  lab time to run the schedule up to
-- Returns (CALL's row) what the run did: ticks (queues ticked), retries (events
-- put back), maint_runs, step2_runs, whether the jobs are scheduled, and the
-- lab time it ends at (now_text).
-- Runs every scheduled job that falls due after the lab clock and at or
-- before i_until, in time order: moves the lab clock to the job's time, runs
-- it, records its run (last_run, runs, last_result, next_run one period
-- later), and COMMITs, so each job is a transaction of its own and sees what
-- the ones before it committed (PgQue's snapshot rule: retry, then a later
-- tick, then a receive). Ends with the lab clock at i_until. Call it with
-- CALL, outside a transaction block. With no job scheduled it only moves
-- the clock.
create procedure pgque.run_jobs(i_until timestamptz,
    inout ticks bigint default null, inout retries bigint default null,
    inout maint_runs bigint default null, inout step2_runs bigint default null,
    inout scheduled boolean default null, inout now_text text default null)
language plpgsql as $$
declare
    j record;
    v_result bigint;
    n int := 0;
begin
    ticks := 0;
    retries := 0;
    maint_runs := 0;
    step2_runs := 0;
    loop
        select * into j from pgque.next_job(i_until);
        exit when j.job_name is null;
        n := n + 1;
        if n > 100000 then
            raise exception 'pgque.run_jobs: more than 100000 job runs before %', i_until;
        end if;
        perform set_config('lab.clock', greatest(j.due, now())::text, false);
        case j.job_name
        when 'pgque_ticker' then
            v_result := pgque.ticker();
            ticks := ticks + v_result;
        when 'pgque_retry_events' then
            v_result := pgque.maint_retry_events();
            retries := retries + v_result;
        when 'pgque_maint' then
            v_result := pgque.maint();
            maint_runs := maint_runs + 1;
        when 'pgque_rotate_step2' then
            v_result := pgque.maint_rotate_tables_step2();
            step2_runs := step2_runs + 1;
        end case;
        update pgque.lab_job
           set last_run = now(), runs = runs + 1, last_result = v_result,
               total = total + coalesce(v_result, 0),
               next_run = case when job_name = 'pgque_ticker'
                               then date_trunc('second', now()) + interval '1 second'
                               else next_run + schedule end
         where job_name = j.job_name;
        commit;
    end loop;
    perform set_config('lab.clock', greatest(i_until, now())::text, false);
    scheduled := exists (select 1 from pgque.lab_job where lab_job.scheduled);
    now_text := now()::text;
end;
$$;
