-- Challenge pgq-takeover: a cooperative member holds a batch that another member had: the
-- newest batch id issued, yet for ticks behind its group's cursor (a member's own receive
-- moves the group's cursor to the end of the batch it gets; a takeover moves nothing).
select exists (
  select 1
    from pgque.subscription m
    join pgque.subscription g on g.sub_id = m.sub_main
   where m.sub_role = 'coop_member'
     and m.sub_batch = (select last_value from pgque.batch_id_seq)
     and m.sub_next_tick < g.sub_last_tick
) as solved
