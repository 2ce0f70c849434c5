-- $1 queue, $2 event tables (the lab's own argument; PgQue always rotates 3)
select pgque.create_queue($1, $2::int) as created
