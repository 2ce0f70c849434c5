-- Read when snapshot.sql failed: is schema pgque gone (pgque.uninstall() from the SQL console)?
-- With it, lab time and whether the in-flight demo's transaction is prepared, which need no
-- pgque (the page says "not installed" and offers Reset).
select to_regnamespace('pgque') is null as uninstalled, now()::text as now,
       exists (select 1 from pg_prepared_xacts where gid = 'pgq_inflight') as inflight_open
