select pgq.register_subconsumer($1, $2, $3) as done
