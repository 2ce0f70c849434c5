-- Rotation by partitions: create the partition that round $1 (int) goes to, unless it
-- exists (lab.partition_open, setup_helpers.sql). The lab runs it before a round, and for
-- the next round before dropping the finished one, so a job always has a partition to go
-- to: on a server, inserting a row no partition takes fails ("no partition of relation
-- found for row"), so partitions are created ahead of time, one period or more.
-- Returns one row: statement text (the CREATE TABLE it ran; null if the partition was there).
select lab.partition_open($1::int) as statement
