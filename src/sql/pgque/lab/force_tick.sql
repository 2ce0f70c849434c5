-- $1 queue: the next ticker($1) ticks whatever its thresholds (PgQue's demo idiom)
select pgque.force_next_tick($1) as last_tick
