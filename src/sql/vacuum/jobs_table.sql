-- L3's one jobs DDL: lab.jobs_table(schema_name, by_round) creates the schema and in it the
-- article's jobs table and partial index (§2, as src/sql/jobs/schema.sql has them), column for
-- column; every L3 table comes from here (setup_tables.sql, vacuum_full_setup.sql).
--   by_round = false  the article's table as it is
--   by_round = true   rotation by partitions (vac_partition): `round`, the partition key,
--                     after id; the primary key (id, round); `partition by list (round)`
-- CREATE TABLE takes no $1 parameters, so the schema's name goes in with format(%I).
-- No search_path of its own: `default now()` resolves as the caller's search path says (the
-- lab's clock, lab.now(), comes first), as when the DDL was written out per table.
-- Parameterless: runs as one exec, put before the script that calls it (the app's
-- sql::SETUP_TABLES and sql::VACUUM_FULL_SETUP): create or replace, so it can run again.
create or replace function lab.jobs_table(schema_name text, by_round boolean default false) returns void
language plpgsql
as $fn$
begin
  execute format('create schema if not exists %I', schema_name);
  execute format($ddl$create table %I.jobs (
  id           bigint generated always as identity%s,%s
  queue        text        not null default 'default',
  payload      jsonb       not null,
  status       text        not null default 'ready',
  priority     int         not null default 0,
  run_at       timestamptz not null default now(),
  attempts     int         not null default 0,
  max_attempts int         not null default 5,
  locked_until timestamptz,
  last_error   text%s
)%s$ddl$,
    schema_name,
    case when by_round then '' else ' primary key' end,
    case when by_round then E'\n  round        int         not null,' else '' end,
    case when by_round then E',\n  primary key (id, round)' else '' end,
    case when by_round then ' partition by list (round)' else '' end);
  execute format($ddl$create index jobs_ready on %I.jobs (queue, priority desc, run_at) where status = 'ready'$ddl$,
    schema_name);
end
$fn$;
