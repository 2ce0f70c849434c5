-- Puts every due retry back into its queue's current event table (PgQue: every 30 s).
select pgque.maint_retry_events() as released
