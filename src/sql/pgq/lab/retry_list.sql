-- Nacked events waiting for their delay (and for their batch's ack).
select r.rq_id, s.sub_consumer as consumer, r.rq_ev_id as msg_id, r.rq_batch as batch_id,
       r.ev_retry as retry_count, r.rq_retry_after::text as retry_after, r.rq_reason as reason,
       r.rq_retry_after <= now() as due
  from pgq.retry_queue r
  join pgq.subscription s on s.sub_id = r.rq_sub
  join pgq.queue q on q.queue_id = r.rq_queue
 where q.queue_name = $1
 order by r.rq_retry_after, r.rq_id
