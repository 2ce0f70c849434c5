-- $1 dead letter id: send it again, as a new event, to every consumer
select pgque.dlq_replay($1) as msg_id
