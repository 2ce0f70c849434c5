select * from pgq.get_table_info($1)
