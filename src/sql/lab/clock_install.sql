-- The lab's virtual clock: lab time moves only when a button moves it.
-- lab.now() shadows pg_catalog.now() because the lab schema comes first on the search
-- path, so SQL written with now() (and columns with `default now()`) runs on lab time.
-- The time lives in a session setting rather than a table: a SQL function without FROM is
-- inlined by the planner, so a claim that filters 20,000 rows on now() does not run a
-- query per row (measured: a table-backed clock made the article's claim 3-6x slower).
create schema if not exists lab;
select set_config('lab.clock', coalesce(current_setting('lab.clock', true), '2026-01-05 09:00:00+00'), false);
create or replace function lab.now() returns timestamptz
  language sql stable
  as $$ select current_setting('lab.clock')::timestamptz $$;
set search_path = lab, pg_catalog, public;
-- Each SQL lab's own schema, first on its search path while its work runs (the runner sets
-- it), so an unqualified `create table jobs` of one lab never meets another lab's `jobs`.
create schema if not exists jobs_lab;
create schema if not exists vacuum_lab;
create schema if not exists pgq_lab;
