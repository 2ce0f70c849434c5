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
-- Each SQL lab's own schema (its descriptor, `labs/<slug>/mod.rs`, names it) comes first on
-- its search path while its work runs, so an unqualified `create table jobs` of one lab never
-- meets another lab's `jobs`. The runner makes it before the lab's first statement
-- (`schema_create.sql`), the name a bound parameter: `create schema` itself takes none.
create or replace function lab.create_schema(name text) returns void
  language plpgsql
  as $$ begin
    if to_regnamespace(name) is null then
      execute format('create schema %I', name);
    end if;
  end $$;
