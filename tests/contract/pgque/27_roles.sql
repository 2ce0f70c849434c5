-- contract: the roles pgque_reader (consume), pgque_writer (produce) and pgque_admin (member of both) exist; reader and writer are siblings, and each role's EXECUTE grants follow PgQue's split.
select contract.eq((select count(*) from pg_roles where rolname in ('pgque_reader', 'pgque_writer', 'pgque_admin')), 3::bigint,
  'the three roles');
select contract.ok(pg_has_role('pgque_admin', 'pgque_reader', 'member'), 'admin is a member of reader');
select contract.ok(pg_has_role('pgque_admin', 'pgque_writer', 'member'), 'admin is a member of writer');
select contract.ok(not pg_has_role('pgque_writer', 'pgque_reader', 'member'), 'writer is not a reader');
select contract.ok(not pg_has_role('pgque_reader', 'pgque_writer', 'member'), 'reader is not a writer');
-- The consume side.
create table contract.grants (fn text, reader boolean, writer boolean, admin boolean);
insert into contract.grants values
  ('pgque.receive(text,text,integer)',                        true,  false, true),
  ('pgque.ack(bigint)',                                       true,  false, true),
  ('pgque.nack(bigint,pgque.message,interval,text)',          true,  false, true),
  ('pgque.subscribe(text,text)',                              true,  false, true),
  ('pgque.unsubscribe(text,text)',                            true,  false, true),
  ('pgque.next_batch(text,text)',                             true,  false, true),
  ('pgque.finish_batch(bigint)',                              true,  false, true),
  ('pgque.event_retry(bigint,bigint,integer)',                true,  false, true),
  ('pgque.get_queue_info(text)',                              true,  false, true),
  ('pgque.get_consumer_info(text,text)',                      true,  false, true),
  ('pgque.dlq_inspect(text,integer)',                         true,  false, true),
  ('pgque.version()',                                         true,  false, true),
  ('pgque.send(text,text)',                                   false, true,  true),
  ('pgque.send(text,text,jsonb)',                             false, true,  true),
  ('pgque.send_batch(text,text[])',                           false, true,  true),
  ('pgque.insert_event(text,text,text,text,text,text,text)',  false, true,  true),
  ('pgque.dlq_replay(bigint)',                                false, true,  true),
  ('pgque.dlq_replay_all(text)',                              false, true,  true),
  ('pgque.create_queue(text)',                                false, false, true),
  ('pgque.ticker(text)',                                      false, false, true),
  ('pgque.maint_retry_events()',                              false, false, true),
  ('pgque.dlq_purge(text,interval)',                          false, false, true),
  ('pgque.set_tick_period_ms(integer)',                       false, false, true),
  ('pgque.status()',                                          false, false, true),
  ('pgque.get_queue_info()',                                  true,  false, true),
  ('pgque.get_consumer_info()',                               true,  false, true),
  ('pgque.get_consumer_info(text)',                           true,  false, true),
  ('pgque.get_batch_cursor(bigint,text,integer)',             false, false, true),
  ('pgque.get_batch_cursor(bigint,text,integer,text)',        false, false, true),
  ('pgque.uninstall()',                                       false, false, false);
select contract.eq(
  (select string_agg(fn || case when p is null then ' (missing)' else ' (grants differ)' end, ', ' order by fn)
     from (select g.*, to_regprocedure(g.fn) as p from contract.grants g) g
    where p is null
       or has_function_privilege('pgque_reader', p, 'execute') is distinct from reader
       or has_function_privilege('pgque_writer', p, 'execute') is distinct from writer
       or has_function_privilege('pgque_admin', p, 'execute') is distinct from admin),
  null::text, 'functions missing, or whose EXECUTE grants differ from PgQue''s');
select contract.ok(not has_function_privilege('public', 'pgque.send(text,text)', 'execute'), 'PUBLIC cannot send');
select contract.ok(has_table_privilege('pgque_reader', 'pgque.dead_letter', 'select'), 'reader reads the dead letters');
select contract.ok(not has_table_privilege('pgque_reader', 'pgque.dead_letter', 'delete'), 'but does not delete them');
