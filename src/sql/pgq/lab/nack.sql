-- $1 batch, $2 event, $3 delay in seconds, $4 reason, $5 consumer
select pgq.nack($1, $2, make_interval(secs => $3), $4, $5) as outcome
