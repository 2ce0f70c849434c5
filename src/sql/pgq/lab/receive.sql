select * from pgq.receive($1, $2, $3)
