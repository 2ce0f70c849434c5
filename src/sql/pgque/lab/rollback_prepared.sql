-- In-flight demo: roll the prepared transaction back (its event never existed).
rollback prepared 'pgq_inflight'
