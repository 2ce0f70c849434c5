select set_config('lab.clock', (now() + make_interval(secs => $1))::text, false) as now
