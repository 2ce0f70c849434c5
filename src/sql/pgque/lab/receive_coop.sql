-- $1 queue, $2 consumer (the group), $3 subconsumer, $4 max_return, $5 dead interval in seconds
select * from pgque.receive_coop($1, $2, $3, $4, make_interval(secs => $5))
