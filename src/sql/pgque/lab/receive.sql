-- $1 queue, $2 consumer, $3 max_return
select * from pgque.receive($1, $2, $3)
