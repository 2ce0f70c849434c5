-- $1 queue, $2 consumer, $3 subconsumer (refused while it holds a batch)
select pgque.unregister_subconsumer($1, $2, $3) as done
