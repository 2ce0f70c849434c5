-- Challenge pgq-late-event: a consumer holds an open batch with an event (a first delivery,
-- not a retry) whose transaction already had its txid when the batch's first tick was taken:
-- sent before that tick, committed only after it.
select exists (
  select 1
    from pgque.subscription s
    join pgque.tick t on t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick
   cross join lateral pgque.get_batch_events(s.sub_batch) e
   where s.sub_batch is not null
     and e.ev_retry is null
     and e.ev_txid < pg_snapshot_xmax(t.tick_snapshot)::text::bigint
) as solved
