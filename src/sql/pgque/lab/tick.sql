-- $1 queue: a tick if one is due (PgQ's thresholds), else null
select pgque.ticker($1) as tick_id
