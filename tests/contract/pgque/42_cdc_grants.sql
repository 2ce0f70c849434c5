-- contract: the CDC trigger functions (and PgQue's _urlencode under logutriga) are executable by pgque_admin only: not by pgque_reader, pgque_writer or PUBLIC.
create table contract.fn as
  select p.oid, p.proname::text as name from pg_proc p
   where p.pronamespace = 'pgque'::regnamespace and p.proname in ('jsontriga', 'logutriga', 'sqltriga', '_urlencode');
select contract.eq((select count(*) from contract.fn), 4::bigint, 'the four functions exist');
select contract.eq((select string_agg(name, ',' order by name) from contract.fn
                     where has_function_privilege('pgque_admin', oid, 'execute')),
  '_urlencode,jsontriga,logutriga,sqltriga', 'pgque_admin executes all four');
select contract.eq((select count(*) from contract.fn, unnest(array['pgque_reader', 'pgque_writer']) r
                     where has_function_privilege(r, oid, 'execute')), 0::bigint, 'reader and writer do not');
select contract.eq((select count(*) from contract.fn, pg_proc p, aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                     where p.oid = contract.fn.oid and a.grantee = 0 and a.privilege_type = 'EXECUTE'),
  0::bigint, 'PUBLIC does not');
