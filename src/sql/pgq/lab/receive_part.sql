-- $1 queue, $2 consumer (the group), $3 subconsumer, $4 limit, $5 dead interval in seconds
select * from pgq.receive_part($1, $2, $3, $4, make_interval(secs => $5))
