select * from pgq.get_queue_info($1)
