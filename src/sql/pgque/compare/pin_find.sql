-- Is the side by side's long transaction still open?
select gid from pg_prepared_xacts where gid = 'pgq_compare_pin'
