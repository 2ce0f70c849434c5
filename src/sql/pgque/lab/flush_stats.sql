-- Statistics reach pg_stat_user_tables only when flushed; flush before reading dead tuples.
select pg_stat_force_next_flush()
