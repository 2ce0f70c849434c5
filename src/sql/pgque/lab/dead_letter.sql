-- $1 dead letter id: that dead letter, read before a replay deletes it
select * from pgque.dead_letter where dl_id = $1
