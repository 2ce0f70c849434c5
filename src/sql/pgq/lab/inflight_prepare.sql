-- In-flight demo, step 3 of 3: end the session's transaction without committing it.
-- It stays open (in pg_prepared_xacts) across ticks until COMMIT / ROLLBACK PREPARED.
prepare transaction 'pgq_inflight'
