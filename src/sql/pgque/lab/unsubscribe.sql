-- $1 queue, $2 consumer: its cursor, batch and retries are gone
select pgque.unsubscribe($1, $2) as done
