select now()::text as now
