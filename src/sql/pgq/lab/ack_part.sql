-- $1 batch, $2 consumer (the group), $3 subconsumer
select pgq.ack_part($1, $2, $3) as finished
