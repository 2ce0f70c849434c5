-- Moves the lab clock $1 seconds, running each scheduled job that falls due on the way (each its own transaction); returns what they did
call pgque.run_jobs(now() + make_interval(secs => $1))
