select pgq.ack($1, $2) as finished
