-- §5: a burst of $1 NOTIFYs of $2 bytes each while this listening session is busy (notify_burst_proc.sql).
call notify_burst($1, $2, null, null, null)
