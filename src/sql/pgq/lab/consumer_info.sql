select * from pgq.get_consumer_info($1)
