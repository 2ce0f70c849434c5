select pgq.unregister_subconsumer($1, $2, $3) as done
