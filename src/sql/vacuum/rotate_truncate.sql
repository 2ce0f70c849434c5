-- Rotation: once every job of the round is done, empty the whole table at once.
-- TRUNCATE gives the table new, empty files: no dead tuples, no VACUUM, size back to 0.
-- It takes an ACCESS EXCLUSIVE lock and ignores MVCC, so it is only for a table no one
-- is still using: a live system writes the next round into another table and TRUNCATEs
-- the finished one (PgQ keeps several and rotates; lab L4 does that).
-- Chosen over DROP: the table, its indexes and the statements that name it stay; DROP
-- would need the CREATE again each round (and churns the system catalogs).
-- Parameterless.
truncate jobs
