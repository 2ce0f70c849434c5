select pgq.register_consumer($1, $2) as sub_id
