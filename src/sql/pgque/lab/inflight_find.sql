-- Is the lab's in-flight transaction still prepared (neither committed nor rolled back)?
select gid, prepared::text as prepared from pg_prepared_xacts where gid = 'pgq_inflight'
