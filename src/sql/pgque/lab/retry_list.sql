-- Nacked events waiting for their retry time ($1 queue).
select s.sub_consumer as consumer, r.ev_id as msg_id, r.ev_retry as retry_count,
       r.ev_retry_after::text as retry_after, r.ev_reason as reason,
       r.ev_retry_after <= now() as due
  from pgque.retry_queue r
  join pgque.subscription s on s.sub_id = r.ev_owner
  join pgque.queue q on q.queue_id = r.ev_queue
 where q.queue_name = $1
 order by r.ev_retry_after, r.ev_id
