-- $1 batch: finishes the whole batch (1), or 0 when it is not open
select pgque.ack($1) as finished
