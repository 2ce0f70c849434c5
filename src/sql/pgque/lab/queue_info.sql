-- $1 queue: PgQue's queue info, then the lab's columns
select * from pgque.queue_report($1)
