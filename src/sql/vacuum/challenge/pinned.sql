-- Challenge vacuum-pinned: VACUUM ran on the DELETE on completion table and left dead tuples
-- behind. After a VACUUM, n_dead_tup is what it could not remove, and n_ins_since_vacuum
-- starts again from 0: so dead tuples with no insert since the last VACUUM are tuples that
-- VACUUM kept (not ones a later run made).
select coalesce((select s.vacuum_count >= 1
                    and s.n_ins_since_vacuum = 0
                    and s.n_dead_tup > 0
                   from pg_stat_user_tables as s
                  where s.relid = to_regclass('vac_delete.jobs')), false) as solved
