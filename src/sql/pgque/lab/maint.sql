-- Rotation for every queue: the steps taken and why a rotation waits
select * from pgque.maint()
