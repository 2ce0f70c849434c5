select pgq.unsubscribe($1, $2) as done
