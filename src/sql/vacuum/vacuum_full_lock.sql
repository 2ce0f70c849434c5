-- The lock VACUUM FULL holds while it rewrites a table: ACCESS EXCLUSIVE, the strongest,
-- which conflicts with every other lock — even a plain SELECT (ACCESS SHARE), and so
-- every enqueue (INSERT: ROW EXCLUSIVE) and claim (FOR UPDATE: ROW SHARE; UPDATE: ROW
-- EXCLUSIVE) waits until it is done. VACUUM FULL cannot run inside a transaction block,
-- so the transaction below takes the same lock with LOCK TABLE and shows it in pg_locks.
-- TRUNCATE (rotation) takes it too, which is why rotation only truncates a table no one
-- is using any more. On the scratch table (vacuum_full_setup.sql).
-- Parameterless: run as one exec; the third statement's result has the rows:
--   relation text, mode text, granted bool, conflicts_with_select bool,
--   conflicts_with_insert bool
begin;
lock table vac_scratch.jobs in access exclusive mode;
select l.relation::regclass::text                                         as relation,
       l.mode,
       l.granted,
       l.mode = 'AccessExclusiveLock'                                     as conflicts_with_select,
       l.mode in ('ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock',
                  'AccessExclusiveLock')                                  as conflicts_with_insert
  from pg_locks as l
 where l.locktype = 'relation'
   and l.relation = 'vac_scratch.jobs'::regclass
   and l.pid = pg_backend_pid();
rollback;
