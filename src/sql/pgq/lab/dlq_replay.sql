select pgq.dlq_replay($1) as msg_id
