-- $1 queue: each event table, its rows, dead tuples and size
select * from pgque.get_table_info($1)
