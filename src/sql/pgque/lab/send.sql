-- $1 queue, $2 event type, $3 payload
select pgque.send($1, $2, $3) as msg_id, pg_current_xact_id()::text as txid
