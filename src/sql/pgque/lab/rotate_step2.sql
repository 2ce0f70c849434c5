-- Rotation step 2, in a transaction of its own after step 1 (PgQue's job pgque_rotate_step2)
select pgque.maint_rotate_tables_step2() as step2
