-- Maintenance: table rotation with TRUNCATE, and old ticks.
--
-- The rotation rule (our reading of PgQ's two-step switch).
--
-- A queue inserts into one current table, c. A switch makes the next table,
-- c+1 (mod N), current, TRUNCATing it first: it holds the oldest events.
-- TRUNCATE destroys rows at once, so it may only touch a table every
-- consumer has passed, and no transaction may still write into it.
--
--   step1  the txid of the transaction that made c current;
--   step2  a txid taken later, by another transaction: PgQue's
--          maint_rotate_tables_step2(), its own scheduled job (every 10 s),
--          never in the same transaction as the switch.
--
-- A producer takes its txid *before* it reads which table is current
-- (pgque.insert_event). A producer that still wrote into a table after the
-- switch away from it read the old queue row, so the switch had not yet
-- committed, so step2 (assigned after that commit) is larger than its txid.
-- Hence: every event in any table other than c has a txid < step2.
--
-- A consumer's cursor is the tick of its last acked batch (a cooperative
-- member holding a batch: the batch's start tick; every subscription row
-- with a cursor counts). If that tick's snapshot has xmin > step2, every
-- transaction with txid <= step2 had ended before the tick, so the consumer
-- has received and acked all their events (rolled-back ones never existed
-- for it). It has then passed every table but c.
--
-- So maint() (step 1) switches c -> c+1 and truncates c+1 only when
--   1. step2 of the switch into c is recorded,
--   2. the queue's rotation period has passed since that switch,
--   3. the lowest cursor tick among its consumers has snapshot xmin >
--      step2. A lagging consumer therefore holds rotation back, and so does
--      any transaction that has a txid and is still open since before step2
--      (e.g. a prepared one, or any that wrote): every tick taken while it is
--      open has xmin <= its txid. A transaction without a txid (a read-only
--      one, even REPEATABLE READ) is in no snapshot's xmin and holds nothing.
--      A queue with no consumers rotates (nobody is left to read the old
--      tables), as PgQue's step 1 does;
--   4. c+1 can be locked at once. A transaction still holding it (say a
--      prepared one that read it) makes maint() skip the rotation rather
--      than wait forever in a one-session database.
-- A rotation therefore needs, after the previous switch: step 2, then a tick
-- taken after that, which every consumer acks.
-- Event tables get INSERTs and TRUNCATEs only: no UPDATE, no DELETE, so no
-- dead tuples from consuming. (An INSERT whose transaction rolls back does
-- leave one dead tuple; the table's next TRUNCATE removes it.)
-- PgQue compares the rotation period with current_timestamp (the server's
-- clock); the lab with now(), the lab clock.

-- pgque.rotation_status(i_queue_id int) returns (ready boolean, note text, blocker text,
--                                              reason text, args text[])
--   i_queue_id  queue id
-- Returns whether maint() would switch tables now; note says what it would
-- do or what it waits for; blocker names the first consumer holding it back
-- (null if none); reason is the note as a code and args its values, for a
-- page that says it in the learner's language:
--   'step2_pending' ()  'period' (not before)  'long_tx' (txid)
--   'consumer' (consumer, tick)  'ready' (next table)
-- 'long_tx' names the oldest open transaction with a txid when it is what
-- keeps the blocking consumer's cursor behind step 2 (it is open since
-- before step 2, so no tick taken now passes it).
-- Guarantee: reads only; applies rules 1-3 above (rule 4 is only known by
-- trying the lock).
create function pgque.rotation_status(i_queue_id int, out ready boolean, out note text, out blocker text,
                                   out reason text, out args text[])
language plpgsql stable as $$
declare
    q pgque.queue;
    v_next text;
    v_cons text;
    v_tick bigint;
begin
    select * into q from pgque.queue where queue_id = i_queue_id;
    v_next := 'event_' || q.queue_id || '_' || ((q.queue_cur_table + 1) % q.queue_ntables);
    ready := false;
    if q.queue_switch_step2 is null then
        note := 'waits for rotation step 2 after the last switch (pgque.maint_rotate_tables_step2, PgQue''s job every 10 s)';
        reason := 'step2_pending';
        return;
    end if;
    if now() < q.queue_switch_time + q.queue_rotation_period then
        note := format('rotation period: not before %s', q.queue_switch_time + q.queue_rotation_period);
        reason := 'period';
        args := array[(q.queue_switch_time + q.queue_rotation_period)::text];
        return;
    end if;
    select s.sub_consumer, s.sub_last_tick into v_cons, v_tick
      from pgque.subscription s
      join pgque.tick t on t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick
     where s.sub_queue = q.queue_id
       and pg_snapshot_xmin(t.tick_snapshot)::text::bigint <= q.queue_switch_step2
     order by s.sub_last_tick, s.sub_consumer
     limit 1;
    if found then
        blocker := v_cons;
        if pg_snapshot_xmin(pg_current_snapshot())::text::bigint <= q.queue_switch_step2 then
            -- every tick taken now has this xmin too: no cursor can pass step 2
            note := format('a transaction open since before step 2 (txid %s) holds rotation: consumer "%s" cannot pass it while it is open',
                           pg_snapshot_xmin(pg_current_snapshot()), v_cons);
            reason := 'long_tx';
            args := array[pg_snapshot_xmin(pg_current_snapshot())::text];
            return;
        end if;
        note := format('consumer "%s" holds rotation: its cursor (tick %s) is not past every event outside the current table; it must ack a tick taken after step 2',
                       v_cons, v_tick);
        reason := 'consumer';
        args := array[v_cons, v_tick::text];
        return;
    end if;
    ready := true;
    note := format('will truncate %s and make it current', v_next);
    reason := 'ready';
    args := array[v_next];
