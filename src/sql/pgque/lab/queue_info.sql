-- $1 queue: PgQue's queue info, then the lab's columns
select * from pgque.get_queue_info($1)
