-- $1 queue, $2 setting (PgQue's name), $3 its value as text
select pgque.set_queue_config($1, $2, $3) as done
