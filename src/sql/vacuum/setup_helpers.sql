-- L3 helpers in the lab schema. Parameterless: runs as one exec, after setup_tables.sql.

-- lab.set_table_autovacuum(tbl, vacuum_threshold, scale_factor, max_threshold)
-- Sets (or, given null, resets) a lab table's per-table autovacuum settings:
--   autovacuum_vacuum_threshold     int    0 .. 2147483647  (server default 50)
--   autovacuum_vacuum_scale_factor  float8 0 .. 100         (server default 0.2)
--   autovacuum_vacuum_max_threshold int   -1 .. 2147483647  (PostgreSQL 18; default
--                                          100,000,000; -1 = no cap)
-- ALTER TABLE takes no $1 parameters, so this function is how a value typed by a learner
-- reaches the statement: each is checked against its range, then quoted with format(%L)
-- (the table by schema and name with %I). Only the lab's own jobs
-- tables (schema vac_*) may be changed.
-- Returns the ALTER TABLE statement it ran, so the lab can show it.
create or replace function lab.set_table_autovacuum(
  tbl regclass,
  vacuum_threshold int,
  scale_factor float8,
  max_threshold int
) returns text
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
declare
  schema_name text;
  table_name text;
  sets text[] := '{}';
  resets text[] := '{}';
  stmt text;
begin
  select n.nspname, c.relname into schema_name, table_name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where c.oid = tbl;
  if schema_name is null or schema_name not like 'vac\_%' then
    raise exception 'lab.set_table_autovacuum: % is not one of the lab''s tables', tbl
      using errcode = 'invalid_parameter_value';
  end if;

  if vacuum_threshold is null then
    resets := array_append(resets, 'autovacuum_vacuum_threshold');
  elsif vacuum_threshold < 0 then
    raise exception 'autovacuum_vacuum_threshold must be 0 or more, not %', vacuum_threshold
      using errcode = 'invalid_parameter_value';
  else
    sets := array_append(sets, format('autovacuum_vacuum_threshold = %L', vacuum_threshold));
  end if;

  if scale_factor is null then
    resets := array_append(resets, 'autovacuum_vacuum_scale_factor');
  elsif scale_factor < 0 or scale_factor > 100 or scale_factor = 'NaN'::float8 then
    raise exception 'autovacuum_vacuum_scale_factor must be between 0 and 100, not %', scale_factor
      using errcode = 'invalid_parameter_value';
  else
    sets := array_append(sets, format('autovacuum_vacuum_scale_factor = %L', scale_factor));
  end if;

  if max_threshold is null then
    resets := array_append(resets, 'autovacuum_vacuum_max_threshold');
  elsif max_threshold < -1 then
    raise exception 'autovacuum_vacuum_max_threshold must be -1 (no cap) or more, not %', max_threshold
      using errcode = 'invalid_parameter_value';
  else
    sets := array_append(sets, format('autovacuum_vacuum_max_threshold = %L', max_threshold));
  end if;

  stmt := format('alter table %I.%I', schema_name, table_name);
  if cardinality(sets) > 0 then
    stmt := stmt || format(' set (%s)', array_to_string(sets, ', '));
  end if;
  if cardinality(resets) > 0 then
    stmt := stmt || case when cardinality(sets) > 0 then ',' else '' end
                 || format(' reset (%s)', array_to_string(resets, ', '));
  end if;
  execute stmt;
  return stmt;
end
$$;

-- lab.leaves(rel): the relations that hold rel's storage. A partitioned table or index
-- (vac_partition.jobs, its jobs_pkey) has none of its own: its leaves are its leaf
-- partitions (pg_partition_tree). Anything else is its own one leaf (pg_partition_tree
-- then returns no row). measure_table.sql, measure_indexes.sql and page_map.sql sum or
-- list over these, so the partitioned strategy is measured like the others.
create or replace function lab.leaves(rel regclass) returns setof regclass
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select t.relid
    from pg_partition_tree(rel) as t
   where t.isleaf
  union
  select c.oid::regclass
    from pg_class as c
   where c.oid = rel and c.relkind not in ('p', 'I')
$$;

-- lab.partition_open(round) and lab.partition_drop(round): rotation by partitions on
-- vac_partition.jobs (setup_tables.sql), one partition per round, named jobs_r<round>.
-- CREATE TABLE and ALTER TABLE take no $1 parameters, so these functions are how a round
-- number reaches them: it is an int, quoted with format(%L); the partition's name is
-- built from it with %I. The table they work on is fixed: vac_partition.jobs only.
-- Each returns the statements it ran (null when there was nothing to do), so the lab can
-- show them.

-- Creates the partition for `round` unless it exists.
create or replace function lab.partition_open(round int) returns text
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
declare
  part text := 'jobs_r' || round;
  stmt text;
begin
  if round is null or round < 1 then
    raise exception 'lab.partition_open: round must be 1 or more, not %', round
      using errcode = 'invalid_parameter_value';
  end if;
  if to_regclass(format('vac_partition.%I', part)) is not null then
    return null;
  end if;
  stmt := format('create table vac_partition.%I partition of vac_partition.jobs for values in (%L)',
                 part, round);
  execute stmt;
  return stmt;
end
$$;

-- Detaches the partition of `round` (a finished round) from vac_partition.jobs, then drops
-- it: its rows, dead or alive, go with its files; nothing is left for VACUUM.
-- Plain DETACH, not DETACH ... CONCURRENTLY: CONCURRENTLY cannot run inside a transaction
-- block, and a function always runs inside one. Plain DETACH takes an ACCESS EXCLUSIVE lock
-- on vac_partition.jobs until the end of the transaction (here: at once).
create or replace function lab.partition_drop(round int) returns text
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
declare
  part text := 'jobs_r' || round;
  detach text;
  drop_it text;
begin
  if to_regclass(format('vac_partition.%I', part)) is null then
    return null;
  end if;
  detach := format('alter table vac_partition.jobs detach partition vac_partition.%I', part);
  drop_it := format('drop table vac_partition.%I', part);
  execute detach;
  execute drop_it;
  return detach || '; ' || drop_it;
end
$$;
