-- Challenge pgq-stall: maint would switch tables now (step 2 recorded, the rotation period
-- passed) but for one consumer: rotation_status names a consumer, and exactly one cursor is
-- still at a tick not past step 2 (the others have moved on).
select coalesce((
  select st.reason = 'consumer'
         and (select count(*)
                from pgque.subscription s
                join pgque.tick t on t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick
               where s.sub_queue = q.queue_id
                 and pg_snapshot_xmin(t.tick_snapshot)::text::bigint <= q.queue_switch_step2) = 1
    from pgque.queue q
   cross join lateral pgque.rotation_status(q.queue_id) st
   where q.queue_name = 'orders'), false) as solved
