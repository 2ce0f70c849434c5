-- The "long transaction" switch, off: end the prepared transaction; the horizon moves on
-- and the next VACUUM can remove what it had to keep.
-- Parameterless; must run as its own statement (not inside a transaction block).
rollback prepared 'lab_long_tx'
