-- $1 queue: one row per consumer (PgQue's columns, then the lab's)
select * from pgque.get_consumer_info($1)
