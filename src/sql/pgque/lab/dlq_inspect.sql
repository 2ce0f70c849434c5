-- $1 queue, $2 limit: dead letters, newest first
select * from pgque.dlq_inspect($1, $2)
