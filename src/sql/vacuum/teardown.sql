-- "Start over": drop every L3 table (with its statistics), so that setup_tables.sql and
-- setup_helpers.sql can create them afresh. The extensions and the lab's clock stay.
-- Parameterless: runs as one exec.
drop schema if exists vac_keep, vac_delete, vac_delete_vacuum, vac_rotate, vac_partition, vac_plan, vac_scratch cascade;
drop function if exists lab.set_table_autovacuum(regclass, int, float8, int);
drop function if exists lab.partition_open(int);
drop function if exists lab.partition_drop(int);
drop function if exists lab.jobs_table(text, boolean);
