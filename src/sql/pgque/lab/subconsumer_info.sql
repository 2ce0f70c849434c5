-- $1 queue: the members of each cooperative group and the batch each holds
select * from pgque.get_subconsumer_info($1)
