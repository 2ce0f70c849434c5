select pg_notify('jobs', $1)
