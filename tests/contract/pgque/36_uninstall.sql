-- contract: uninstall() drops schema pgque with its queues, events and dead letters, and leaves PgQue's three roles, which belong to the server.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
select pgque.send('q', 'x');
select pgque.uninstall();
select contract.eq(to_regnamespace('pgque'), null::regnamespace, 'no schema pgque');
select contract.eq((select count(*) from pg_roles where rolname in ('pgque_reader', 'pgque_writer', 'pgque_admin')), 3::bigint,
  'the three roles stay');
select contract.eq((select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
                     where n.nspname = 'pgque'), 0::bigint, 'no table or sequence of it is left');
