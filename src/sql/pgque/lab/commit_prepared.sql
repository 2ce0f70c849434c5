-- In-flight demo: commit the prepared transaction (its event is then in the next batch).
commit prepared 'pgq_inflight'
