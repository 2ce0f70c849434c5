-- Moves this session's lab time forward by $1 seconds; returns the new time.
select set_config('lab.clock', (now() + make_interval(secs => $1))::text, false) as now
