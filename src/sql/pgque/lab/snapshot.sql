-- What L4's page draws, read in one statement ($1 queue, $2 dead letters listed): lab time,
-- whether the in-flight demo's transaction is prepared, PgQue's four jobs, and, while the
-- queue exists, its queue_report row, its consumers (a cooperative group's members left to
-- subs, as consumer_info.sql does), its subconsumers, event tables, cursors, retries and
-- newest dead letters. The same reads as queue_info.sql, consumer_info.sql,
-- subconsumer_info.sql, table_info.sql, cursor_info.sql, retry_list.sql, dlq_inspect.sql,
-- inflight_find.sql and jobs.sql, each part as JSON text (one reply instead of eleven).
-- Timestamps are cast to text, as Postgres prints them (JSON would write them ISO 8601's way).
-- A dropped queue gives the time, the in-flight flag and the jobs only: get_table_info and
-- get_cursor_info refuse an unknown queue, so their parts are read only when it exists.
-- Without schema pgque (pgque.uninstall()) this fails to plan (3F000); the lab then reads
-- the time and the in-flight flag alone (uninstalled.sql).
-- Statistics (table's dead tuples) are read as last flushed: flush_stats.sql runs first, as a
-- statement of its own, since Postgres flushes them only after a statement ends.
with q as (select exists (select 1 from pgque.queue where queue_name = $1) as here)
select now()::text as now,
       exists (select 1 from pg_prepared_xacts where gid = 'pgq_inflight') as inflight_open,
       coalesce((select json_agg(j order by j.job_order)
                   from (select job_name, job_order, extract(epoch from schedule)::int as every_s,
                                scheduled, to_char(last_run, 'HH24:MI:SS.MS') as last_run,
                                to_char(next_run, 'HH24:MI:SS.MS') as next_run, runs, total
                           from pgque.lab_job) j), '[]')::text as jobs,
       case when q.here then
         (select (to_jsonb(r) || jsonb_build_object('queue_switch_time', r.queue_switch_time::text,
                                                    'last_tick_time', r.last_tick_time::text))::text
            from pgque.queue_report($1) r)
       end as queue,
       case when q.here then
         coalesce((select json_agg(to_jsonb(c) || jsonb_build_object('last_tick_time', c.last_tick_time::text)
                                   order by c.ordinality)
                     from pgque.consumer_report($1) with ordinality c
                    where not exists (select 1 from pgque.subscription s
                                        join pgque.queue sq on sq.queue_id = s.sub_queue
                                       where sq.queue_name = c.queue_name
                                         and s.sub_consumer = c.consumer_name
                                         and s.sub_role = 'coop_member')), '[]')::text
       end as consumers,
       case when q.here then
         coalesce((select json_agg(s order by s.ordinality) from pgque.get_subconsumer_info($1) with ordinality s),
                  '[]')::text
       end as subs,
       case when q.here then
         coalesce((select json_agg(t order by t.ordinality) from pgque.get_table_info($1) with ordinality t),
                  '[]')::text
       end as tables,
       case when q.here then
         coalesce((select json_agg(k order by k.ordinality) from pgque.get_cursor_info($1) with ordinality k),
                  '[]')::text
       end as cursors,
       case when q.here then
         coalesce((select json_agg(x order by x.retry_after_at, x.msg_id)
                     from (select s.sub_consumer as consumer, r.ev_id as msg_id,
                                  r.ev_retry as retry_count, r.ev_retry_after::text as retry_after,
                                  r.ev_reason as reason, r.ev_retry_after <= now() as due,
                                  r.ev_retry_after as retry_after_at
                             from pgque.retry_queue r
                             join pgque.subscription s on s.sub_id = r.ev_owner
                             join pgque.queue rq on rq.queue_id = r.ev_queue
                            where rq.queue_name = $1) x), '[]')::text
       end as retries,
       case when q.here then
         coalesce((select json_agg(to_jsonb(d) || jsonb_build_object('dl_consumer', c.co_name,
                                                                     'ev_time', d.ev_time::text,
                                                                     'dl_time', d.dl_time::text)
                                   order by d.dl_time desc, d.dl_id desc)
                     from pgque.dlq_inspect($1, $2) d
                     join pgque.consumer c on c.co_id = d.dl_consumer_id), '[]')::text
       end as dead
  from q
