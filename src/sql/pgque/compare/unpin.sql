-- End the side by side's long transaction; the horizon moves on.
rollback prepared 'pgq_compare_pin'
