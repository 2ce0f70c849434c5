-- Challenge jobs-no-rows-left: three jobs or more were enqueued (the identity's last value)
-- and the jobs table holds no row.
select not exists (select 1 from jobs)
   and coalesce((select last_value
                    from pg_sequences
                   where schemaname = current_schema() and sequencename = 'jobs_id_seq'), 0) >= 3
       as solved
