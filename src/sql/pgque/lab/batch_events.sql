-- $1 batch: every event in it, whatever a receive returned (PgQ's get_batch_events)
select ev_id as msg_id from pgque.get_batch_events($1)
