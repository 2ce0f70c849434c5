-- Are the L3 tables there already? The lab sets them up once per database (setup_tables.sql
-- is not re-runnable) and again after "Start over" (teardown.sql).
-- Parameterless. Returns one row: tables bool, extensions bool (pageinspect and
-- pg_visibility installed: the heap page map needs both)
select to_regclass('vac_keep.jobs') is not null
   and to_regclass('vac_partition.jobs') is not null
   and to_regclass('vac_plan.jobs') is not null                  as tables,
       (select count(*) = 2 from pg_extension
         where extname in ('pageinspect', 'pg_visibility'))      as extensions
