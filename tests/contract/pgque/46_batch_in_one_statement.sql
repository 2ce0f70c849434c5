-- contract: next_batch and get_batch_events (and get_batch_info) work in one statement: the batch next_batch opens is seen by the calls around it.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
select pgque.send_batch('q', 'job', array['a', 'b']);
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.eq((select string_agg(ev_data, ',' order by ev_id) from pgque.get_batch_events(pgque.next_batch('q', 'c'))),
  'a,b', 'the events of the batch opened in the same statement');
select contract.eq((select consumer_name from pgque.get_batch_info((select current_batch from pgque.get_consumer_info('q', 'c')))),
  'c', 'get_batch_info of the open batch');
select contract.eq(pgque.finish_batch((select current_batch from pgque.get_consumer_info('q', 'c'))), 1, 'finish it');
