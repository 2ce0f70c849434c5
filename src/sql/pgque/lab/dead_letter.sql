-- $1 dead letter id: that dead letter, read before a replay deletes it, with its consumer's name
select d.*, c.co_name as dl_consumer
  from pgque.dead_letter d
  join pgque.consumer c on c.co_id = d.dl_consumer_id
 where d.dl_id = $1
