select pgq.maint_retry_events($1) as released
