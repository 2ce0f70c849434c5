rollback prepared 'pgq_inflight'
