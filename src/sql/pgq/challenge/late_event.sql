-- Challenge pgq-late-event: a consumer holds an open batch with an event (a first delivery,
-- not a retry) whose transaction was still open when the batch's first tick was taken (its
-- txid is in that tick's snapshot's in-progress list): sent before that tick, committed only
-- after it. A batch whose first tick saw no open transaction cannot hold one: its events are
-- not read (that filter is on `b`, which OFFSET 0 keeps a query of its own, so it runs before
-- the lateral call).
select exists (
  select 1
    from (select s.sub_batch, array(select x::text::bigint
                                      from pg_snapshot_xip(t.tick_snapshot) as x) as open_txids
            from pgque.subscription s
            join pgque.tick t on t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick
           where s.sub_batch is not null
          offset 0) as b
   cross join lateral pgque.get_batch_events(b.sub_batch) e
   where cardinality(b.open_txids) > 0
     and e.ev_retry is null
     and e.ev_txid = any (b.open_txids)
) as solved
