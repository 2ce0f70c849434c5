-- The lab's own: what DELETE-on-complete leaves in the jobs table: its rows, the dead row
-- versions that UPDATEs and DELETEs left behind until VACUUM, and its size on disk. Run
-- after `select pg_stat_force_next_flush()` (its own statement), so n_dead_tup is current.
select (select count(*) from jobs) as rows,
       coalesce((select n_dead_tup from pg_stat_user_tables
                  where relid = 'jobs'::regclass), 0) as dead_versions,
       pg_relation_size('jobs') as bytes
