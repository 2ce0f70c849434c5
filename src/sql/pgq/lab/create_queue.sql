-- $1 queue, $2 event tables, $3 rotation period in seconds, $4 max retries
select pgq.create_queue($1, $2::int, make_interval(secs => $3), $4::int) as queue_id
