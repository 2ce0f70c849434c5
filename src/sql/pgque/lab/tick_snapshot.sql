-- The snapshot a tick recorded: xmin:xmax:in-progress txids
select t.tick_snapshot::text as snapshot
  from pgque.tick t join pgque.queue q on q.queue_id = t.tick_queue
 where q.queue_name = $1 and t.tick_id = $2
