-- Challenge pgq-fan-out: a consumer the learner subscribed (a plain one, not billing or
-- email) and another consumer each hold, in an open batch of their own, the same event.
select exists (
  select 1
    from pgque.subscription n
    join pgque.subscription o
      on o.sub_queue = n.sub_queue
     and coalesce(o.sub_main, o.sub_id) <> n.sub_id
   cross join lateral pgque.get_batch_events(n.sub_batch) en
   cross join lateral pgque.get_batch_events(o.sub_batch) eo
   where n.sub_role = 'normal'
     and n.sub_consumer not in ('billing', 'email')
     and n.sub_batch is not null
     and o.sub_batch is not null
     and en.ev_id = eo.ev_id
) as solved
