-- In-flight demo, one script in one call (nothing else can run inside it): send, PREPARE, read back the event id and the transaction.
begin;
select pgque.send('orders', 'order.created', '{"order":"in flight"}');
prepare transaction 'pgq_inflight';
select lastval() as msg_id, transaction::text as txid from pg_prepared_xacts where gid = 'pgq_inflight';
