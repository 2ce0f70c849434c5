-- In-flight demo: the send failed before PREPARE; undo the open transaction.
rollback
