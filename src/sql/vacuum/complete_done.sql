-- Complete by keeping the row (strategies keep rows and rotation): running -> done is one
-- more row version per job; the running version becomes a dead tuple.
-- $1 bigint[]: the ids a claim returned. Returns nothing; rows affected = jobs completed.
update jobs
   set status = 'done', locked_until = null
 where id = any($1::bigint[])
