-- Challenge vacuum-release: no prepared transaction holds the horizon any more, and a VACUUM
-- after the pinned one (vacuum_count 2 or more) left the DELETE on completion table, which
-- had deleted rows, with no dead tuple and nothing inserted since.
select not exists (select 1 from pg_prepared_xacts)
   and coalesce((select s.vacuum_count >= 2
                    and s.n_tup_del > 0
                    and s.n_dead_tup = 0
                    and s.n_ins_since_vacuum = 0
                   from pg_stat_user_tables as s
                  where s.relid = to_regclass('vac_delete.jobs')), false) as solved
