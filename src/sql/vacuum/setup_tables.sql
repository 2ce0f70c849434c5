-- L3 tables: the article's jobs table and partial index, once per strategy, each from the
-- one DDL of jobs_table.sql (lab.jobs_table), which runs first in the same exec.
-- Each strategy has its own schema, so every statement of the lab names `jobs` exactly as
-- the article does; use_strategy.sql puts one schema on the search path before a
-- strategy's statements run.
--   vac_keep    keep rows: a finished job stays as status = 'done'
--   vac_delete  DELETE on completion
--   vac_delete_vacuum  DELETE on completion, and VACUUM after every round (the optional
--               fourth: what autovacuum would do if it ran)
--   vac_rotate  rotation: jobs are kept as 'done' until the round is finished, then the
--               whole table is emptied by TRUNCATE (no dead tuples, no VACUUM)
--   vac_partition  rotation by partitions (the article's §6): `jobs` is partitioned, one
--               partition per round; after the round the finished partition is DETACHed
--               and DROPped (no dead tuples, no VACUUM, like TRUNCATE), while the next
--               round's partition, created ahead, can already take new jobs
--   vac_plan    the claim-plan viewer: the same table plus one more partial index
--               (jobs_lease) so the lease branch of the index-friendly claim has an index
-- Parameterless: runs as one exec, after jobs_table.sql.
select lab.jobs_table('vac_keep');
select lab.jobs_table('vac_delete');
select lab.jobs_table('vac_delete_vacuum');
select lab.jobs_table('vac_rotate');

-- Rotation by partitions. The article's columns, plus `round`: the period a job belongs
-- to, the partition key. A server would partition by time (`partition by range
-- (created_at)`, a day or an hour a partition); here the period is the lab's round, so
-- `partition by list (round)` reads best: partition jobs_r3 holds round 3, exactly.
-- Cost 1: a unique constraint on a partitioned table must include the partition key
-- (each partition checks its own rows only), so the primary key is (id, round), not (id):
-- id stays unique here only because the identity hands out each value once.
-- Cost 2: a job must be inserted with its round, into a partition that exists:
-- lab.partition_open (setup_helpers.sql) creates the next round's ahead of time.
-- Indexes made on the parent (the primary key, jobs_ready) are made on every partition.
select lab.jobs_table('vac_partition', by_round => true);

select lab.jobs_table('vac_plan');
-- Not in the article: lets the lease branch ("running and the lease has run out") be found
-- through an index instead of a scan of the whole table.
create index jobs_lease on vac_plan.jobs (locked_until) where status = 'running';
