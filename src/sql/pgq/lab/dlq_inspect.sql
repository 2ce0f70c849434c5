select * from pgq.dlq_inspect($1, $2)
