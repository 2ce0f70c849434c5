-- §5: how full NOTIFY's queue is now, and its largest size: max_notify_queue_pages
-- (PostgreSQL 17+, set at server start: SHOW max_notify_queue_pages) pages of block_size bytes.
select pg_notification_queue_usage() as usage,
       current_setting('max_notify_queue_pages')::bigint as max_pages,
       current_setting('block_size')::int as page_bytes
