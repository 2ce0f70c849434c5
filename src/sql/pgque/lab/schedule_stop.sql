-- PgQue's stop(): its four jobs unscheduled
select pgque.stop()
