-- $1 queue, $2 event type, $3 how many: one transaction, one insert per event
select cardinality(pgque.send_batch($1, $2,
         array(select format('{"n":%s}', g) from generate_series(1, $3::int) g))) as sent
