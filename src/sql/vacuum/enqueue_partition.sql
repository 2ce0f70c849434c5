-- Enqueue a round into the partitioned table (vac_partition.jobs): $1 jobs (int,
-- 1..50000), each a plain INSERT as enqueue.sql's, with one more column: $2 (int) the
-- round, the partition key, so every job of round $2 lands in partition jobs_r<$2>
-- (partition_open.sql creates it first).
insert into jobs (round, payload)
select $2::int, jsonb_build_object('job', g)
  from generate_series(1, $1::int) as g
