-- Complete by deleting the row (strategy DELETE): the running version becomes a dead
-- tuple; nothing live is left behind.
-- $1 bigint[]: the ids a claim returned. Returns nothing; rows affected = jobs completed.
delete from jobs
 where id = any($1::bigint[])
