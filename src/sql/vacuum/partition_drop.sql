-- Rotation by partitions: the finished round $1's partition is detached from
-- vac_partition.jobs, then dropped (lab.partition_drop, setup_helpers.sql): its rows and
-- their dead versions go with its files; no dead tuples, no VACUUM, like TRUNCATE.
-- Unlike TRUNCATE of the whole table, the other partitions keep taking jobs: on a server,
-- new jobs go to the next round's partition while this one is dropped. The cost is a
-- lock: plain DETACH takes ACCESS EXCLUSIVE on the parent for its (short) transaction;
-- DETACH PARTITION ... CONCURRENTLY takes a weaker one, but cannot run inside a
-- transaction block (so not in a function either; the lab, one session, needs no such care).
-- Returns one row: statement text (the DETACH and DROP it ran; null if no such partition).
select lab.partition_drop($1::int) as statement
