select * from pgq.get_subconsumer_info($1)
