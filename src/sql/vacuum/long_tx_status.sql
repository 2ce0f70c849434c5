-- Is the long transaction on, and how far does it hold the horizon back?
-- Parameterless. Returns 0 rows (off) or one row:
--   gid text, xid text (its transaction id), prepared_at timestamptz (real time, not lab
--   time), xid_age int (transactions started since it: all their dead rows are pinned)
select p.gid,
       p.transaction::text           as xid,
       p.prepared                    as prepared_at,
       age(p.transaction)::int       as xid_age
  from pg_prepared_xacts as p
 where p.gid = 'lab_long_tx'
