-- $1 queue, $2 limit: the newest dead letters, as pgque.dlq_inspect returns them, with the
-- consumer's name beside PgQue's dl_consumer_id
select d.*, c.co_name as dl_consumer
  from pgque.dlq_inspect($1, $2) d
  join pgque.consumer c on c.co_id = d.dl_consumer_id
 order by d.dl_time desc, d.dl_id desc
