select pgq.subscribe($1, $2) as done
