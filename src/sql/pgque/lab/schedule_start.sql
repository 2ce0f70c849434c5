-- PgQue's start(): its four jobs, scheduled on the lab clock
select pgque.start()
