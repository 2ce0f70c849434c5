-- The lab's own: a job with an ordering key ($2, schema.sql's `key` column), otherwise
-- enqueue.sql's defaults.
insert into jobs (payload, key)
values ($1::jsonb, $2)
returning id
