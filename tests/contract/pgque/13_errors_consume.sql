-- contract: the consume functions' refusals, each P0001 with PgQue's message: an unknown queue or consumer, max_return < 1, a batch that is not open, an event not in the batch; ack and finish_batch of a closed batch return 0 instead.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
-- receive and the next_batch family: one message for an unknown queue and an unknown consumer.
select contract.expect_error($$select * from pgque.receive('nope', 'c')$$, 'P0001', 'Not subscriber to queue: nope/c');
select contract.expect_error($$select * from pgque.receive('q', 'nobody', 10)$$, 'P0001', 'Not subscriber to queue: q/nobody');
select contract.expect_error($$select * from pgque.receive('q', 'c', 0)$$, 'P0001', 'pgque.receive: max_return must be >= 1, got 0');
select contract.expect_error($$select * from pgque.receive('q', 'c', -1)$$, 'P0001', 'pgque.receive: max_return must be >= 1, got -1');
select contract.expect_error($$select pgque.next_batch('nope', 'c')$$, 'P0001', 'Not subscriber to queue: nope/c');
select contract.expect_error($$select pgque.next_batch('q', 'nobody')$$, 'P0001', 'Not subscriber to queue: q/nobody');
select contract.expect_error($$select * from pgque.next_batch_info('q', 'nobody')$$, 'P0001', 'Not subscriber to queue: q/nobody');
select contract.expect_error($$select * from pgque.next_batch_custom('q', 'nobody', null, null, null)$$, 'P0001',
  'Not subscriber to queue: q/nobody');
-- Registration.
select contract.expect_error($$select pgque.subscribe('nope', 'c')$$, 'P0001', 'Event queue not created yet');
select contract.expect_error($$select pgque.register_consumer('nope', 'c')$$, 'P0001', 'Event queue not created yet');
select contract.expect_error($$select pgque.register_consumer_at('nope', 'c', 1)$$, 'P0001', 'Event queue not created yet');
select contract.expect_error($$select pgque.register_consumer_at('q', 'late', 999)$$, 'P0001', 'cannot reposition, tick not found: 999');
select contract.expect_error($$select pgque.subscribe('q', 'a#b')$$, 'P0001',
  'consumer name must not contain the reserved character #: a#b');
-- A batch id that is not open.
select contract.eq(pgque.ack(987654), 0, 'ack of an unknown batch returns 0 (with a warning)');
select contract.eq(pgque.finish_batch(987654), 0, 'finish_batch of an unknown batch returns 0');
select contract.expect_error($$select pgque.nack(987654, row(1, 987654, null, null, null, null, null, null, null, null)::pgque.message)$$,
  'P0001', 'batch not found: 987654');
select contract.expect_error($$select pgque.event_retry(987654, 1, 0)$$, 'P0001', 'event not found');
select contract.expect_error($$select pgque.event_retry(987654, 1, now())$$, 'P0001', 'event not found');
select contract.expect_error($$select pgque.batch_retry(987654, 0)$$, 'P0001', 'batch_retry: batch 987654 not found');
select contract.expect_error($$select * from pgque.get_batch_events(987654)$$, 'P0001', 'batch not found');
select contract.eq((select row(i.*)::text from pgque.get_batch_info(987654) i), '(,,,,,,,,)',
  'get_batch_info of an unknown batch: one row of NULLs');
-- An open batch, and an event that is not in it.
select pgque.send('q', 'x');
select pgque.ticker('q');
select contract.put('batch', pgque.next_batch('q', 'c'));
select contract.ok(contract.got('batch') is not null, 'a batch is open');
select contract.expect_error(format('select pgque.nack(%s, row(424242, %s, null, null, null, null, null, null, null, null)::pgque.message)',
                                    contract.got('batch'), contract.got('batch')),
  'P0001', format('msg_id 424242 not found in batch %s', contract.got('batch')));
select contract.expect_error(format('select pgque.nack(%s, null::pgque.message)', contract.got('batch')),
  'P0001', format('msg_id <NULL> not found in batch %s', contract.got('batch')));
select contract.expect_error(format('select pgque.event_retry(%s, 424242, 0)', contract.got('batch')), 'P0001', 'event not found');
select contract.eq(pgque.ack(contract.got('batch')), 1, 'the open batch acks');
-- As an application's handler catches them.
do $$
declare
  caught text;
begin
  begin
    perform pgque.nack(987654, null::pgque.message);
  exception when raise_exception then
    caught := sqlerrm;
  end;
  perform contract.eq(caught, 'batch not found: 987654', 'caught by `exception when raise_exception`');
end $$;
