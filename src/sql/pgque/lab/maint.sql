-- Rotation step 1 for every queue (PgQue's maint()): the steps taken and why a rotation waits
select * from pgque.maint_report()
