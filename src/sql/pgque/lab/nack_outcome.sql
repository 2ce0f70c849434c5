-- Where the nack put the event ($1 queue, $2 consumer, $3 msg_id): a dead letter, or a retry.
select case when exists (select 1 from pgque.dead_letter d
                           join pgque.queue q on q.queue_id = d.dl_queue_id
                           join pgque.consumer c on c.co_id = d.dl_consumer_id
                          where q.queue_name = $1 and c.co_name = $2 and d.ev_id = $3)
            then 'dead' else 'retry' end as outcome
