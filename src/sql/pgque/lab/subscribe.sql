-- $1 queue, $2 consumer: its cursor starts at the newest tick
select pgque.subscribe($1, $2) as done
