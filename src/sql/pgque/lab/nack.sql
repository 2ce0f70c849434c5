-- $1 batch, $2 msg_id, $3 retry after (seconds), $4 reason. nack reads only msg_id from the
-- message (as PgQue); a consumer passes the row receive returned.
select pgque.nack($1, row($2::bigint, $1::bigint, null, null, null, null, null, null, null, null)::pgque.message,
                  make_interval(secs => $3), $4) as nacked
