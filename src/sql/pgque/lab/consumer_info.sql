-- $1 queue: one row per consumer (PgQue's columns, then the lab's); a cooperative group's
-- members, which PgQue lists too, are left to subconsumer_info.sql
select c.* from pgque.consumer_report($1) c
 where not exists (select 1 from pgque.subscription s join pgque.queue q on q.queue_id = s.sub_queue
                    where q.queue_name = c.queue_name and s.sub_consumer = c.consumer_name
                      and s.sub_role = 'coop_member')
