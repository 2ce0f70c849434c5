-- §5: n NOTIFYs of `bytes` bytes each, every one committed on its own (a procedure may
-- COMMIT), while this session is busy in the CALL. A session that LISTENs (the lab's listens
-- on jobs and job_dead) reads the queue only when it is idle, and the queue keeps every
-- notification from the oldest one a listener has not read: so the burst stays queued until
-- the CALL ends. Returns the queue's usage (pg_notification_queue_usage(), a fraction of
-- max_notify_queue_pages) before and after the burst, and how long the burst took.
create or replace procedure notify_burst(n int, bytes int,
                                         inout usage_before float8 default null,
                                         inout usage_after float8 default null,
                                         inout elapsed_ms float8 default null)
language plpgsql as $$
declare
  started timestamptz := clock_timestamp();
begin
  usage_before := pg_notification_queue_usage();
  for i in 1..n loop
    perform pg_notify('burst', repeat('x', bytes));
    commit;
  end loop;
  usage_after := pg_notification_queue_usage();
  elapsed_ms := extract(epoch from clock_timestamp() - started) * 1000;
end
$$;
