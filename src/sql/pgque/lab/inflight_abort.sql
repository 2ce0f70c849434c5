-- In-flight demo: the script failed before PREPARE; end its open, failed transaction.
rollback
