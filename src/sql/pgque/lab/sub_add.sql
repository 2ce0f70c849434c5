-- $1 queue, $2 consumer, $3 subconsumer; true: convert_normal (the consumer was a plain one)
select pgque.register_subconsumer($1, $2, $3, true) as done
