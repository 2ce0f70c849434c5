-- NOTIFY jobs with payload $1: delivered to the listeners when the transaction commits, never before.
select pg_notify('jobs', $1)
