-- A small scratch table for the VACUUM FULL demonstration, never the lab's hot tables:
-- the article's table again (lab.jobs_table, jobs_table.sql, which runs first in the same
-- exec), 1,000 jobs, 900 of them deleted.
-- Parameterless: runs as one exec, after jobs_table.sql.
create schema if not exists vac_scratch;
drop table if exists vac_scratch.jobs;
select lab.jobs_table('vac_scratch');
insert into vac_scratch.jobs (payload) select jsonb_build_object('job', g) from generate_series(1, 1000) as g;
delete from vac_scratch.jobs where id % 10 <> 0;
