select * from pgq.maint()