end;
$$;

-- pgque.maint_report(i_queue text) returns table
--   i_queue  a queue name, or null (default) for every queue
-- Returns (queue_name text, action text, detail text, reason text, args text[]),
-- one row per thing done or waited for, action one of:
--   'rotate'  switched tables (step 1); detail names the table truncated and its rows
--   'wait'    no switch; detail says why (step 2, period, a lagging consumer, a lock)
--   'ticks'   ticks no consumer needs any more were dropped
-- detail says it in English; reason and args say it as a code and values for
-- a page in another language: reason is the action, except for 'wait', where
-- it is rotation_status's reason or 'locked' (args: the table).
-- The lab's own: what PgQue's maint() does (rotation step 1 for every
-- queue), with the steps and their reasons returned, so the page can say
-- why a rotation waits. Step 2 and retries are jobs of their own
-- (maint_rotate_tables_step2, maint_retry_events).
-- Guarantee: TRUNCATEs only under the rotation rule above; never UPDATEs or
-- DELETEs an event table; never waits for a lock. Raises find_queue's
-- 'queue not found: <queue>' for an unknown queue name.
create function pgque.maint_report(i_queue text default null)
returns table (queue_name text, action text, detail text, reason text, args text[])
language plpgsql as $$
#variable_conflict use_column
declare
    q pgque.queue;
    st record;
    v_n int;
    v_next int;
    v_tbl text;
    v_rows bigint;
    v_keep bigint;
begin
    if i_queue is not null then
        perform pgque.find_queue(i_queue);
    end if;
    for q in
        select * from pgque.queue
         where i_queue is null or pgque.queue.queue_name = i_queue
         order by queue_id
           for update
    loop
        queue_name := q.queue_name;

        st := pgque.rotation_status(q.queue_id);
        if st.ready then
            v_next := (q.queue_cur_table + 1) % q.queue_ntables;
            v_tbl := pgque.event_table(q.queue_id, v_next);
            begin
                execute format('lock table %s in access exclusive mode nowait', v_tbl);
                execute format('select count(*) from %s', v_tbl) into v_rows;
                execute format('truncate %s', v_tbl);
                update pgque.queue
                   set queue_cur_table = v_next,
                       queue_switch_time = now(),
                       queue_switch_step1 = pg_current_xact_id()::text::bigint,
                       queue_switch_step2 = null
                 where queue_id = q.queue_id;
                action := 'rotate';
                detail := format('event_%s_%s -> event_%s_%s: truncated event_%s_%s (%s events)',
                                 q.queue_id, q.queue_cur_table, q.queue_id, v_next,
                                 q.queue_id, v_next, v_rows);
                reason := 'rotate';
                args := array[format('event_%s_%s', q.queue_id, q.queue_cur_table),
                              format('event_%s_%s', q.queue_id, v_next), v_rows::text];
            exception when lock_not_available then
                action := 'wait';
                detail := format('event_%s_%s is locked by another transaction (a prepared one?): not truncated',
                                 q.queue_id, v_next);
                reason := 'locked';
                args := array[format('event_%s_%s', q.queue_id, v_next)];
            end;
        else
            action := 'wait';
            detail := st.note;
            reason := st.reason;
            args := st.args;
        end if;
        return next;

        select coalesce(min(sub_last_tick), q.queue_last_tick) into v_keep
          from pgque.subscription where sub_queue = q.queue_id;
        delete from pgque.tick where tick_queue = q.queue_id and tick_id < v_keep;
        get diagnostics v_n = row_count;
        if v_n > 0 then
            action := 'ticks';
            detail := format('dropped %s ticks before tick %s, which no consumer needs', v_n, v_keep);
            reason := 'ticks';
            args := array[v_n::text, v_keep::text];
            return next;
        end if;
    end loop;
end;
$$;

-- pgque.maint() returns integer
-- PgQue's maint(): rotation step 1 for every queue that is due (the rule
-- above), in a transaction of its own; PgQue's scheduled job runs it every
-- 30 s. Returns what PgQue's returns: the sum of its steps' results, and
-- rotation step 1 returns 0, so 0. It does not record step 2 and does not
-- move retries: those are their own jobs (maint_rotate_tables_step2 every
-- 10 s, maint_retry_events every 30 s). maint_report() says what it did.
create function pgque.maint()
returns integer
language plpgsql as $$
begin
    perform pgque.maint_report();
    return 0;
end;
$$;

-- pgque.maint_rotate_tables_step1(i_queue text) returns integer
-- Rotation step 1 for one queue (what maint() runs for each): switches and
-- truncates under the rule above, or does nothing. Returns 0 (as PgQue).
create function pgque.maint_rotate_tables_step1(i_queue text)
returns integer
language plpgsql as $$
begin
    perform pgque.maint_report(i_queue);
    return 0;
end;
$$;

-- pgque.maint_rotate_tables_step2() returns integer
-- Rotation step 2: records this transaction's txid as step2 of every queue
-- whose last switch has none yet. Run it in a transaction of its own, after
-- the switch committed (PgQue's job pgque_rotate_step2, every 10 s).
-- Returns 0 (as PgQue).
create function pgque.maint_rotate_tables_step2()
returns integer
language plpgsql as $$
begin
    update pgque.queue set queue_switch_step2 = pg_current_xact_id()::text::bigint
     where queue_switch_step2 is null;
    return 0;
end;
$$;
