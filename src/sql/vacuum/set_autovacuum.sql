-- Change a lab table's autovacuum settings; null resets one to the server's value.
-- $1 text table (e.g. 'vac_delete.jobs'), $2 int threshold, $3 float8 scale factor,
-- $4 int max threshold. Values are checked and quoted by lab.set_table_autovacuum
-- (setup_helpers.sql); an out-of-range value raises an error naming the setting.
-- Returns one row: statement text (the ALTER TABLE it ran).
select lab.set_table_autovacuum($1::regclass, $2::int, $3::float8, $4::int) as statement
