commit prepared 'pgq_inflight'
